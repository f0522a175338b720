"""Re-render figgen panel specs as one k-panel figure (native mode), keeping boxes and data.

The panels keep their data, labels and per-panel style; the figure-wide look (style sheet,
fonts) is the first source's. Every chart gets the same cell size at every density, so the
same chart can be compared with itself from k = 1 to k = 9 with nothing resized.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, replace
from typing import Any

from figgen.density.manifest import BBox
from figgen.density.tables import SourceChart
from figgen.errors import FiggenError
from figgen.spec import FigureSpec, LayoutSpec

NATIVE_CELL_IN = (4.0, 3.0)
NATIVE_DPI = 200
"""A 4 x 3 inch cell at 200 dpi: 800 px wide, the paper's source width."""


@dataclass(frozen=True)
class RenderedPanels:
    png: bytes
    boxes: list[BBox]
    record: dict[str, Any]


def _source_spec(source: SourceChart) -> FigureSpec:
    from figgen.record import load_record, spec_from_record

    if source.figure is None or source.panel is None:
        raise FiggenError(f"{source.id} is not a figgen panel; native mode needs a figgen build")
    return spec_from_record(load_record(source.figure))


def render_panels(
    sources: list[SourceChart],
    grid: tuple[int, int],
    figure_id: str,
    *,
    cell_in: tuple[float, float] | None = None,
    dpi: int | None = None,
) -> RenderedPanels:
    """One figure of the sources' panels on ``grid``, row-major.

    Without ``cell_in`` and ``dpi`` each cell has the first source's original cell size
    and dpi (how a single source chart is drawn on its own).
    """
    from figgen import __version__
    from figgen.config import FigureConfig
    from figgen.record import make_record
    from figgen.render import render

    specs = [_source_spec(s) for s in sources]
    first = specs[0]
    if cell_in is None:
        cell_in = (
            first.width_in / first.layout.cols,
            first.height_in / first.layout.rows,
        )
    rows, cols = grid
    panels = []
    for i, (source, spec) in enumerate(zip(sources, specs, strict=True)):
        panel = copy.deepcopy(next(p for p in spec.panels if p.index == source.panel))
        panels.append(replace(panel, index=i, row=i // cols, col=i % cols))
    spec = FigureSpec(
        id=figure_id,
        seed=first.seed,
        index=first.index,
        width_in=cell_in[0] * cols,
        height_in=cell_in[1] * rows,
        dpi=dpi or first.dpi,
        layout=LayoutSpec(len(panels), rows, cols, "grid"),
        style=copy.deepcopy(first.style),
        panels=panels,
        panel_aspect=first.panel_aspect,
    )
    rendered = render(spec, FigureConfig())
    record = make_record(
        rendered.spec,
        elements=rendered.elements,
        width=rendered.width,
        height=rendered.height,
        repair=rendered.repair,
        generator_version=__version__,
        image_file=f"figures/{figure_id}.png",
    )
    return RenderedPanels(rendered.png, _panel_boxes(record, len(panels)), record)


def _panel_boxes(record: dict[str, Any], n: int) -> list[BBox]:
    """Each panel's extent: the union of the boxes of everything drawn for it."""
    boxes: list[BBox] = []
    for i in range(n):
        mine = [e["bbox"] for e in record["elements"] if e.get("panel") == i]
        boxes.append(
            (
                min(b[0] for b in mine),
                min(b[1] for b in mine),
                max(b[2] for b in mine),
                max(b[3] for b in mine),
            )
        )
    return boxes
