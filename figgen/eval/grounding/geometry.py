"""Where a model looks, scored: distance-IoU for boxes, Chamfer distance for point sets.

Both follow LongChart (appendix F): ``DIoU = IoU - rho^2(c_pred, c_true) / d^2`` with ``rho``
the distance between the box centres and ``d`` the diagonal of the smallest box enclosing
both, so DIoU lies in (-1, 1] and is 1 only for identical boxes; the bidirectional Chamfer
distance is the mean nearest-neighbour distance from predicted to true points plus the mean
from true to predicted points.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

Box = tuple[float, float, float, float]
"""``(x0, y0, x1, y1)``, x0 <= x1 and y0 <= y1, in pixels with the origin top-left."""
Point = tuple[float, float]

UNMATCHED_DIOU = -1.0
"""What a box with no partner scores: the lower bound of DIoU."""


def iou(a: Box, b: Box) -> float:
    """Intersection over union; two degenerate (zero-area) boxes count as equal if identical."""
    width = min(a[2], b[2]) - max(a[0], b[0])
    height = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(0.0, width) * max(0.0, height)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    if union <= 0:
        return 1.0 if tuple(a) == tuple(b) else 0.0
    return inter / union


def diou(predicted: Box, truth: Box) -> float:
    """Distance-IoU of one predicted box against one true box, in (-1, 1]."""
    rho2 = ((predicted[0] + predicted[2]) - (truth[0] + truth[2])) ** 2 / 4 + (
        (predicted[1] + predicted[3]) - (truth[1] + truth[3])
    ) ** 2 / 4
    enclosing_w = max(predicted[2], truth[2]) - min(predicted[0], truth[0])
    enclosing_h = max(predicted[3], truth[3]) - min(predicted[1], truth[1])
    d2 = enclosing_w**2 + enclosing_h**2
    return iou(predicted, truth) - (rho2 / d2 if d2 > 0 else 0.0)


def matched_diou(predicted: Sequence[Box], truth: Sequence[Box]) -> float:
    """Mean DIoU of predicted and true boxes paired one to one (the pairing maximising the sum).

    A box left without a partner on either side scores ``UNMATCHED_DIOU``, and the mean runs
    over ``max(len(predicted), len(truth))`` pairs, so extra and missing boxes both cost.
    With one box on each side this is plain DIoU.
    """
    if not predicted or not truth:
        return UNMATCHED_DIOU
    from scipy.optimize import linear_sum_assignment

    scores = np.array([[diou(p, t) for t in truth] for p in predicted])
    rows, cols = linear_sum_assignment(scores, maximize=True)
    total = float(scores[rows, cols].sum())
    pairs = max(len(predicted), len(truth))
    total += UNMATCHED_DIOU * (pairs - len(rows))
    return total / pairs


def chamfer(predicted: Sequence[Point], truth: Sequence[Point]) -> float:
    """Bidirectional Chamfer distance between two non-empty point sets, in pixels."""
    if not predicted or not truth:
        raise ValueError("the Chamfer distance needs at least one point on each side")
    p = np.asarray(predicted, dtype=float)
    t = np.asarray(truth, dtype=float)
    distances = np.sqrt(((p[:, None, :] - t[None, :, :]) ** 2).sum(axis=2))
    return float(distances.min(axis=1).mean() + distances.min(axis=0).mean())


def normalised_chamfer(
    predicted: Sequence[Point], truth: Sequence[Point], width: float, height: float
) -> float:
    """The Chamfer distance over the image diagonal, so it does not depend on resolution."""
    return chamfer(predicted, truth) / math.hypot(width, height)


def enclosing(boxes: Sequence[Box]) -> Box:
    """The smallest box holding every box."""
    return (
        min(b[0] for b in boxes),
        min(b[1] for b in boxes),
        max(b[2] for b in boxes),
        max(b[3] for b in boxes),
    )


def centre(box: Box) -> Point:
    return ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
