"""Boxing data marks in display coordinates from their data values, vectorised."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import Collection
from matplotlib.colors import to_rgba
from matplotlib.lines import Line2D
from matplotlib.markers import MarkerStyle
from matplotlib.typing import ColorType

from figgen.kinds.api import RGBA, Mark
from figgen.schema.elements import mark

BAR = mark("bar", "#ff4500")
ERRORBAR = mark("errorbar", "#00ced1")
"""Element kinds drawn by more than one plot kind (histograms and bar charts, every kind
with error bars)."""

FAINT = 0.3
"""A fill closer than this to the background (every channel, 0..1) shows the point less than
an edge that shows (:data:`MIN_EDGE_PX` wide or more) does."""
MIN_EDGE_PX = 1.5
"""An edge narrower than this (pixels) is only a blend: it never shows its own colour."""


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
    color: RGBA | np.ndarray | None = None,
) -> list[Mark]:
    """Square boxes of half-size ``half`` pixels around display points, drawn in ``color``
    (one RGBA, or one row per point)."""
    half_arr = np.broadcast_to(np.asarray(half, dtype=float), (len(xy),))
    colors: list[RGBA | None] = (
        [None] * len(xy)
        if color is None
        else [_rgba(c) for c in np.broadcast_to(np.asarray(color, dtype=float), (len(xy), 4))]
    )
    return [
        Mark(
            kind,
            (cx - h, cy - h, cx + h, cy + h),
            value=[float(v[0]), float(v[1])],
            series=series,
            item=i,
            color=c,
        )
        for i, ((cx, cy), h, v, c) in enumerate(zip(xy, half_arr, values, colors, strict=True))
    ]


def _rgba(color: np.ndarray) -> RGBA:
    r, g, b, a = (float(v) for v in color)
    return (r, g, b, a)


def marker_ink(line: Line2D) -> ColorType:
    """The colour a line's marker symbols show: their fill, or their edge where unfilled."""
    filled = MarkerStyle(line.get_marker()).is_filled()
    return line.get_markerfacecolor() if filled else line.get_markeredgecolor()


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


def path_extent_marks(kind: str, collection: Collection, *, filled: bool) -> list[Mark]:
    """One box per path of a collection (e.g. per contour level), through its transform, in
    the path's fill colour (``filled``) or stroke colour."""
    transform = collection.get_transform()
    colors = np.asarray(
        collection.get_facecolor() if filled else collection.get_edgecolor(), dtype=float
    ).reshape(-1, 4)
    marks = []
    for i, path in enumerate(collection.get_paths()):
        if np.asarray(path.vertices).size == 0:
            continue
        ext = path.get_extents(transform)
        color = _rgba(colors[min(i, len(colors) - 1)]) if len(colors) else None
        marks.append(Mark(kind, (ext.x0, ext.y0, ext.x1, ext.y1), item=i, color=color))
    return marks


def background(ax: Axes) -> RGBA:
    """The colour behind a panel's marks: the axes patch, or the figure's where no axes are
    drawn (pies, tables)."""
    face = ax.patch.get_facecolor() if ax.axison else ax.figure.get_facecolor()
    return to_rgba(face)


NEAR_BACKGROUND = 0.15
"""A fill within this of the background (every channel, 0..1) does not show as ink of its own."""


def contrast_edge(fills: np.ndarray, behind: RGBA) -> str | None:
    """A grey that outlines cells or regions where a fill is lost in the background (a
    colormap's white or black end on a page of that colour), else None."""
    fills = np.asarray(fills, dtype=float).reshape(-1, 4)[:, :3]
    if not (np.abs(fills - np.asarray(behind[:3])).max(axis=1) < NEAR_BACKGROUND).any():
        return None
    light = 0.2126 * behind[0] + 0.7152 * behind[1] + 0.0722 * behind[2] >= 0.5
    return "#404040" if light else "#c0c0c0"


def point_ink(
    faces: np.ndarray, edges: np.ndarray, behind: RGBA, *, edge_shows: bool
) -> np.ndarray:
    """Per point the colour it shows most: its fill, or, where the edge is wide enough to show
    its own colour (``edge_shows``), its edge when the fill is faint against the background (a
    colormap's end that matches it)."""
    faces = np.asarray(faces, dtype=float).reshape(-1, 4)
    edges = np.asarray(edges, dtype=float).reshape(-1, 4)
    if len(edges) == 0 or not edge_shows:
        return faces
    n = max(len(faces), len(edges))
    faces, edges = np.broadcast_to(faces, (n, 4)), np.broadcast_to(edges, (n, 4))
    faint = np.abs(faces[:, :3] - np.asarray(behind[:3])).max(axis=1) < FAINT
    return np.where(faint[:, None], edges, faces)
