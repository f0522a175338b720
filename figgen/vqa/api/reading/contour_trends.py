"""Level 3 verdicts for contour fields, under the same principle as
:mod:`figgen.vqa.api.reading.trends`.

Gradient direction (contour of a plane, ``linear``): a colour bar must be drawn (without one a
    reader cannot tell high from low) and both axes linear. One component of the generating
    gradient must be at least 3 times the other, and a plane fitted to the drawn z (in unit-
    square coordinates) must have R^2 >= 0.95 and the same dominant component and sign. The
    answer names where the values increase: "left to right", "right to left", "bottom to top"
    or "top to bottom".
Peaks (contour of Gaussian bumps, ``gmm``): a colour bar must be drawn and both axes linear.
    The separate maxima of the generating field (same dip / floor rule as modes, along the
    straight path to every taller maximum, stable under the same variations) must equal the
    peaks the drawing shows: the innermost regions of the drawn (noisy) field at the drawn
    levels (:func:`innermost_regions`). Descriptions read the field after a 3x3 mean
    (:func:`drawn_peaks`), where a lower maximum also needs a drawn contour level between its
    saddle and its top (else it reads as a shoulder).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Literal

import numpy as np
from scipy import ndimage

from figgen.schema.panel import PanelRecord
from figgen.schema.params import ContourBumps, ContourPlane
from figgen.vqa.api.reading.drawn import colour_bar, drawn_field
from figgen.vqa.api.reading.trends import LINEAR_R2, STABLE_PEAK_RULES, linear_axes

Direction = Literal["left to right", "right to left", "bottom to top", "top to bottom"]
DOMINANT = 3.0


def _direction(gx: float, gy: float) -> Direction | None:
    if abs(gx) >= DOMINANT * abs(gy) and gx != 0:
        return "left to right" if gx > 0 else "right to left"
    if abs(gy) >= DOMINANT * abs(gx) and gy != 0:
        return "bottom to top" if gy > 0 else "top to bottom"
    return None


def gradient_direction(panel: PanelRecord) -> Direction | None:
    """Where the values of a planar contour field increase, or None where doubtful."""
    if (
        panel.kind != "contour"
        or panel.distribution != "linear"
        or colour_bar(panel) is None
        or not linear_axes(panel)
    ):
        return None
    plane = panel.params_as(ContourPlane)
    if plane is None or len(plane.gradient) != 2:
        return None
    truth = _direction(float(plane.gradient[0]), float(plane.gradient[1]))
    drawn = drawn_field(panel)
    z = np.asarray(drawn.z, dtype=float)
    x, y = np.asarray(drawn.x, float), np.asarray(drawn.y, float)
    if np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    # drawn axes run low to high, left to right and bottom to top: fit in those directions
    v, u = np.meshgrid((y - y.min()) / np.ptp(y), (x - x.min()) / np.ptp(x), indexing="ij")
    design = np.column_stack([u.ravel(), v.ravel(), np.ones(z.size)])
    coef, *_ = np.linalg.lstsq(design, z.ravel(), rcond=None)
    fitted = design @ coef
    total = float(((z.ravel() - z.mean()) ** 2).sum())
    if total == 0:
        return None
    r2 = 1 - float(((z.ravel() - fitted) ** 2).sum()) / total
    if truth is None or r2 < LINEAR_R2 or _direction(coef[0], coef[1]) != truth:
        return None
    return truth


def _field_peaks(
    field: np.ndarray,
    *,
    dip: float = 0.75,
    floor: float = 0.1,
    levels: Sequence[float] | None = None,
) -> int:
    """Separate local maxima of a 2-D field, judged like :func:`count_peaks`.

    Heights are taken above the field's minimum. A maximum counts when it reaches ``floor`` of
    the tallest and, on the straight path to every taller maximum, the field dips below ``dip``
    times its height. With ``levels`` (the drawn contour levels, in field units) a lower maximum
    also needs a level between its highest such dip and its top: otherwise no contour closes
    around it alone and the eye sees a shoulder, not a peak.
    """
    base = float(field.min())
    h = field - base
    top = float(h.max())
    if top <= 0:
        return 0
    padded = np.pad(h, 1, mode="constant", constant_values=-np.inf)
    rows, cols = h.shape
    neighbours = np.stack(
        [
            padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0)
        ]
    )
    # >= keeps plateaus (a peak between grid points shows as two equal values); the tie-break
    # below then merges them, since the path between them never dips
    peaks = np.argwhere((h >= neighbours.max(0)) & (h >= floor * top))
    t = np.linspace(0, 1, 64)
    heights = h[peaks[:, 0], peaks[:, 1]]
    count = 0
    for (r, c), height in zip(peaks, heights, strict=True):
        earlier = (peaks[:, 0] < r) | ((peaks[:, 0] == r) & (peaks[:, 1] < c))
        taller = peaks[(heights > height) | ((heights == height) & earlier)]
        saddle = -np.inf
        if len(taller):  # the lowest point on the straight path to each taller peak, at once
            rows_on = np.round(r + t[None, :] * (taller[:, :1] - r)).astype(int)
            cols_on = np.round(c + t[None, :] * (taller[:, 1:] - c)).astype(int)
            saddle = float(h[rows_on, cols_on].min(axis=1).max())
        if saddle >= dip * height:
            continue
        if (
            levels is not None
            and np.isfinite(saddle)
            and not any(saddle + base < level < height + base for level in levels)
        ):
            continue
        count += 1
    return count


def box_smooth(z: np.ndarray) -> np.ndarray:
    """A 3x3 mean (edges repeated): the field as the eye reads it, without pixel noise."""
    padded = np.pad(z, 1, mode="edge")
    rows, cols = z.shape
    total = sum(padded[dr : dr + rows, dc : dc + cols] for dr in range(3) for dc in range(3))
    return np.asarray(total, dtype=float) / 9


def _regions(z: np.ndarray, level: float) -> tuple[np.ndarray, int]:
    """Label the connected regions of ``z >= level`` the way contour lines enclose them.

    Grid neighbours connect; diagonal neighbours only across a saddle cell whose mean reaches
    the level (the middle of the cell decides, as in matplotlib's contour algorithm).
    """
    above = z >= level
    labels, n = ndimage.label(above)
    a, b, c, d = above[:-1, :-1], above[:-1, 1:], above[1:, :-1], above[1:, 1:]
    middle = (z[:-1, :-1] + z[:-1, 1:] + z[1:, :-1] + z[1:, 1:]) / 4 >= level
    parent = list(range(n + 1))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    links = [
        (a & d & ~b & ~c & middle, labels[:-1, :-1], labels[1:, 1:]),
        (b & c & ~a & ~d & middle, labels[:-1, 1:], labels[1:, :-1]),
    ]
    for saddle, first, second in links:
        for i, j in zip(first[saddle], second[saddle], strict=True):
            parent[root(int(i))] = root(int(j))
    roots = np.array([root(i) for i in range(n + 1)])
    merged = roots[labels]
    kept = np.unique(merged[above])
    return merged, len(kept)


def innermost_regions(z: np.ndarray, levels: Sequence[float]) -> int:
    """How many peaks a contour drawing of ``z`` at ``levels`` shows: its innermost regions.

    A region is a connected set of grid points at or above one level (:func:`_regions`); it is
    innermost when no point in it reaches the next level up. Each innermost region is one hill
    top the drawing shows, closed by its own contour line or filled band.
    """
    ordered = sorted(float(v) for v in levels)
    count = 0
    for k, level in enumerate(ordered):
        regions, n = _regions(z, level)
        if k + 1 == len(ordered):
            count += n
            continue
        holding = np.unique(regions[z >= ordered[k + 1]])
        count += n - len(holding)
    return count


def n_peaks(panel: PanelRecord) -> int | None:
    """Separate peaks of a Gaussian-bump contour field, or None where doubtful.

    Needs a colour bar (to tell peaks from troughs) and linear axes. The generating bumps
    (``centres_unit``, ``widths_unit``, ``amplitudes`` on the unit square of the grid) give the
    true count; the field as drawn must show as many innermost regions at its drawn levels.
    """
    if (
        panel.kind != "contour"
        or panel.distribution != "gmm"
        or colour_bar(panel) is None
        or not linear_axes(panel)
    ):
        return None
    bumps = panel.params_as(ContourBumps)
    if bumps is None:
        return None
    centres, widths, amplitudes = bumps.centres_unit, bumps.widths_unit, bumps.amplitudes
    if not centres or not widths or not amplitudes:
        return None
    shown = drawn_field(panel)
    z = np.asarray(shown.z, dtype=float)
    rows, cols = z.shape
    u, v = np.meshgrid(np.linspace(0, 1, cols), np.linspace(0, 1, rows))
    clean = sum(
        a * np.exp(-0.5 * (((u - c[0]) / w[0]) ** 2 + ((v - c[1]) / w[1]) ** 2))
        for a, c, w in zip(amplitudes, centres, widths, strict=True)
    )
    field = np.asarray(clean, dtype=float)
    verdicts = {_field_peaks(field, dip=dip, floor=floor) for dip, floor in STABLE_PEAK_RULES}
    if len(verdicts) != 1:
        return None
    truth = verdicts.pop()
    drawn = innermost_regions(z, shown.levels or [])
    return truth if truth and drawn == truth else None


def drawn_peaks(
    z: np.ndarray, levels: list[float], *, max_candidates: int | None = None
) -> int | None:
    """Separate maxima of the drawn field after a 3x3 mean, each closed by a drawn level.

    With ``max_candidates``, None for a field with more local maxima than that (a patchy
    field, whose separate peaks would be slow to count and many).
    """
    field = box_smooth(np.asarray(z, dtype=float))
    if max_candidates is not None and _local_maxima(field, floor=0.1) > max_candidates:
        return None
    return _field_peaks(field, levels=levels or [])


def _local_maxima(field: np.ndarray, *, floor: float) -> int:
    """How many grid points are local maxima reaching ``floor`` of the tallest (above the
    minimum): the candidates :func:`_field_peaks` compares pairwise."""
    h = field - float(field.min())
    padded = np.pad(h, 1, mode="constant", constant_values=-np.inf)
    rows, cols = h.shape
    around = np.max(
        [
            padded[1 + dr : 1 + dr + rows, 1 + dc : 1 + dc + cols]
            for dr in (-1, 0, 1)
            for dc in (-1, 0, 1)
            if (dr, dc) != (0, 0)
        ],
        axis=0,
    )
    return int(((h >= around) & (h >= floor * float(h.max()))).sum())


def field_peaks(panel: PanelRecord, max_candidates: int) -> int | None:
    """:func:`drawn_peaks` of a contour panel, measured once for its description and its
    figure's summary."""
    drawn = drawn_field(panel)
    z = np.asarray(drawn.z, dtype=float)
    levels = tuple(float(v) for v in drawn.levels or [])
    return _cached_peaks(z.tobytes(), z.shape, levels, max_candidates)


@lru_cache(maxsize=256)
def _cached_peaks(
    raw: bytes, shape: tuple[int, ...], levels: tuple[float, ...], max_candidates: int
) -> int | None:
    z = np.frombuffer(raw, dtype=float).reshape(shape)
    return drawn_peaks(z, list(levels), max_candidates=max_candidates)
