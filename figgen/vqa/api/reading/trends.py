"""Level 3 verdicts: the generating distribution's answer, given only where the drawing agrees.

Every verdict starts from how the data were generated (``panel.distribution`` and
``panel.params``) and is returned only when the drawn data make it visually unambiguous;
otherwise the function returns None and no question is asked. Points are judged in display
coordinates (log10 of the values on a log axis): the generator draws its relations in those
coordinates (``in_log10_x``, ``log_y_mapped``), and they are what a reader sees. The rules:

Linearity (a line series or a scatter panel), choices "linear" / "nonlinear":
    At least 5 finite points. "linear" when the generator was linear AND the least-squares
    line through the drawn points has R^2 >= 0.95 AND no point lies farther from it than 15%
    of the points' y span (one wild point makes a reader doubt). "nonlinear" when the
    generator was not linear AND R^2 <= 0.5. Anything between is skipped.
Trend (a line series or a scatter panel, and same_trend across panels): a point set that
    passes the "linear" rule is "increasing" or "decreasing" by the sign of its generating slope,
    which the drawn fit must share; a panel has a trend when all its point sets share one.
Symmetry (histogram), choices "symmetric" / "left-skewed" / "right-skewed":
    Both axes linear, >= 100 samples, >= 5 non-empty bins and >= 10 samples per non-empty
    bin (fewer and counting noise hides the shape). The skewness of the drawn bars
    (bin centres weighted by counts) is the visual check. "left-skewed" / "right-skewed" when
    the generator was a ramp (linear) whose density rises / falls with the value AND the drawn
    skewness has that sign with magnitude >= 0.3. "symmetric" when the generator was symmetric
    (uniform "random", or a mixture whose components all share one mean) AND
    |drawn skewness| <= 0.15.
Modes (histogram from a Gaussian mixture): both axes linear, >= 200 samples, >= 10 bins and
    >= 20 samples per non-empty bin; the peaks of the mixture density over the drawn bin
    range, counted by :func:`figgen.vqa.api.reading.measures.count_peaks` (a peak must reach 10% of
    the tallest and dip to 75% of its height before any taller one), must not change when the dip
    is 95% or the floor 20%, and must equal the peaks of the drawn counts that stand out from
    bin-count noise (:func:`figgen.vqa.api.reading.features.bars`, what the descriptions state).
Clusters (scatter from a Gaussian mixture): both axes linear (the stored centres are in data
    units); with the drawn data range scaled to the panel's pixel shape, every point is
    assigned to its nearest generating centre; each cluster must hold >= 10 points, and every
    two centres must be at least 2 x (r_i + r_j) apart, where r is a cluster's RMS radius (for
    round Gaussian clusters about 5.7 standard deviations, so their 2-sigma outlines do not
    touch), and the drawn grouping (:func:`figgen.vqa.api.reading.features.groups`, what
    descriptions state) must find as many groups (one component: no groups). The answer is the
    number of components.
Contour fields (gradient direction, peaks): see :mod:`figgen.vqa.api.reading.contour_trends`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from figgen.schema.panel import PanelRecord
from figgen.schema.params import Clusters, LinearRelation, MixtureSamples, PanelParams, RampSamples
from figgen.vqa.api.reading import features
from figgen.vqa.api.reading.drawn import binned, cloud
from figgen.vqa.api.reading.measures import count_peaks, display, linear_fit

Linearity = Literal["linear", "nonlinear"]
Trend = Literal["increasing", "decreasing"]
Symmetry = Literal["symmetric", "left-skewed", "right-skewed"]

LINEAR_R2 = 0.95
NONLINEAR_R2 = 0.5
MIN_POINTS = 5
MIN_CLUSTER_POINTS = 10
MAX_RESIDUAL = 0.15
SKEWED = 0.3
SYMMETRIC = 0.15
CLUSTER_GAP = 2.0
SHAPE_PER_BIN = 10
"""Fewer samples per non-empty bin than this and counting noise hides a histogram's shape."""
MODES_PER_BIN = 20
STABLE_PEAK_RULES = ((0.75, 0.1), (0.95, 0.1), (0.75, 0.2))
"""(dip, floor) pairs that must all give the same peak count of the generating density: a count
that changes with how deep a dip or how tall a peak must be is not visually unambiguous."""


def linearity(
    x: Sequence[float], y: Sequence[float], distribution: str, xscale: str, yscale: str
) -> Linearity | None:
    """The linearity verdict for one set of drawn points, or None where it is doubtful."""
    xs, ys = display(x, xscale), display(y, yscale)
    keep = np.isfinite(xs) & np.isfinite(ys)
    if keep.sum() < MIN_POINTS:
        return None
    slope, intercept, r2 = linear_fit(xs[keep], ys[keep])
    residual = np.abs(ys[keep] - (slope * xs[keep] + intercept))
    close = float(residual.max()) <= MAX_RESIDUAL * float(np.ptp(ys[keep]))
    if distribution == "linear" and r2 >= LINEAR_R2 and close:
        return "linear"
    if distribution != "linear" and r2 <= NONLINEAR_R2:
        return "nonlinear"
    return None


def display_fit(
    panel: PanelRecord, x: Sequence[float], y: Sequence[float]
) -> tuple[float, float, float]:
    """:func:`linear_fit` of points in the panel's display coordinates."""
    xs = display(x, panel.xscale)
    ys = display(y, panel.yscale)
    keep = np.isfinite(xs) & np.isfinite(ys)
    return linear_fit(xs[keep], ys[keep])


@dataclass
class PointSet:
    """One set of drawn points of a panel (a line's series, a scatter) and its generator."""

    x: list[float]
    y: list[float]
    params: PanelParams | None = None
    """How the points were generated (a relation or clusters; None where not known)."""


def series_trend(panel: PanelRecord, points: PointSet) -> Trend | None:
    """Whether one drawn point set rises or falls, where it is clearly linear.

    The direction is the sign of the generating slope (``params.slope``; a log axis keeps
    it: the generator maps values onto decades monotonically) and must match the fit of the
    drawn points.
    """
    xscale, yscale = panel.xscale, panel.yscale
    if linearity(points.x, points.y, panel.distribution, xscale, yscale) != "linear":
        return None
    slope = points.params.slope if isinstance(points.params, LinearRelation) else None
    drawn = display_fit(panel, points.x, points.y)[0]
    if slope is None or slope == 0 or (slope > 0) != (drawn > 0):
        return None
    return "increasing" if slope > 0 else "decreasing"


def panel_trend(panel: PanelRecord, point_sets: Sequence[PointSet]) -> Trend | None:
    """The common direction of every linear relation of a panel's point sets, or None."""
    directions = {series_trend(panel, points) for points in point_sets}
    if len(directions) != 1:
        return None
    return directions.pop()


def linear_axes(panel: PanelRecord) -> bool:
    return panel.xscale == "linear" and panel.yscale == "linear"


def drawn_skewness(counts: Sequence[float], edges: Sequence[float]) -> float:
    """Skewness of the bars as drawn: bin centres weighted by their counts."""
    w = np.asarray(counts, dtype=float)
    e = np.asarray(edges, dtype=float)
    centres = (e[:-1] + e[1:]) / 2
    mean = np.average(centres, weights=w)
    var = np.average((centres - mean) ** 2, weights=w)
    if var <= 0:
        return 0.0
    return float(np.average((centres - mean) ** 3, weights=w) / var**1.5)


def generating_symmetry(panel: PanelRecord) -> Symmetry | None:
    """What the generator's density looks like: symmetric, a rising or a falling ramp."""
    distribution = panel.distribution
    if distribution == "random":
        return "symmetric"
    if distribution == "linear":
        ramp = panel.params_as(RampSamples)
        if ramp is None or ramp.rising is None:
            return None
        return "left-skewed" if ramp.rising else "right-skewed"
    if distribution == "gmm":
        mixture = gaussian_mixture(panel)
        if mixture is not None and len({round(m, 9) for m in mixture[0]}) == 1:
            return "symmetric"
    return None


def symmetry(panel: PanelRecord) -> Symmetry | None:
    """The symmetry verdict for a histogram panel, or None where it is doubtful."""
    data = binned(panel)
    counts = data.counts
    filled = sum(c > 0 for c in counts)
    if (
        not linear_axes(panel)
        or len(data.samples) < 100
        or filled < 5
        or len(data.samples) < SHAPE_PER_BIN * filled
    ):
        return None
    truth = generating_symmetry(panel)
    drawn = drawn_skewness(counts, data.bin_edges)
    if truth == "symmetric" and abs(drawn) <= SYMMETRIC:
        return truth
    if truth == "left-skewed" and drawn <= -SKEWED:
        return truth
    if truth == "right-skewed" and drawn >= SKEWED:
        return truth
    return None


def gaussian_mixture(panel: PanelRecord) -> tuple[list[float], list[float], list[float]] | None:
    """``(means, stds, weights)`` of a histogram's generating mixture, or None."""
    mixture = panel.params_as(MixtureSamples)
    if mixture is None:
        return None
    means, stds = mixture.means, mixture.stds
    if not means or not stds or len(means) != len(stds):
        return None
    weights = mixture.weights or [1.0] * len(means)
    if np.ndim(means) != 1:
        return None
    return [float(m) for m in means], [float(s) for s in stds], [float(w) for w in weights]


def n_modes(panel: PanelRecord) -> int | None:
    """The number of modes of a Gaussian-mixture histogram, or None where it is doubtful."""
    data = binned(panel)
    if panel.distribution != "gmm" or not linear_axes(panel):
        return None
    mixture = gaussian_mixture(panel)
    counts = np.asarray(data.counts, dtype=float)
    filled = int((counts > 0).sum())
    if (
        mixture is None
        or len(data.samples) < 200
        or len(counts) < 10
        or len(data.samples) < MODES_PER_BIN * filled
    ):
        return None
    means, stds, weights = (np.asarray(v) for v in mixture)
    edges = np.asarray(data.bin_edges, dtype=float)
    grid = np.linspace(edges[0], edges[-1], 512)
    density = (
        weights[:, None]
        / stds[:, None]
        * np.exp(-0.5 * ((grid[None, :] - means[:, None]) / stds[:, None]) ** 2)
    ).sum(0)
    verdicts = {count_peaks(density, dip=dip, floor=floor) for dip, floor in STABLE_PEAK_RULES}
    if len(verdicts) != 1:
        return None
    truth = verdicts.pop()
    return truth if len(features.bars(panel).peaks) == truth else None


def cluster_centres(panel: PanelRecord) -> list[tuple[float, float]] | None:
    """The 2-D component centres of a scatter panel's generating mixture, or None."""
    clusters = panel.params_as(Clusters)
    centres = clusters.centres if clusters is not None else None
    if not centres or np.ndim(centres) != 2 or np.shape(centres)[1] != 2:
        return None
    return [(float(c[0]), float(c[1])) for c in centres]


def separated_mixture(
    panel: PanelRecord,
    aspect: float = 1.0,
    *,
    min_points: int = MIN_CLUSTER_POINTS,
    gap: float = CLUSTER_GAP,
) -> int | None:
    """The number of components of a Gaussian-mixture scatter panel on linear axes when they
    stand apart as drawn, else None.

    Apart: each point is assigned to its nearest generating centre, each component holds at
    least ``min_points`` points, and every two centres are at least ``gap`` times the sum of
    their RMS radii apart; distances are judged as seen (``aspect``: the drawn panel's
    height / width in pixels).
    """
    if panel.kind != "scatter" or panel.distribution != "gmm":
        return None
    if not linear_axes(panel):
        return None
    centres = cluster_centres(panel)
    if centres is None:
        return None
    data = cloud(panel)
    points = np.column_stack([data.x, data.y]).astype(float)
    low, span = points.min(0), np.ptp(points, 0)
    if np.any(span == 0):
        return None
    shape = np.array([1.0, aspect])
    unit = (points - low) / span * shape
    c = (np.asarray(centres) - low) / span * shape
    nearest = np.argmin(((unit[:, None, :] - c[None, :, :]) ** 2).sum(-1), axis=1)
    radii = []
    for k in range(len(c)):
        members = unit[nearest == k]
        if len(members) < min_points:
            return None
        radii.append(float(np.sqrt(((members - c[k]) ** 2).sum(1).mean())))
    for i in range(len(c)):
        for j in range(i + 1, len(c)):
            if np.linalg.norm(c[i] - c[j]) < gap * (radii[i] + radii[j]):
                return None
    return len(c)


def n_clusters(panel: PanelRecord, aspect: float = 1.0) -> int | None:
    """The number of clusters of a Gaussian-mixture scatter panel, or None where doubtful:
    the components stand apart (:func:`separated_mixture`) and the drawn points split into
    as many groups (``aspect``: the drawn panel's height / width in pixels)."""
    n = separated_mixture(panel, aspect)
    if n is None:
        return None
    drawn = features.groups(panel, aspect)
    shown = drawn.n if drawn is not None else 1  # no split shows: one cloud
    return n if shown == n else None
