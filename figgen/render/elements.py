"""Measure every drawn element of a figure as a pixel box, after a draw."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from matplotlib.axis import Axis
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import to_hex
from matplotlib.figure import Figure
from matplotlib.text import Text

from figgen.kinds.api import RGBA
from figgen.kinds.shared.marks import background
from figgen.render.boxes import PixelBox, intersect, to_pixels
from figgen.render.canvas import PanelHandles
from figgen.render.frame import frame_facts
from figgen.schema.elements import Element


class _Collector:
    def __init__(self, height: int) -> None:
        self.height = height
        self.elements: list[Element] = []
        self.colorbar_ids: set[int] = set()
        self.colors: dict[int, RGBA] = {}
        self.edges: dict[int, RGBA] = {}

    def add(self, kind: str, panel: int | None, box: PixelBox, **fields: object) -> None:
        self.elements.append(Element(len(self.elements), kind, panel, box, **fields))  # type: ignore[arg-type]

    def text(
        self,
        kind: str,
        panel: int | None,
        text: Text,
        renderer: RendererBase,
        **fields: object,
    ) -> None:
        content = text.get_text()
        if not text.get_visible() or not content.strip():
            return
        box = to_pixels(text.get_window_extent(renderer), self.height)
        self.add(kind, panel, box, text=content, **fields)

    def tick_labels(self, kind: str, panel: int, axis: Axis, renderer: RendererBase) -> None:
        # Axis._update_ticks returns exactly the ticks drawn: those inside the view limits.
        for tick in axis._update_ticks():  # type: ignore[attr-defined]
            for label in (tick.label1, tick.label2):
                self.text(kind, panel, label, renderer)


@dataclass
class Measured:
    """Element boxes (marks clipped to their panel, text unclipped); ids of colorbar parts;
    the colour each measured mark was drawn in, and its outline's where it has its own; each
    panel's allotted box, the room the layout gave it (a map or a pie keeps its own aspect
    inside it, so its drawn box can be much smaller)."""

    elements: list[Element]
    colorbar_ids: set[int]
    colors: dict[int, RGBA] = field(default_factory=dict)
    edges: dict[int, RGBA] = field(default_factory=dict)
    allotted: dict[int, PixelBox] = field(default_factory=dict)


def measure(fig: Figure, handles: list[PanelHandles]) -> Measured:
    """Boxes of every element drawn, in PNG pixels."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    width, height = fig.canvas.get_width_height()
    out = _Collector(height)
    out.add("figure", None, (0.0, 0.0, float(width), float(height)))
    allotted = {}
    for h in handles:
        ax, i = h.ax, h.index
        allotted[i] = to_pixels(
            fig.transFigure.transform_bbox(ax.get_position(original=True)), height
        )
        panel_box = to_pixels(ax.bbox, height)
        out.add("panel", i, panel_box, background=to_hex(background(ax)), frame=frame_facts(ax))
        out.text("title", i, ax.title, renderer)
        if ax.axison:  # pies and tables draw no axes (nor axis labels)
            out.text("xlabel", i, ax.xaxis.label, renderer)
            out.text("ylabel", i, ax.yaxis.label, renderer)
            out.tick_labels("xtick_label", i, ax.xaxis, renderer)
            out.tick_labels("ytick_label", i, ax.yaxis, renderer)
            out.text("offset_text", i, ax.xaxis.get_offset_text(), renderer, axis="x")
            out.text("offset_text", i, ax.yaxis.get_offset_text(), renderer, axis="y")
        legend = ax.get_legend()
        if legend is not None:
            placer = h.legend_placer
            loc = placer.chosen if placer is not None else None
            out.add(
                "legend",
                i,
                to_pixels(legend.get_window_extent(renderer), height),
                loc=loc,
                handle=round(legend.handlelength * legend.prop.get_size_in_points(), 2),
            )
            for text, handle in zip(legend.texts, legend.legend_handles, strict=True):
                tb = text.get_window_extent(renderer)
                hb = handle.get_window_extent(renderer) if handle is not None else tb
                box = (min(tb.x0, hb.x0), min(tb.y0, hb.y0), max(tb.x1, hb.x1), max(tb.y1, hb.y1))
                out.add("legend_entry", i, to_pixels(box, height), text=text.get_text())
        cbar = h.drawn.colorbar
        if cbar is not None:
            first = len(out.elements)
            out.add("colorbar", i, to_pixels(cbar.ax.bbox, height))
            for axis in (cbar.ax.xaxis, cbar.ax.yaxis):
                out.text("colorbar_label", i, axis.label, renderer)
                out.tick_labels("colorbar_tick_label", i, axis, renderer)
                out.text("offset_text", i, axis.get_offset_text(), renderer)
            out.colorbar_ids.update(range(first, len(out.elements)))
        for probe in h.drawn.probes:
            for mark in probe(renderer):
                if not all(math.isfinite(v) for v in mark.box):
                    continue
                box = _empty_box(mark.box, height) if mark.empty else to_pixels(mark.box, height)
                clipped = intersect(box, panel_box)
                if clipped is None:
                    continue
                if mark.color is not None:
                    out.colors[len(out.elements)] = mark.color
                if mark.edge is not None:
                    out.edges[len(out.elements)] = mark.edge
                out.add(
                    mark.kind,
                    i,
                    clipped,
                    value=mark.value,
                    series=mark.series,
                    item=mark.item,
                    axis=mark.axis,
                    text=mark.text,
                    empty=True if mark.empty else None,
                )
    return Measured(out.elements, out.colorbar_ids, out.colors, out.edges, allotted)


def _empty_box(box: tuple[float, float, float, float], height: int) -> PixelBox:
    """A mark with no extent along an axis keeps a zero extent there (rounded to the nearest
    pixel edge) instead of the outward rounding that would give it a pixel of area."""
    x0, y0, x1, y1 = box
    out = list(to_pixels(box, height))
    if x0 == x1:
        out[0] = out[2] = float(round(x0))
    if y0 == y1:
        out[1] = out[3] = float(round(height - y0))
    return (out[0], out[1], out[2], out[3])
