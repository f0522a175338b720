"""What of each data mark the picture shows, measured on the one raster that was drawn.

Matplotlib draws a panel's marks before its occluders (frame at zorder 2.5, legend at 5). A
:class:`PanelSnapshot` hook, drawn just below the first occluder, copies the panel's pixels at
that moment; so one draw gives the panel both without and with its occluders. A mark's ink is
the pixels under its box that carry its colour in the snapshot; ``visible_fraction`` is the share
of them that still carry it in the finished image, ``visible`` whether any does, and
``occluded_by`` names what took the rest: the legend (its box), the frame (the band along the
panel's edges), or other marks (none of the mark's colour is left even before the occluders,
and a mark of another colour overlaps its box; or, for markers, one of the same colour covers
more than :data:`SAME_COLOUR_COVER` of it, so the two merge into one shape).

A mark's own colours are its fill and, where the kind names one (histogram and bar outlines),
its outline: a narrow bar whose outline covers its fill shows as its outline. An outline in the
background's colour is not ink.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import to_rgba

from figgen._util.discs import disc_overlaps
from figgen.kinds.api import RGBA
from figgen.render.boxes import PixelBox, inside, intersect, overlaps, to_pixels
from figgen.render.frame import frame_inset
from figgen.schema.elements import Element, Occluder

SAMPLED_AREA = 40_000
"""Boxes larger than this many pixels (lines' and contour bands' extents) are read on a grid
of every n-th row and column that keeps about this many: the fraction is then a sample
estimate; a mark the grid finds no ink of is read again in full."""
BELOW_OCCLUDER = 1e-3
"""How far below the first occluder's zorder the snapshot is drawn."""
TOLERANCE = (0.25, 12, 48)
"""A pixel carries a mark's colour within this share of the mark's contrast to the background,
clamped to these bounds (0..255 per channel): anti-aliased edges of thin strokes still count,
a blend under an 80%-opaque legend does not."""


SAME_COLOUR_COVER = 0.5
"""A marker (``point``, ``marker``) of which another marker of its colour covers more than this
share (both read as discs) is covered by marks: the overlap shows no outline between them."""
MARKERS = frozenset({"point", "marker"})


class PanelSnapshot(Artist):
    """Copies its panel's pixels when drawn (at a zorder just below the panel's occluders)."""

    def __init__(self, ax: Axes, zorder: float) -> None:
        super().__init__()
        self.set_zorder(zorder)
        self.set_in_layout(False)
        self._ax = ax
        self.box: PixelBox | None = None
        self.pixels: np.ndarray | None = None

    def draw(self, renderer: RendererBase) -> None:
        _, height = renderer.get_canvas_width_height()
        self.box = to_pixels(self._ax.bbox, int(height))
        x0, y0, x1, y1 = (int(v) for v in self.box)
        buffer = np.asarray(renderer.buffer_rgba())  # type: ignore[attr-defined]
        self.pixels = buffer[y0:y1, x0:x1].copy()  # whole pixels: a contiguous copy


def attach_snapshot(ax: Axes) -> PanelSnapshot | None:
    """Hook a snapshot under the panel's first occluder; None when nothing is drawn over the
    marks (the finished image is then the snapshot)."""
    zorders = []
    legend = ax.get_legend()
    if legend is not None:
        zorders.append(legend.get_zorder())
    if ax.axison and ax.get_frame_on():
        zorders += [s.get_zorder() for s in ax.spines.values() if s.get_visible()]
        zorders += [axis.get_zorder() for axis in (ax.xaxis, ax.yaxis)]
    top_mark = max(_mark_zorders(ax), default=0.0)
    above_marks = [z for z in zorders if z > top_mark]
    if not above_marks:
        return None
    snapshot = PanelSnapshot(ax, min(above_marks) - BELOW_OCCLUDER)
    ax.add_artist(snapshot)
    return snapshot


def _mark_zorders(ax: Axes) -> list[float]:
    return [a.get_zorder() for a in (*ax.lines, *ax.patches, *ax.collections, *ax.images)]


@dataclass
class PanelView:
    """One panel's pixels before and after its occluders, and where the occluders are."""

    box: PixelBox
    before: np.ndarray | None
    legend: PixelBox | None
    inset: float

    @property
    def inner(self) -> PixelBox:
        """The panel less the band along its edges where the frame may ink."""
        x0, y0, x1, y1 = self.box
        return (x0 + self.inset, y0 + self.inset, x1 - self.inset, y1 - self.inset)

    def may_cover(self, box: PixelBox) -> bool:
        """Whether the legend or the frame may cover part of ``box`` (else only what is drawn
        with them, grid lines and ticks in some styles, could: not counted as occlusion)."""
        if self.legend is not None and overlaps(box, self.legend):
            return True
        return self.inset > 0 and not inside(box, self.inner)


def panel_view(ax: Axes, snapshot: PanelSnapshot | None, height: int) -> PanelView:
    box = to_pixels(ax.bbox, height)
    legend = ax.get_legend()
    legend_box = (
        to_pixels(legend.get_window_extent(), height)
        if legend is not None and legend.get_visible()
        else None
    )
    before = snapshot.pixels if snapshot is not None and snapshot.box == box else None
    return PanelView(box, before, legend_box, frame_inset(ax))


def measure_visibility(
    elements: list[Element],
    colors: dict[int, RGBA],
    raster: np.ndarray,
    views: dict[int, PanelView],
    backgrounds: dict[int | None, str | None],
    *,
    edges: dict[int, RGBA] | None = None,
) -> None:
    """Set ``visible``, ``visible_fraction`` and ``occluded_by`` on every data mark; ``edges``
    holds the outline colour of the marks whose outline is their own ink."""
    marks: dict[int, list[tuple[Element, RGBA]]] = {}
    edges = edges or {}
    for element in elements:
        if element.empty:
            element.visible, element.visible_fraction, element.occluded_by = False, 0.0, []
        elif element.panel is not None and element.id in colors:
            marks.setdefault(element.panel, []).append((element, colors[element.id]))
    for panel, panel_marks in marks.items():
        view = views[panel]
        background = _bytes(to_rgba(backgrounds[panel] or "white"))
        for element, color in panel_marks:
            inks = [_bytes(color)]
            if element.id in edges and _stands_out(_bytes(edges[element.id]), background):
                inks.append(_bytes(edges[element.id]))
            inked = _measure(element, inks, background, raster, view)
            if not inked and _covered_by_marks(element, panel_marks):
                element.occluded_by = ["marks"]
        for element in _merged_markers(panel_marks, background):
            if "marks" not in (element.occluded_by or []):
                element.occluded_by = [*(element.occluded_by or []), "marks"]


def _tolerance(color: np.ndarray, background: np.ndarray) -> float:
    share, low, high = TOLERANCE
    return min(max(share * float(np.abs(color - background).max()), low), high)


def _stands_out(color: np.ndarray, background: np.ndarray) -> bool:
    """Whether ink of ``color`` can be told from the background at all."""
    return float(np.abs(color - background).max()) > TOLERANCE[2]


def _measure(
    element: Element,
    inks: list[np.ndarray],
    background: np.ndarray,
    raster: np.ndarray,
    view: PanelView,
) -> bool:
    """Measure one mark drawn in ``inks`` (its fill, and its outline where that is its own);
    False when none of them shows even before the occluders."""
    box = intersect(element.bbox, view.box)
    if box is None:
        element.visible, element.visible_fraction, element.occluded_by = False, 0.0, []
        return False
    bounds = [
        (
            np.clip(c - _tolerance(c, background), 0, 255),
            np.clip(c + _tolerance(c, background), 0, 255),
        )
        for c in inks
    ]
    area = (box[2] - box[0]) * (box[3] - box[1])
    step = max(1, math.ceil(math.sqrt(area / SAMPLED_AREA)))
    inked, kept = _ink(box, bounds, raster, view, step)
    if step > 1 and not kept.any():  # a sparse grid may miss thin ink: look at every pixel
        step = 1
        inked, kept = _ink(box, bounds, raster, view, step)
    n_inked, n_kept = int(inked.sum()), int(kept.sum())
    element.visible = n_kept > 0
    element.visible_fraction = round(n_kept / n_inked, 3) if n_inked else 0.0
    occluders: list[Occluder] = []
    if n_kept < n_inked:
        rows, cols = np.nonzero(inked & ~kept)
        xs, ys = cols * step + box[0] + 0.5, rows * step + box[1] + 0.5
        if view.legend is not None and bool(_inside(xs, ys, view.legend).any()):
            occluders.append("legend")
        if view.inset > 0 and bool((~_inside(xs, ys, view.inner)).any()):
            occluders.append("frame")
    element.occluded_by = occluders
    return n_inked > 0


def _ink(
    box: PixelBox,
    bounds: list[tuple[np.ndarray, np.ndarray]],
    raster: np.ndarray,
    view: PanelView,
    step: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Which pixels of the box (every ``step``-th row and column) carry one of the colours
    before the occluders were drawn, and which of them still do after."""
    x0, y0, x1, y1 = (int(v) for v in box)
    after = raster[y0:y1:step, x0:x1:step, :3]
    if view.before is None or not view.may_cover(box):
        inked = _carries_any(after, bounds)
        return inked, inked
    px, py = int(view.box[0]), int(view.box[1])
    inked = _carries_any(view.before[y0 - py : y1 - py : step, x0 - px : x1 - px : step], bounds)
    kept = np.zeros_like(inked)
    kept[inked] = _carries_any(after[inked], bounds)
    return inked, kept


def _carries_any(pixels: np.ndarray, bounds: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    out = _carries(pixels, *bounds[0])
    for low, high in bounds[1:]:
        out |= _carries(pixels, low, high)
    return out


def _bytes(color: RGBA) -> np.ndarray:
    return np.round(np.asarray(color[:3]) * 255).astype(np.int16)


def _carries(pixels: np.ndarray, low: np.ndarray, high: np.ndarray) -> np.ndarray:
    """Which pixels (..., 3 channels) lie within ``low..high`` in every channel."""
    out = (pixels[..., 0] >= low[0]) & (pixels[..., 0] <= high[0])
    for channel in (1, 2):
        out &= (pixels[..., channel] >= low[channel]) & (pixels[..., channel] <= high[channel])
    return np.asarray(out)


def _covered_by_marks(element: Element, others: list[tuple[Element, RGBA]]) -> bool:
    """Whether a mark of another colour overlaps the element's box."""
    color = None
    for other, other_color in others:
        if other is element:
            color = other_color
    return any(
        other is not element and other_color != color and overlaps(element.bbox, other.bbox)
        for other, other_color in others
    )


def _merged_markers(marks: list[tuple[Element, RGBA]], background: np.ndarray) -> list[Element]:
    """The markers another marker of the same colour (within the ink tolerance) covers by more
    than :data:`SAME_COLOUR_COVER`: where they overlap no outline parts them."""
    markers = [(e, _bytes(c)) for e, c in marks if e.kind in MARKERS]
    if len(markers) < 2:
        return []
    shares = disc_overlaps([e.bbox for e, _ in markers])
    colours = np.asarray([c for _, c in markers], dtype=float)
    tolerance = np.asarray([_tolerance(c, background) for _, c in markers])
    same = np.abs(colours[:, None, :] - colours[None, :, :]).max(axis=2) <= tolerance[:, None]
    merged = ((shares > SAME_COLOUR_COVER) & same).any(axis=1)
    return [e for (e, _), m in zip(markers, merged, strict=True) if m]


def _inside(xs: np.ndarray, ys: np.ndarray, box: PixelBox) -> np.ndarray:
    return np.asarray((xs >= box[0]) & (xs <= box[2]) & (ys >= box[1]) & (ys <= box[3]))
