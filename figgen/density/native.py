"""Native mode: each figgen panel re-rendered alone, in its own figure's style, then laid out.

A chart is drawn once, in a figure of its own with its source figure's style sheet, fonts and
colours (a dark chart stays dark beside light ones), at the same cell size for every density,
and the cells are pasted on the paper's grid. So a chart's pixels never depend on its
neighbours, and the same chart can be compared with itself from k = 1 to k = 9 with nothing
resized. The compound's record keeps every element box (moved into its cell) and each
panel's data and style.
"""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from figgen._util.plain import as_plain_dict
from figgen.density.manifest import BBox
from figgen.density.tables import SourceChart
from figgen.errors import FiggenError
from figgen.schema.elements import Element
from figgen.schema.record import Record, open_record
from figgen.schema.spec import FigureSpec, LayoutSpec
from figgen.store.storage import atomic_write_bytes, atomic_write_text

NATIVE_CELL_IN = (4.0, 3.0)
NATIVE_DPI = 200
"""A 4 x 3 inch cell at 200 dpi: 800 px wide, the paper's source width."""


@dataclass(frozen=True)
class RenderedPanel:
    """A panel drawn alone: its PNG and its record (one panel, its elements and style)."""

    png: bytes
    record: Record


def _source_spec(source: SourceChart) -> FigureSpec:
    from figgen.schema.record import spec_from_record

    if source.figure is None or source.panel is None:
        raise FiggenError(f"{source.id} is not a figgen panel; native mode needs a figgen build")
    return spec_from_record(open_record(source.figure))


def render_panel(
    source: SourceChart,
    *,
    cell_in: tuple[float, float] | None = None,
    dpi: int | None = None,
) -> RenderedPanel:
    """The source's panel alone in a figure with its own figure's style.

    Without ``cell_in`` and ``dpi`` the figure has the panel's original cell size and dpi
    (the chart as its build drew it).
    """
    from figgen.build.figure import render_to_record
    from figgen.config.load import FigureConfig

    spec = _source_spec(source)
    if cell_in is None:
        cell_in = (spec.width_in / spec.layout.cols, spec.height_in / spec.layout.rows)
    panel = copy.deepcopy(next(p for p in spec.panels if p.index == source.panel))
    alone = FigureSpec(
        id=source.id,
        seed=spec.seed,
        index=spec.index,
        width_in=cell_in[0],
        height_in=cell_in[1],
        dpi=dpi or spec.dpi,
        layout=LayoutSpec(1, 1, 1, "grid"),
        style=copy.deepcopy(spec.style),
        panels=[replace(panel, index=0, row=0, col=0)],
        panel_aspect=spec.panel_aspect,
    )
    drawn = render_to_record(alone, FigureConfig(), image_file=f"{source.id}.png")
    return RenderedPanel(drawn.png, drawn.record)


class NativeCache:
    """Each source drawn once at the native cell size, kept in ``DIR/sources``."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)

    def panel(self, source: SourceChart) -> RenderedPanel:
        png, record = self.folder / f"{source.id}.png", self.folder / f"{source.id}.json"
        if not (png.is_file() and record.is_file()):
            rendered = render_panel(source, cell_in=NATIVE_CELL_IN, dpi=NATIVE_DPI)
            atomic_write_text(record, json.dumps(rendered.record.to_dict()) + "\n")
            atomic_write_bytes(png, rendered.png)  # written last: it marks the pair complete
            return rendered
        return RenderedPanel(png.read_bytes(), open_record(record))


def compound_record(
    panels: list[RenderedPanel], boxes: list[BBox], grid: tuple[int, int], size: tuple[int, int]
) -> dict[str, Any]:
    """One record for the pasted cells: panel i's spec, style and elements, boxes moved by
    its cell's offset; one ``figure`` element spans the canvas."""
    cols = grid[1]
    width, height = map(float, size)
    elements = [Element(0, "figure", None, (0.0, 0.0, width, height))]
    specs, styles = [], []
    for i, (panel, box) in enumerate(zip(panels, boxes, strict=True)):
        dx, dy = box[0], box[1]
        cell = replace(panel.record.panels[0], index=i, row=i // cols, col=i % cols)
        specs.append(cell.to_dict())
        styles.append(as_plain_dict(panel.record.style))
        for element in panel.record.elements:
            if element.panel is None:
                continue  # the cell's own figure element
            x0, y0, x1, y1 = element.bbox
            moved = (x0 + dx, y0 + dy, x1 + dx, y1 + dy)
            elements.append(replace(element, id=len(elements), panel=i, bbox=moved))
    return {
        "generator": as_plain_dict(panels[0].record.generator),
        "panels": specs,
        "panel_styles": styles,
        "elements": [element.to_dict() for element in elements],
    }
