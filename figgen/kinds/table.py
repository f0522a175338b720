"""Plain table images: a header row, one row per label, one column per series.

``data`` holds ``row_header`` (the first column's heading), ``rows`` (row labels), ``columns``
(column headings) and ``cells`` (one list of numbers or strings per row), with ``decimals``
per column. The table fills the panel; every cell is a text element: ``table_header``
(``series`` = column), ``row_label`` (``item`` = row) and ``table_cell`` (``series``, ``item``,
and ``value`` for numbers), boxed by its cell. Every text prints inside its cell
(:mod:`figgen.kinds.table_fit`): at the tick size or smaller, never under 6 pt; a sampled
table keeps only the rows and columns its grid cell prints at 6 pt. Opt-in: not in the
default kind mix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, cast

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import to_rgba

from figgen.config.sections.fields import IntRange, Section, within
from figgen.kinds.api import Axis, Drawn, KindHooks, Mark, Sampled, register
from figgen.kinds.shared.fit_text import text_colour
from figgen.kinds.table_fit import (
    FLOOR_PT,
    FittedTable,
    header_weight,
    row_height_pt,
    table_width_pt,
)
from figgen.sample.rng import integer
from figgen.sample.text import Vocabulary
from figgen.schema.elements import Element, ElementDecl
from figgen.schema.longchart import (
    Chart,
    ChartPanel,
    ReadValue,
    Shape,
    label_of,
    mark_texts,
    printed_number,
    same_vectors,
)
from figgen.schema.panel import PanelData, PanelStyle, panel_data, panel_style
from figgen.schema.spec import FigureStyle, PanelSpec

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.elements import Element
    from figgen.schema.record import Record


DERIVED_DECIMALS = 2
"""Printed decimals of a LongChart table of single numbers and labels."""
CELL_SHARE = (0.45, 0.55)
"""The least share of its grid cell's width and height a panel's axes get (the layout lines
axes up with their neighbours' tick labels): a sampled table keeps the rows and columns that
print there at the floor size."""
MULTICHART_WIDTH_IN = 6.0
"""A multi-chart set's table image is this wide, or wider where its texts need it."""
MULTICHART_FONT, MULTICHART_TICK_PT = "DejaVu Sans", 9.0
"""The font and tick size ``figgen.multichart.render`` draws its images in."""
MULTICHART_TABLE_SHARE = 0.9
"""Share of the image's width the table's axes get (the layout keeps a margin)."""


def cell_text(value: Any, decimals: int) -> str:
    return f"{value:,.{decimals}f}" if isinstance(value, int | float) else str(value)


@panel_data("table")
@dataclass
class TableData(PanelData):
    """A table panel's ``data``: header, row and column names, cells and each column's precision."""

    row_header: str
    rows: list[str]
    columns: list[str]
    cells: list[list[float]]
    decimals: list[int]


@panel_style("table")
@dataclass
class TableStyle(PanelStyle):
    """A table samples no look of its own: grey rules, a bold shaded header, tick-size text."""


class TableConfig(Section):
    rows: Annotated[IntRange, within(1, 20)] = (3, 8)
    columns: Annotated[IntRange, within(1, 8)] = (1, 4)


class TableKind(KindHooks):
    name = "table"
    config = TableConfig
    noun = "table"
    elements = (
        ElementDecl("table_header", "#800000", text=True),
        ElementDecl("row_label", "#008080", text=True),
        ElementDecl("table_cell", "#000080", text=True),
    )
    multichart_charts = ("table",)
    default_weight = 0.0
    draws_axes = False  # set_axis_off: no axis labels, ticks or scale to read
    value_axes: tuple[Axis, ...] = ()

    def sample(
        self,
        rng: np.random.Generator,
        cfg: SharedConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        tc = cfg.section(self.name, TableConfig)
        n_rows, n_cols = integer(rng, tc.rows), integer(rng, tc.columns)
        words = [vocab.words[int(i)] for i in rng.integers(len(vocab.words), size=n_rows + n_cols)]
        cells = np.round(rng.uniform(0, 1000, (n_rows, n_cols)), 1).tolist()
        data = TableData(
            row_header="",
            rows=words[:n_rows],
            columns=words[n_rows:],
            cells=cells,
            decimals=[1] * n_cols,
        )
        return Sampled(
            params={"distribution": "uniform"}, data=data.to_dict(), style=TableStyle().to_dict()
        )

    def fit_cell(self, panel: PanelSpec, cell_pt: tuple[float, float], style: FigureStyle) -> None:
        d = TableData.from_dict(panel.data)
        width = cell_pt[0] * CELL_SHARE[0]
        n_rows = int(cell_pt[1] * CELL_SHARE[1] // row_height_pt(FLOOR_PT)) - 1
        rows = max(1, min(len(d.rows), n_rows))
        columns = [[d.row_header, *d.rows[:rows]]] + [
            [heading, *(cell_text(row[j], d.decimals[j]) for row in d.cells[:rows])]
            for j, heading in enumerate(d.columns)
        ]
        family = style.font_family
        kept = 1
        while kept < len(d.columns) and table_width_pt(columns[: kept + 2], family) <= width:
            kept += 1
        panel.data = TableData(
            row_header=d.row_header,
            rows=d.rows[:rows],
            columns=d.columns[:kept],
            cells=[row[:kept] for row in d.cells[:rows]],
            decimals=d.decimals[:kept],
        ).to_dict()

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        d = TableData.from_dict(panel.data)
        header = [d.row_header, *d.columns]
        body = [
            [str(row), *(cell_text(v, dec) for v, dec in zip(cells, d.decimals, strict=True))]
            for row, cells in zip(d.rows, d.cells, strict=True)
        ]
        table = FittedTable(ax, style.sizes.tick)
        for row, texts in enumerate([header, *body]):
            for col, text in enumerate(texts):
                # headings centred, numbers lined up on the right, as printed tables set them
                loc = "center" if row == 0 else "right"
                cell = table.add_cell(row, col, 1.0, 1.0, text=text, loc=loc, edgecolor="0.6")
                if row == 0:
                    cell.set_text_props(fontweight=header_weight(style.font_family))
                    cell.set_facecolor("0.92")
                # a dark style's white text would vanish on the light cells
                cell.get_text().set_color(text_colour(to_rgba(cell.get_facecolor())))
        ax.add_table(table)
        ax.set_axis_off()

        def probe(renderer: RendererBase) -> list[Mark]:
            table.check()
            marks = []
            for (row, col), cell in sorted(table.get_celld().items()):
                ext = cell.get_window_extent(renderer)
                box = (ext.x0, ext.y0, ext.x1, ext.y1)
                text = cell.get_text().get_text()
                if row == 0:
                    marks.append(
                        Mark("table_header", box, series=col - 1 if col else None, text=text)
                    )
                elif col == 0:
                    marks.append(Mark("row_label", box, item=row - 1, text=text))
                else:
                    raw = d.cells[row - 1][col - 1]
                    value = [float(raw)] if isinstance(raw, int | float) else None
                    marks.append(
                        Mark("table_cell", box, value, series=col - 1, item=row - 1, text=text)
                    )
            return marks

        return Drawn(probes=[probe])

    def multichart_refusal(self, chart: str, inputs: list[Shape]) -> str | None:
        if same_vectors(inputs) or all(s.kind != "vector" for s in inputs):
            return None
        return "shows vectors over the same labels, or numbers and labels"

    def multichart_panel(self, chart: Chart) -> ChartPanel:
        first = chart.inputs[0]
        if first.shape == "vector":
            data = TableData(
                row_header=chart.index_title or "",
                rows=[str(v) for v in first.labels],
                columns=[i.heading for i in chart.inputs],
                cells=[[i.at(label) for i in chart.inputs] for label in first.labels],
                decimals=[i.decimals for i in chart.inputs],
            )
        else:
            data = TableData(
                row_header="quantity",
                rows=[i.heading for i in chart.inputs],
                columns=["value"],
                # single numbers and labels: a label's cell holds its text
                cells=cast(
                    list[list[float]],
                    [[str(i.value) if i.shape == "label" else i.value] for i in chart.inputs],
                ),
                decimals=[DERIVED_DECIMALS],
            )
        height = 0.5 + 0.32 * (len(data.rows) + 1)
        return ChartPanel(
            data.to_dict(), size_in=(_multichart_width(data), height), style_sheet=False
        )

    def multichart_read(self, record: Record, chart: Chart) -> list[ReadValue]:
        texts = mark_texts(record, "table_cell")
        first = chart.inputs[0]
        if first.shape == "vector":
            rows = range(len(first.labels))
            return [
                tuple(printed_number(texts[(j, i)]) for i in rows) for j in range(len(chart.inputs))
            ]
        return [
            label_of(texts[(0, i)], shown.labels)
            if shown.shape == "label"
            else printed_number(texts[(0, i)])
            for i, shown in enumerate(chart.inputs)
        ]

    def shows_input(self, element: Element, series: int, items: set[int]) -> bool:
        return element.kind == "table_cell" and element.series == series and element.item in items


def _multichart_width(data: TableData) -> float:
    """Six inches, or wider where the texts need it to print at the set's tick size."""
    columns = [
        [data.row_header, *data.rows],
        *(
            [heading, *(cell_text(row[j], places) for row in data.cells)]
            for j, (heading, places) in enumerate(zip(data.columns, data.decimals, strict=True))
        ),
    ]
    needed = table_width_pt(columns, MULTICHART_FONT, MULTICHART_TICK_PT) / 72
    return max(MULTICHART_WIDTH_IN, round(needed / MULTICHART_TABLE_SHARE + 0.5, 1))


register(TableKind())
