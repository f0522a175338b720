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
    at least ``GROUPS_SILHOUETTE`` and every group stands apart from its nearest neighbour
    group (:func:`stands_apart`) by either of two separation statistics of the pair's n points,
    each calibrated against the least favourable one-group reference, a uniform box (any
    aspect, from square to a line) of n points split the same way by Ward:
    the gap: the widest empty strip between the two groups over 90 directions, as a share of
        the pair's extent across that direction; it shows when ``n * share`` reaches
        ``GAP_BASE + GAP_PER_LOG * ln n``, the box's 95th percentile (simulated for n = 6..140
        and box aspects 1..1000, ``benchmarks/bench_groups.py --null``). This is what small
        groups have: 6 and 15 points with an empty band between them, where counts are too
        few for the dip;
    the dip: along the line joining the two centroids, the band around the midpoint (0.3 of
        the way wide) holds at most half the points of the same bands around the centroids,
        by ``z = (ends - middle) / sqrt(ends + middle)`` of at least ``DIP_BASE + DIP_PER_LOG *
        ln n``, about the box's 99th percentile. This is what large groups whose tails touch
        have.
    A line or a long even cloud cut into pieces shows neither, so it is not called groups.
    The finest split that shows is the drawn grouping (a coarser one would merge groups a
    reader sees apart); a silhouette of ``SEPARATE_SILHOUETTE`` or more reads as separate
    clusters, below it as groups that partly overlap. ``benchmarks/bench_groups.py`` prints
    how often groups are found per generating distribution (docs/vqa.md has the table).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from figgen.schema.panel import PanelRecord
from figgen.vqa.api.reading.drawn import binned, cloud
from figgen.vqa.api.reading.measures import display

PEAK_Z = 3.0
PEAK_DEPTH = 0.1
MAX_GROUPS = 6
GROUPS_SILHOUETTE = 0.5
SEPARATE_SILHOUETTE = 0.7
DIP_BAND = 0.15
"""Half the width of the bands compared along the line between two centroids."""
DIP_BASE, DIP_PER_LOG = 1.2, 0.35
"""The dip's z threshold for a pair of n points: DIP_BASE + DIP_PER_LOG * ln n."""
GAP_BASE, GAP_PER_LOG = 2.9, 1.15
"""The gap's threshold on n * share for a pair of n points: GAP_BASE + GAP_PER_LOG * ln n."""
GAP_DIRECTIONS = 90
"""Directions (every 2 degrees) scanned for the widest empty strip between two groups."""
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
    data = binned(panel)
    counts = [int(c) for c in data.counts]
    edges = [float(e) for e in data.bin_edges]
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
    data = cloud(panel)
    xs = display(data.x, panel.xscale)
    ys = display(data.y, panel.yscale)
    keep = np.isfinite(xs) & np.isfinite(ys)
    points = np.column_stack([xs[keep], ys[keep]])
    span = np.ptp(points, 0) if len(points) else np.zeros(2)
    if len(points) < MIN_GROUP_POINTS or np.any(span == 0):
        return None
    scaled: np.ndarray = (points - points.min(0)) / span * np.array([1.0, aspect])
    return scaled


def groups(panel: PanelRecord, aspect: float = 1.0) -> Groups | None:
    """The drawn :class:`Groups` of a scatter panel, or None where the points form no groups."""
    points = drawn_points(panel, aspect)
    if points is None:
        return None
    return _groups(points.tobytes(), len(points))


def gap_share(points: np.ndarray, in_second: np.ndarray) -> float:
    """The widest empty strip between two groups over :data:`GAP_DIRECTIONS` directions, as a
    share of the points' extent across it (negative where the groups overlap in every one)."""
    angles = np.linspace(0.0, math.pi, GAP_DIRECTIONS, endpoint=False)
    along = points @ np.stack([np.cos(angles), np.sin(angles)])
    first, second = along[~in_second], along[in_second]
    gap = np.maximum(second.min(0) - first.max(0), first.min(0) - second.max(0))
    return float((gap / np.maximum(np.ptp(along, 0), 1e-12)).max())


def dip_z(points: np.ndarray, in_second: np.ndarray) -> float:
    """How far the band midway between two groups' centroids holds fewer points than the
    bands around the centroids, in Poisson standard deviations (0 if it holds over half)."""
    start, end = points[~in_second].mean(0), points[in_second].mean(0)
    step = end - start
    along = (points - start) @ step / float(step @ step)
    middle = float(np.sum(np.abs(along - 0.5) < DIP_BAND))
    ends = float(np.sum(np.abs(along) < DIP_BAND) + np.sum(np.abs(along - 1) < DIP_BAND)) / 2
    if middle > ends / 2:
        return 0.0
    return (ends - middle) / math.sqrt(ends + middle)


def stands_apart(points: np.ndarray, in_second: np.ndarray) -> bool:
    """Whether two groups are apart beyond a uniform box's chance by the gap or the dip."""
    log_n = math.log(len(points))
    return (
        len(points) * gap_share(points, in_second) >= GAP_BASE + GAP_PER_LOG * log_n
        or dip_z(points, in_second) >= DIP_BASE + DIP_PER_LOG * log_n
    )


def all_apart(points: np.ndarray, labels: np.ndarray) -> bool:
    """Whether every group :func:`stands_apart` from its nearest group (by centroid)."""
    names = np.unique(labels)
    centroids = np.array([points[labels == g].mean(0) for g in names])
    for a in range(len(names)):
        gaps = np.linalg.norm(centroids - centroids[a], axis=1)
        gaps[a] = np.inf
        b = names[int(np.argmin(gaps))]
        pair = (labels == names[a]) | (labels == b)
        if not stands_apart(points[pair], labels[pair] == b):
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
        if score >= GROUPS_SILHOUETTE and all_apart(points, labels):
            best = Groups(k, score)  # the finest split that still shows: every gap is seen
    return best
