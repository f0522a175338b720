"""Boxing data marks in display coordinates from their data values, vectorised."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import Collection

from figgen.kinds.base import Mark


def centres(ax: Axes, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Display coordinates of data points (n x 2)."""
    return np.asarray(ax.transData.transform(np.column_stack([x, y])))


def point_marks(
    kind: str,
    xy: np.ndarray,
    half: float | np.ndarray,
    values: np.ndarray,
    *,
    series: int | None = None,
) -> list[Mark]:
    """Square boxes of half-size ``half`` pixels around display points."""
    half_arr = np.broadcast_to(np.asarray(half, dtype=float), (len(xy),))
    return [
        Mark(
            kind,
            (cx - h, cy - h, cx + h, cy + h),
            value=[float(v[0]), float(v[1])],
            series=series,
            item=i,
        )
        for i, ((cx, cy), h, v) in enumerate(zip(xy, half_arr, values, strict=True))
    ]


def errorbar_marks(
    ax: Axes,
    x: np.ndarray,
    y: np.ndarray,
    err: np.ndarray | Sequence[float] | None,
    *,
    axis: str,
    half_px: float,
    series: int | None = None,
) -> list[Mark]:
    """One box per error bar: the segment from value - err to value + err, widened by caps."""
    if err is None:
        return []
    err = np.asarray(err, dtype=float)
    if axis == "y":
        lo, hi = centres(ax, x, y - err), centres(ax, x, y + err)
    else:
        lo, hi = centres(ax, x - err, y), centres(ax, x + err, y)
    marks = []
    for i in range(len(x)):
        (ax0, ay0), (ax1, ay1) = lo[i], hi[i]
        box = (
            min(ax0, ax1) - half_px,
            min(ay0, ay1) - half_px,
            max(ax0, ax1) + half_px,
            max(ay0, ay1) + half_px,
        )
        marks.append(
            Mark(
                "errorbar",
                box,
                value=[float(x[i]), float(y[i]), float(err[i])],
                series=series,
                item=i,
                axis=axis,
            )
        )
    return marks


def path_extent_marks(kind: str, collection: Collection) -> list[Mark]:
    """One box per path of a collection (e.g. per contour level), through its transform."""
    transform = collection.get_transform()
    marks = []
    for i, path in enumerate(collection.get_paths()):
        if np.asarray(path.vertices).size == 0:
            continue
        ext = path.get_extents(transform)
        marks.append(Mark(kind, (ext.x0, ext.y0, ext.x1, ext.y1), item=i))
    return marks
