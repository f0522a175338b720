"""Two peer table metrics on the same aligned charts: DePlot's RMS F1 and ChartQA's RNSS.

RMS (Liu et al. 2023, DePlot): each table is a set of entries keyed ``"series x"`` (lower
case) with the y cell as value. A pair scores ``key * value``: ``key = 1 - NL`` when the
normalised Levenshtein distance ``NL < 0.5`` (else 0); ``value = 1 - D`` for numbers with the
relative distance ``D = min(1, |p - t| / |t|)`` set to 1 when ``D >= 0.1`` (an exact match is
needed when ``t = 0``); equal non-numeric cells give 1, others the ANLS of the cells. Entries
are paired one-to-one maximising the summed score (Hungarian); precision divides the sum by
the predicted entries, recall by the true ones. Later duplicate keys overwrite earlier ones,
as in DePlot's dictionary.

RNSS (Masry et al. 2022): every numeric cell of both tables (x and y), paired one-to-one
minimising the summed relative distance (not thresholded), ``1 - sum / max(N, M)``.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from rapidfuzz.distance import Levenshtein
from scipy.optimize import linear_sum_assignment

from figgen.density.match import cell_number
from figgen.density.tables import Row

KEY_THRESHOLD = 0.5
NUMBER_THRESHOLD = 0.1


def anls(target: str, prediction: str, threshold: float = KEY_THRESHOLD) -> float:
    """1 - normalised Levenshtein distance, or 0 at or above ``threshold``."""
    longest = max(len(target), len(prediction))
    if longest == 0:
        return 1.0
    distance = Levenshtein.distance(target, prediction) / longest
    return 1 - distance if distance < threshold else 0.0


def relative_distance(target: float, prediction: float, threshold: float = 1.0) -> float:
    """``min(1, |t - p| / |t|)``, set to 1 at or above ``threshold``; t = 0 needs p = 0."""
    if target == 0:
        return float(prediction != 0)
    distance = min(abs((target - prediction) / target), 1.0)
    return distance if distance < threshold else 1.0


_Entry = tuple[str, str, float | None]  # key, value text, value as a number


def _entries(rows: Sequence[Row]) -> list[_Entry]:
    entries: dict[str, str] = {}
    for row in rows:
        entries[f"{row.series.strip()} {row.x.strip()}".lower()] = row.y.strip().lower()
    return [(key, value, cell_number(value)) for key, value in entries.items()]


def _pair_score(target: _Entry, prediction: _Entry) -> float:
    key = anls(target[0], prediction[0])
    if not key:
        return 0.0
    t, p = target[2], prediction[2]
    if p is not None and t:
        return key * (1 - relative_distance(t, p, NUMBER_THRESHOLD))
    if target[1] == prediction[1]:
        return key
    return key * anls(target[1], prediction[1])


def rms_f1(predicted: Sequence[Row], truth: Sequence[Row]) -> tuple[float, float, float]:
    """RMS precision, recall and F1 of a predicted table against the true one."""
    targets, predictions = _entries(truth), _entries(predicted)
    if not targets and not predictions:
        return 1.0, 1.0, 1.0
    if not targets:
        return 0.0, 1.0, 0.0
    if not predictions:
        return 1.0, 0.0, 0.0
    scores = np.array([[_pair_score(t, p) for p in predictions] for t in targets])
    rows, cols = linear_sum_assignment(1 - scores)
    total = float(scores[rows, cols].sum())
    precision, recall = total / len(predictions), total / len(targets)
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return precision, recall, f1


def _numbers(rows: Sequence[Row]) -> list[float]:
    return [n for row in rows for cell in (row.x, row.y) if (n := cell_number(cell)) is not None]


def rnss(predicted: Sequence[Row], truth: Sequence[Row]) -> float:
    """Relative number set similarity of the numeric cells of two tables."""
    targets, predictions = _numbers(truth), _numbers(predicted)
    if not targets and not predictions:
        return 1.0
    if not targets or not predictions:
        return 0.0
    cost = np.array([[relative_distance(t, p) for p in predictions] for t in targets])
    rows, cols = linear_sum_assignment(cost)
    return 1 - float(cost[rows, cols].sum()) / max(len(targets), len(predictions))
