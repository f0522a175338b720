"""What the kind tests read of generated figures: their typed panels, elements, items and pixels."""

from __future__ import annotations

import io
from collections.abc import Sequence

import numpy as np
from PIL import Image

from figgen.build.figure import GeneratedFigure
from figgen.schema.elements import Element
from figgen.schema.panel import PanelRecord
from figgen.schema.spec import FigureSpec, FigureStyle, FontSizes, LayoutSpec, PanelSpec
from figgen.vqa import QAItem, questions_for_record


def panels_of(figures: list[GeneratedFigure]) -> list[tuple[GeneratedFigure, PanelRecord]]:
    """Every panel with the figure it belongs to."""
    return [(f, p) for f in figures for p in f.record.panels]


def elements_of(figure: GeneratedFigure, panel: PanelRecord) -> list[Element]:
    """The elements the record places in ``panel``."""
    return [e for e in figure.record.elements if e.panel == panel.index]


def items_of(figures: list[GeneratedFigure], family: str) -> list[tuple[PanelRecord, QAItem]]:
    """The panel-scope items of ``family`` with the panel each asks about."""
    out = []
    for figure in figures:
        record = figure.record
        out += [
            (record.panel(item.panel), item)
            for item in questions_for_record(figure.record)
            if item.family == family and item.panel is not None
        ]
    return out


def pixels_of(figure: GeneratedFigure) -> np.ndarray:
    """The saved PNG as RGB integers (rows top-down, as the record's boxes)."""
    return np.asarray(Image.open(io.BytesIO(figure.png)).convert("RGB")).astype(int)


def closest(pixels: np.ndarray, box: Sequence[float], colour: np.ndarray) -> float:
    """How near (max channel difference) the pixel under ``box`` closest to ``colour`` is."""
    x0, y0, x1, y1 = (int(v) for v in box)
    region = pixels[y0 : max(y1, y0 + 1), x0 : max(x1, x0 + 1)].reshape(-1, 3)
    return float(np.abs(region - colour).max(axis=1).min())


def one_panel_spec(kind: str, data: dict[str, object]) -> FigureSpec:
    """A 5 x 4 in figure at 100 dpi with one titled panel of ``kind`` drawing ``data``."""
    style = FigureStyle("default", "DejaVu Sans", "dejavusans", False, FontSizes(12, 10, 9, 9, 8))
    panel = PanelSpec(0, 0, 0, kind, "random", {}, data, title="t")  # type: ignore[arg-type]
    return FigureSpec(
        "fig-x", 0, 0, 5.0, 4.0, 100, LayoutSpec(1, 1, 1, "horizontal"), style, [panel]
    )
