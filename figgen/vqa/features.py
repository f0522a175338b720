"""Measured features of what a panel draws: the one source of the shapes questions and texts state.

Level 2 and Level 3 descriptions and the Level 3 questions (``n_modes``, ``n_clusters``) read
these features, so a description can never say one tallest bar or peak count and a question
or another level another. Everything is measured on what is drawn:

Tallest bar: the first bin holding the largest drawn count.
Peaks of a histogram: local maxima of the drawn counts (a flat top counts once, at its
    middle) inside the drawn range. A peak's base is the higher of the two lowest counts
    between it and the next higher bar (or the end of the range) on either side, as in
    ``scipy.signal.peak_prominences``. It stands out from bin-count noise when
    ``height - base >= PEAK_Z * sqrt(height + base)`` (counts are Poisson, so the difference
    of two has variance about their sum: a one-sided test at about p = 0.001) and the dip is
    at least ``PEAK_DEPTH`` of the tallest bar (shallower notches are not seen).
Groups of a scatter: the points in display coordinates (log10 on a log axis), scaled to the
    panel's pixel shape, are split by Ward linkage into k = 2..``MAX_GROUPS`` groups, each
    holding at least ``MIN_GROUP_SHARE`` of the points (and 3). A split shows when its mean
    silhouette (:func:`silhouette`, computed as ``sklearn.metrics.silhouette_score`` does) is
    at least ``GROUPS_SILHOUETTE`` and the points thin out between every group and its
    nearest neighbour group: along the line joining their centroids, the band around the
    midpoint (0.3 of the way wide) holds at most half the points of the same bands around the
    two centroids, by at least ``DIP_Z`` Poisson standard deviations (a line or a long even
    cloud cut into pieces has no such dip, so it is not called groups). The finest split that
    shows is the drawn grouping (a coarser one would merge groups a reader sees apart); a
    silhouette of ``SEPARATE_SILHOUETTE`` or more reads as separate clusters, below it as
    groups that partly overlap. On 300 composed default figures this finds groups in 42 of 43
    scatter panels whose mixture centres lie at least 1.5 times the sum of the clusters' RMS
    radii apart, in 8 of 234 linear and 2 of 258 uniform ones.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from figgen.records import PanelRecord
from figgen.vqa.measures import display

PEAK_Z = 3.0
PEAK_DEPTH = 0.1
MAX_GROUPS = 6
GROUPS_SILHOUETTE = 0.5
SEPARATE_SILHOUETTE = 0.7
DIP_Z = 2.0
DIP_BAND = 0.15
"""Half the width of the bands compared along the line between two centroids."""
MIN_GROUP_SHARE = 0.05
MIN_GROUP_POINTS = 12
"""Fewer points than this and a split into groups is chance."""


@dataclass(frozen=True)
class Bars:
    """What a histogram's drawn bars show: the tallest bar and the peaks beyond noise."""

    tallest: int
    """Bin index of the (first) tallest bar."""
    peaks: tuple[int, ...]
    """Bin indices of the peaks that stand out from bin-count noise, left to right."""
    centres: tuple[float, ...]
    """Bin centres (value axis)."""
    counts: tuple[int, ...]

    @property
    def tallest_count(self) -> int:
        return self.counts[self.tallest]

    @property
    def tallest_centre(self) -> float:
        return self.centres[self.tallest]

    @property
    def peak_centres(self) -> list[float]:
        return [self.centres[i] for i in self.peaks]


def local_maxima(heights: Sequence[float]) -> list[int]:
    """Interior local maxima (a plateau once, at its middle, rounded down)."""
    h = [float(v) for v in heights]
    out = []
    i = 1
    while i < len(h) - 1:
        if h[i - 1] < h[i]:
            j = i
            while j + 1 < len(h) and h[j + 1] == h[i]:
                j += 1
            if j + 1 < len(h) and h[j + 1] < h[i]:
                out.append((i + j) // 2)
            i = j + 1
        else:
            i += 1
    return out


def base(heights: Sequence[float], peak: int) -> float:
    """The higher of the lowest points between ``peak`` and the next higher point each side."""
    h = [float(v) for v in heights]
    top = h[peak]
    sides = []
    for step in (-1, 1):
        low, i = top, peak + step
        while 0 <= i < len(h) and h[i] <= top:
            low = min(low, h[i])
            i += step
        sides.append(low)
    return max(sides)


def stands_out(height: float, floor: float, tallest: float) -> bool:
    """Whether a peak of ``height`` over a dip to ``floor`` beats count noise and is seen."""
    rise = height - floor
    return rise >= PEAK_Z * math.sqrt(height + floor) and rise >= PEAK_DEPTH * tallest


def bars(panel: PanelRecord) -> Bars:
    """The :class:`Bars` of a histogram panel."""
    data = panel.data
    counts = [int(c) for c in data["counts"]]
    edges = [float(e) for e in data["bin_edges"]]
    return _bars(tuple(counts), tuple(edges))


@lru_cache(maxsize=1024)
def _bars(counts: tuple[int, ...], edges: tuple[float, ...]) -> Bars:
    centres = tuple((a + b) / 2 for a, b in zip(edges[:-1], edges[1:], strict=True))
    tallest = int(np.argmax(counts)) if counts else 0
    top = float(max(counts, default=0))
    peaks = tuple(i for i in local_maxima(counts) if stands_out(counts[i], base(counts, i), top))
    return Bars(tallest, peaks, centres, counts)


@dataclass(frozen=True)
class Groups:
    """A drawn grouping of scatter points and how clearly it shows."""

    n: int
    silhouette: float

    @property
    def separate(self) -> bool:
        return self.silhouette >= SEPARATE_SILHOUETTE


def drawn_points(panel: PanelRecord, aspect: float) -> np.ndarray | None:
    """A panel's finite points in display coordinates, scaled to its pixel shape (w = 1)."""
    xs = display(panel.data["x"], panel.xscale)
    ys = display(panel.data["y"], panel.yscale)
    keep = np.isfinite(xs) & np.isfinite(ys)
    points = np.column_stack([xs[keep], ys[keep]])
    span = np.ptp(points, 0) if len(points) else np.zeros(2)
    if len(points) < MIN_GROUP_POINTS or np.any(span == 0):
        return None
    return (points - points.min(0)) / span * np.array([1.0, aspect])


def groups(panel: PanelRecord, aspect: float = 1.0) -> Groups | None:
    """The drawn :class:`Groups` of a scatter panel, or None where the points form no groups."""
    points = drawn_points(panel, aspect)
    if points is None:
        return None
    return _groups(points.tobytes(), len(points))


def thins_between(points: np.ndarray, labels: np.ndarray) -> bool:
    """Whether every group's points thin out toward its nearest group (the dip test)."""
    names = np.unique(labels)
    centroids = np.array([points[labels == g].mean(0) for g in names])
    for a in range(len(names)):
        gaps = np.linalg.norm(centroids - centroids[a], axis=1)
        gaps[a] = np.inf
        b = int(np.argmin(gaps))
        step = centroids[b] - centroids[a]
        pair = points[(labels == names[a]) | (labels == names[b])]
        along = (pair - centroids[a]) @ step / float(step @ step)
        middle = float(np.sum(np.abs(along - 0.5) < DIP_BAND))
        ends = float(np.sum(np.abs(along) < DIP_BAND) + np.sum(np.abs(along - 1) < DIP_BAND)) / 2
        if middle > ends / 2 or ends - middle < DIP_Z * math.sqrt(ends + middle):
            return False
    return True


def silhouette(distances: np.ndarray, labels: np.ndarray) -> float:
    """Mean silhouette of a labelling from the points' distance matrix (as scikit-learn's
    ``silhouette_score``: a point alone in its group scores 0)."""
    names, index = np.unique(labels, return_inverse=True)
    sums = np.stack([distances[:, index == g].sum(1) for g in range(len(names))], axis=1)
    sizes = np.bincount(index).astype(float)
    own = sizes[index] - 1
    rows = np.arange(len(labels))
    inside = np.divide(sums[rows, index], own, out=np.zeros(len(labels)), where=own > 0)
    means = sums / sizes
    means[rows, index] = np.inf
    nearest = means.min(1)
    score = (nearest - inside) / np.maximum(inside, nearest)
    return float(np.where(own > 0, score, 0.0).mean())


def cuts(tree: np.ndarray, n: int, ks: range) -> dict[int, np.ndarray]:
    """Labels (0..k-1) of the k-group cut of a linkage for each k in ``ks``: the first n - k
    merges joined (what ``fcluster(tree, k, "maxclust")`` gives for Ward's monotone merges)."""
    parent = list(range(2 * n - 1))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    out = {}
    for merged, (a, b, *_) in enumerate(tree, start=1):
        parent[root(int(a))] = parent[root(int(b))] = n + merged - 1
        k = n - merged
        if k in ks:
            roots = [root(i) for i in range(n)]
            out[k] = np.unique(roots, return_inverse=True)[1]
    return out


@lru_cache(maxsize=1024)
def _groups(raw: bytes, n: int) -> Groups | None:
    from scipy.cluster.hierarchy import linkage
    from scipy.spatial.distance import pdist, squareform

    points = np.frombuffer(raw, dtype=float).reshape(n, 2)
    distances = squareform(pdist(points))
    splits = cuts(linkage(points, method="ward"), n, range(2, MAX_GROUPS + 1))
    best: Groups | None = None
    for k, labels in sorted(splits.items()):
        sizes = np.bincount(labels)
        if len(sizes) != k or sizes.min() < max(3, MIN_GROUP_SHARE * n):
            continue
        score = silhouette(distances, labels)
        if score >= GROUPS_SILHOUETTE and thins_between(points, labels):
            best = Groups(k, score)  # the finest split that still shows: every gap is seen
    return best


def field_peaks(panel: PanelRecord, max_candidates: int) -> int | None:
    """:func:`figgen.vqa.contour_trends.drawn_peaks` of a contour panel, measured once for
    its description and its figure's summary."""
    z = np.asarray(panel.data["z"], dtype=float)
    levels = tuple(float(v) for v in panel.data.get("levels") or [])
    return _field_peaks(z.tobytes(), z.shape, levels, max_candidates)


@lru_cache(maxsize=256)
def _field_peaks(
    raw: bytes, shape: tuple[int, ...], levels: tuple[float, ...], max_candidates: int
) -> int | None:
    from figgen.vqa.contour_trends import drawn_peaks

    z = np.frombuffer(raw, dtype=float).reshape(shape)
    return drawn_peaks(z, list(levels), max_candidates=max_candidates)
