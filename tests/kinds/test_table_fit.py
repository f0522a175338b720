"""Table text stays inside its cells: checked on the saved PNG's ink and on matplotlib's own
window extents of what was drawn, never on the fitting code's numbers."""

from __future__ import annotations

import io
import logging
from dataclasses import replace

import numpy as np
import pytest
from matplotlib import rc_context
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.table import Table
from PIL import Image

from figgen.build.figure import generate_figure
from figgen.config.load import FigureConfig, config_from_dict
from figgen.kinds import KINDS
from figgen.kinds.table_fit import CrowdedTable
from figgen.render import render
from figgen.render.repair import TEXT_BOX_KINDS
from figgen.schema.elements import Element
from figgen.schema.spec import FigureSpec, FigureStyle, FontSizes, LayoutSpec, PanelSpec

LONG = [
    "internationalization",
    "photoluminescence",
    "thermodynamically",
    "counterbalancing",
    "electroencephalogram",
    "spectrophotometry",
    "x",
]


def _table(n_rows: int, n_cols: int, *, seed: int = 0) -> dict:
    """A table of long words and wide numbers (millions, two decimals)."""
    rng = np.random.default_rng(seed)
    return {
        "row_header": "characterization",
        "rows": [LONG[(i + 2) % len(LONG)] for i in range(n_rows)],
        "columns": [LONG[(j + 3) % len(LONG)].upper() for j in range(n_cols)],
        "cells": np.round(rng.uniform(-2e6, 2e6, (n_rows, n_cols)), 2).tolist(),
        "decimals": [2] * n_cols,
    }


def _spec(data: dict, width: float, height: float, dpi: int, tick: float = 9.0) -> FigureSpec:
    sizes = FontSizes(12, 10, tick, 9, 8)
    style = FigureStyle("default", "DejaVu Sans", "dejavusans", False, sizes)
    panel = PanelSpec(0, 0, 0, "table", "random", {}, data, title="t")
    return FigureSpec(
        "fig-x", 0, 0, width, height, dpi, LayoutSpec(1, 1, 1, "horizontal"), style, [panel]
    )


CELL_KINDS = frozenset({"table_cell", "table_header", "row_label"})

CASES = [
    # (rows, columns, inches wide, inches tall, dpi, tick pt)
    (3, 2, 5.0, 3.0, 100, 9.0),
    (8, 3, 6.0, 3.5, 150, 14.0),
    (6, 4, 7.0, 3.0, 120, 20.0),
    (12, 1, 3.0, 4.0, 200, 12.0),
]


def assert_text_inside_cells(png: bytes, elements: list[Element]) -> None:
    """Dark ink (the text; rules are 0.6 grey) lies only in cell interiors (or the other
    texts' boxes), and every cell with text has some: a text spilling past its cell puts ink
    on a rule or outside the table."""
    grey = np.asarray(Image.open(io.BytesIO(png)).convert("L")).astype(int)
    dark = grey < 110
    allowed = np.zeros_like(dark)
    inset = 2  # half a rule and antialiasing
    for e in elements:
        x0, y0, x1, y1 = (int(round(v)) for v in e.bbox)
        if e.kind in CELL_KINDS:
            inside = dark[y0 + inset : y1 - inset, x0 + inset : x1 - inset]
            assert inside.any() == bool(e.text), (e.kind, e.text)
            allowed[y0 + inset : y1 - inset, x0 + inset : x1 - inset] = True
        elif e.kind in TEXT_BOX_KINDS:  # titles
            allowed[y0 - 1 : y1 + 1, x0 - 1 : x1 + 1] = True
    stray = dark & ~allowed
    assert not stray.any(), f"{int(stray.sum())} text pixels on or outside the cell rules"


@pytest.mark.parametrize(("rows", "cols", "width", "height", "dpi", "tick"), CASES)
def test_text_ink_lies_inside_its_cell(
    rows: int, cols: int, width: float, height: float, dpi: int, tick: float
) -> None:
    out = render(_spec(_table(rows, cols), width, height, dpi, tick), FigureConfig())
    assert sum(e.kind in CELL_KINDS for e in out.elements) == (rows + 1) * (cols + 1)
    assert_text_inside_cells(out.png, out.elements)


def test_sampled_tables_keep_their_text_inside_their_cells() -> None:
    """A sampled figure of 14 tables (seed 1, figure 7 of a tables-only build), long words
    included, in panels of a few hundred pixels."""
    figure = generate_figure(config_from_dict({"kinds": {"table": 1.0}}), 1, 7)
    record = figure.record
    assert len(record.panels) == 14 and not record.style.dark
    longest = max(len(e.text or "") for e in record.elements if e.kind in CELL_KINDS)
    assert longest >= 12
    assert_text_inside_cells(figure.png, record.elements)


def test_matplotlib_extents_of_every_text_lie_inside_its_cell() -> None:
    """The drawn table's own window extents: each text's box inside its cell's box."""
    fig = Figure(figsize=(6.0, 2.5), dpi=150)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.05, 0.05, 0.9, 0.85))
    style = _spec({}, 6.0, 2.5, 150, tick=16.0).style
    panel = PanelSpec(0, 0, 0, "table", "random", {}, _table(5, 3))
    KINDS["table"].draw(ax, panel, style)
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    (table,) = [a for a in ax.get_children() if isinstance(a, Table)]
    sizes = set()
    for cell in table.get_celld().values():
        text = cell.get_text()
        if not text.get_text():
            continue
        outer, inner = cell.get_window_extent(renderer), text.get_window_extent(renderer)
        assert outer.x0 < inner.x0 and inner.x1 < outer.x1, text.get_text()
        assert outer.y0 < inner.y0 and inner.y1 < outer.y1, text.get_text()
        sizes.add(text.get_fontsize())
    (size,) = sizes  # one size for the whole table, shrunk from 16 pt but not below 6 pt
    assert 6.0 <= size < 16.0


def test_a_table_too_large_for_its_panel_is_refused() -> None:
    """Below the 6 pt floor nothing is drawn: the render raises (and a build resamples)."""
    with pytest.raises(CrowdedTable, match="under the 6 pt floor"):
        render(_spec(_table(12, 8), 3.0, 2.0, 100), FigureConfig())


def test_a_sampled_table_keeps_the_top_left_block_its_cell_prints() -> None:
    """Sampling trims a table to its grid cell (rows and columns kept from the top left), so
    a 25-panel figure of tables (seed 1, figure 3, cells 1.6 x 4 in) draws on its first
    attempt, every text inside its cell; without the trim a table there needed 4.1 pt."""
    data = _table(12, 8)
    panel = PanelSpec(0, 0, 0, "table", "random", {}, dict(data))
    KINDS["table"].fit_cell(panel, (90.0, 90.0), _spec({}, 3, 3, 100).style)
    kept = panel.data
    assert 1 <= len(kept["rows"]) < 12 and 1 <= len(kept["columns"]) < 8
    assert kept["rows"] == data["rows"][: len(kept["rows"])]
    assert kept["columns"] == data["columns"][: len(kept["columns"])]
    assert kept["cells"] == [
        row[: len(kept["columns"])] for row in data["cells"][: len(kept["rows"])]
    ]
    figure = generate_figure(config_from_dict({"kinds": {"table": 1.0}}), 1, 3)
    record = figure.record
    assert len(record.panels) == 25 and not figure.record.resampled
    assert_text_inside_cells(figure.png, record.elements)


def test_headers_are_bold_where_the_font_has_a_bold_face(caplog: pytest.LogCaptureFixture) -> None:
    """cmr10 has one weight: its headers are drawn at it, with no matplotlib warning per header."""
    weights = {}
    for family in ("DejaVu Sans", "cmr10"):
        spec = _spec(_table(3, 2), 5.0, 3.0, 100)
        spec = replace(spec, style=replace(spec.style, font_family=family))
        with (
            caplog.at_level(logging.WARNING, logger="matplotlib.font_manager"),
            rc_context({"font.family": family, "axes.formatter.use_mathtext": True}),
        ):
            fig = Figure(figsize=(5.0, 3.0), dpi=100)
            FigureCanvasAgg(fig)
            KINDS["table"].draw(fig.add_subplot(), spec.panels[0], spec.style)
            fig.canvas.draw()
        (table,) = [a for a in fig.axes[0].get_children() if isinstance(a, Table)]
        weights[family] = table.get_celld()[0, 0].get_text().get_fontweight()
    assert not [r for r in caplog.records if "findfont" in r.getMessage()]
    assert weights == {"DejaVu Sans": "bold", "cmr10": "normal"}
