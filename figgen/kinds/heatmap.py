"""Heatmaps: an imshow-style grid of coloured cells with categorical row and column labels.

``data`` holds ``rows`` (row labels, top to bottom), ``columns`` (column labels, left to
right), ``values`` (one list per row) and ``decimals``: every value is stored rounded to it, so
an annotated cell prints exactly its value. Each cell is a ``cell`` element (``series`` = row,
``item`` = column, ``value`` = [value]); where the annotations fit their cells each prints a
``cell_text`` element with the same indices. The colour bar resolves values only coarsely, so
a cell's value is asked only where the cells are annotated. Opt-in: the default kind mix gives
``heatmap`` weight 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import Normalize
from matplotlib.path import Path
from pydantic import Field

from figgen.config.sections.fields import (
    IntRange,
    Probability,
    Range,
    Section,
    Weights,
    one_of,
    within,
)
from figgen.kinds.api import (
    COLORMAPS,
    Axis,
    CategoryAxes,
    Drawn,
    KindHooks,
    Mark,
    Sampled,
    register,
)
from figgen.kinds.shared.categories import category_words, quoted_names
from figgen.kinds.shared.colorbar import add_colorbar, colorbar_colormap
from figgen.kinds.shared.fit_text import TextFitter, text_colour
from figgen.kinds.shared.gradient import CYCLIC_COLORMAPS, plane_direction
from figgen.kinds.shared.marks import background, contrast_edge
from figgen.sample.rng import choose, integer, uniform
from figgen.sample.text import Vocabulary, colorbar_label
from figgen.schema.elements import ElementDecl, mark
from figgen.schema.panel import PanelData, PanelRecord, PanelStyle, panel_data, panel_style
from figgen.schema.spec import FigureStyle, PanelSpec
from figgen.schema.truth_table import ChartTable, Row, number_text
from figgen.vqa.api.families import COLORMAP, Family, declare
from figgen.vqa.api.findings import Finding, ask_findings
from figgen.vqa.api.reading.readout import spoken_number
from figgen.words.colormap_words import colormap_sentence
from figgen.words.spoken import spoken
from figgen.words.wording import count

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.qa_item import Level
    from figgen.vqa.api.context import FigureContext

_MAP = "the heatmap in {loc}"
# fmt: off
HEATMAP_ROWS = declare(
    "heatmap_rows", 1, "panel", "integer", "exact",
    f"how many rows of cells does {_MAP} have?", is_count=True,
)
HEATMAP_COLUMNS = declare(
    "heatmap_columns", 1, "panel", "integer", "exact",
    f"how many columns of cells does {_MAP} have?", is_count=True,
)
CELL_VALUE = declare(
    "cell_value", 2, "panel", "number", "relative_1pct",
    f'in {_MAP}, what is the value of the cell in row "{{row}}" and column "{{column}}"?',
)
MAX_CELL_ROW = declare(
    "max_cell_row", 2, "panel", "choice", "exact",
    f"in {_MAP}, which row holds the cell with the largest value?",
)
MAX_CELL_COLUMN = declare(
    "max_cell_column", 2, "panel", "choice", "exact",
    f"in {_MAP}, which column holds the cell with the largest value?",
)
HEATMAP_GRADIENT = declare(
    "heatmap_gradient", 3, "panel", "choice", "exact",
    f"in {_MAP}, in which direction do the cell values increase (use the colour bar)?",
)
# fmt: on
DIRECTIONS = ("left to right", "right to left", "bottom to top", "top to bottom")
CLEAR_SHARE = 0.15
"""Without annotations a cell is "the largest" only when it beats every cell of the other rows
(columns) by this share of the colour bar's range."""
TEXT_PT = 10.0
MIN_TEXT_PT = 6.0
"""Annotations that would have to shrink below this (points) are not printed."""
MIN_EDGE_PT = 0.8
"""Outline width (points) of cells drawn where a cell's colour is the background's."""
MAX_WORD = 8
"""Row and column labels are vocabulary words of at most this many letters."""


@panel_data("heatmap")
@dataclass
class HeatmapData(PanelData):
    """A heatmap panel's ``data``: labels, the grid of values and the printed precision."""

    rows: list[str]
    columns: list[str]
    values: list[list[float]]
    decimals: int = 1

    def grid(self) -> np.ndarray:
        return np.asarray(self.values, dtype=float)


@panel_style("heatmap")
@dataclass
class HeatmapStyle(PanelStyle):
    """A heatmap's look: colormap, printed values, colour bar, gutters between cells."""

    colormap: str = "viridis"
    annotate: bool = False
    """Each cell prints its value."""
    colorbar: str | None = None
    colorbar_label: str | None = None
    gaps: float = 0.0
    """Gutter width between cells in points (0: none)."""


def heatmap_chart_table(panel: PanelRecord) -> ChartTable | None:
    """The density table of a heatmap: one series per row (its label), one row per cell (X
    Value the column label, Y Value the cell's value). Only where a colour bar names one value
    per colour: printed values may not fit their cells when the panel is drawn again alone
    (their size follows the cell), and a cyclic colour scale names two values per colour."""
    style = panel.style_as(HeatmapStyle)
    if not style.colorbar or style.colormap in CYCLIC_COLORMAPS:
        return None
    d = panel.data_as(HeatmapData)
    rows = [
        Row(row, column, number_text(value))
        for row, values in zip(d.rows, d.values, strict=True)
        for column, value in zip(d.columns, values, strict=True)
    ]
    return ChartTable(tuple(rows), "categorical")


class HeatmapConfig(Section):
    """Heatmaps (opt-in: give ``heatmap`` a weight in ``kinds``)."""

    rows: Annotated[IntRange, within(2, 20)] = (3, 10)
    columns: Annotated[IntRange, within(2, 20)] = (3, 10)
    annotate_p: Probability = 0.5
    colorbar_p: Probability = Field(0.8, description="with annotations; without, always drawn")
    top: Annotated[Range, within(1e-3, 1e9)] = Field(
        (1.0, 1000.0), description="the largest value's size, log-uniform"
    )
    colorbar_location: Annotated[
        Weights, one_of("colorbar location", ("right", "left", "top", "bottom"))
    ] = Field(default_factory=lambda: {"right": 0.7, "left": 0.1, "top": 0.1, "bottom": 0.1})


def _field(
    rng: np.random.Generator, distribution: str, rows: int, cols: int
) -> tuple[np.ndarray, dict[str, Any]]:
    """Values in [0, 1] shaped by the distribution: a gradient, blobs or blocks."""
    v, u = np.meshgrid(np.linspace(0, 1, rows), np.linspace(0, 1, cols), indexing="ij")
    if distribution == "linear":
        a, b = rng.normal(size=2)
        clean = a * u + b * v
        params: dict[str, Any] = {"gradient": [float(a), float(b)]}
    elif distribution == "gmm":
        k = integer(rng, (1, 3))
        centres, widths = rng.uniform(0, 1, (k, 2)), rng.uniform(0.15, 0.45, (k, 2))
        clean = sum(
            np.exp(-0.5 * (((u - c[0]) / w[0]) ** 2 + ((v - c[1]) / w[1]) ** 2))
            for c, w in zip(centres, widths, strict=True)
        )
        params = {"centres_unit": centres.tolist(), "widths_unit": widths.tolist()}
    else:
        block_r, block_c = (
            integer(rng, (1, max(1, rows // 2))),
            integer(rng, (1, max(1, cols // 2))),
        )
        coarse = rng.uniform(0, 1, (-(-rows // block_r), -(-cols // block_c)))
        clean = np.kron(coarse, np.ones((block_r, block_c)))[:rows, :cols]
        params = {"blocks": [block_r, block_c]}
    noisy = clean + rng.normal(0, 0.05 * (float(np.ptp(clean)) or 1.0), clean.shape)
    low, high = noisy.min(), noisy.max()
    return (noisy - low) / ((high - low) or 1.0), params


def _decimals(top: float) -> int:
    """Decimals that print the largest value with three significant figures (none past 100)."""
    return max(0, 2 - int(np.floor(np.log10(abs(top))))) if top else 0


GLYPH_EMS = 0.62
"""A lower-case word's mean glyph width in ems (DejaVu Sans and the serif faces alike)."""


def _upright_if_crowded(ax: Axes, columns: list[str], style: FigureStyle) -> int:
    """90 where the longest column label, laid flat, would be wider than its column.

    Measured before the layout from the axes' first position (the layout only narrows it),
    so the labels stand upright from the first pass instead of overlapping, being turned by
    the layout repair and drawn again.
    """
    width_pt = ax.bbox.width * 72 / ax.figure.dpi
    longest = max(len(label) for label in columns) * GLYPH_EMS * style.sizes.tick
    return 90 if longest > 0.9 * width_pt / len(columns) else 0


class HeatmapKind(KindHooks):
    name = "heatmap"
    config = HeatmapConfig
    noun = "heatmap"
    default_weight = 0.0
    value_axes: tuple[Axis, ...] = ()
    chart_table = staticmethod(heatmap_chart_table)
    density_rule = """\
- Heatmap: one series per row of cells, named by its row label; one row per cell, with X
  Value the column label and Y Value the cell's value (printed in the cell, or read from the
  colour bar)."""
    elements = (mark("cell", "#32cd32"), ElementDecl("cell_text", "#ff1493", text=True))
    families: tuple[Family, ...] = (
        COLORMAP,
        HEATMAP_ROWS,
        HEATMAP_COLUMNS,
        CELL_VALUE,
        MAX_CELL_ROW,
        MAX_CELL_COLUMN,
        HEATMAP_GRADIENT,
    )

    def sample(
        self,
        rng: np.random.Generator,
        cfg: SharedConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        hc = cfg.section(self.name, HeatmapConfig)
        n_rows, n_cols = integer(rng, hc.rows), integer(rng, hc.columns)
        unit, params = _field(rng, distribution, n_rows, n_cols)
        top = float(np.exp(rng.uniform(np.log(hc.top[0]), np.log(hc.top[1]))))
        low = top * uniform(rng, (-0.5, 0.6)) if rng.random() < 0.5 else 0.0
        decimals = _decimals(max(abs(top), abs(low)))
        values = np.round(low + (top - low) * unit, decimals) + 0.0  # no "-0.0" printed
        annotate = bool(rng.random() < hc.annotate_p)
        colorbar = (
            choose(rng, hc.colorbar_location)
            if not annotate or rng.random() < hc.colorbar_p
            else None
        )
        data = HeatmapData(
            category_words(rng, vocab, n_rows, longest=MAX_WORD),
            category_words(rng, vocab, n_cols, longest=MAX_WORD),
            values.tolist(),
            decimals,
        )
        style = HeatmapStyle(
            colormap=str(rng.choice(COLORMAPS)),
            annotate=annotate,
            colorbar=colorbar,
            colorbar_label=colorbar_label(rng, vocab, cfg.text) if colorbar else None,
            gaps=round(uniform(rng, (0.5, 2.0)), 2) if rng.random() < 0.4 else 0.0,
        )
        return Sampled(
            params={**params, "top": top, "low": low}, data=data.to_dict(), style=style.to_dict()
        )

    def category_axis(self, panel: PanelSpec) -> CategoryAxes:
        return "xy"

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        st, d = HeatmapStyle.from_dict(panel.style), HeatmapData.from_dict(panel.data)
        grid = d.grid()
        norm = Normalize(float(grid.min()), float(grid.max()))
        image = ax.imshow(
            grid, cmap=st.colormap, norm=norm, aspect="auto", interpolation="nearest"
        )  # nearest: a style's bilinear default would blend the cells
        n_rows, n_cols = grid.shape
        ax.set_xticks(np.arange(n_cols), labels=d.columns)
        ax.set_yticks(np.arange(n_rows), labels=d.rows)
        ax.tick_params(length=0)
        rotation = st.x_tick_rotation or _upright_if_crowded(ax, d.columns, style)
        if rotation:  # crowded column labels stand upright: no repair pass, no shrunk font
            ax.tick_params(axis="x", labelrotation=rotation)
        for spine in ax.spines.values():
            spine.set_visible(False)
        ax.grid(False, which="both")  # a style's grid would cross the cells' centres
        cmap = image.get_cmap()
        colours = cmap(norm(grid))
        edge = contrast_edge(colours, background(ax))
        if st.gaps or edge:  # gutters between cells, as seaborn's linewidths draw them
            ax.set_xticks(np.arange(n_cols + 1) - 0.5, minor=True)
            ax.set_yticks(np.arange(n_rows + 1) - 0.5, minor=True)
            width = max(st.gaps, MIN_EDGE_PT if edge else 0.0)
            colour = edge or ax.get_facecolor()
            ax.grid(which="minor", color=colour, linewidth=width, linestyle="-", alpha=1.0)
            ax.tick_params(which="minor", length=0)
        texts = []
        # printed values start as large as the tick labels or TEXT_PT, whichever is larger, and
        # shrink to fit their cells
        size = max(style.sizes.tick, TEXT_PT)
        if st.annotate:
            for r in range(n_rows):
                for c in range(n_cols):
                    texts.append(
                        ax.text(
                            c,
                            r,
                            f"{grid[r, c]:.{d.decimals}f}",
                            ha="center",
                            va="center",
                            color=text_colour(colours[r, c]),
                            fontsize=size,
                        )
                    )

            def room(i: int) -> list[Path]:
                r, c = divmod(i, n_cols)
                corners = ax.transData.transform([(c - 0.5, r - 0.5), (c + 0.5, r + 0.5)])
                return [Path(corners)]

            ax.add_artist(TextFitter(texts, room, mode="shrink", size=size, min_size=MIN_TEXT_PT))
        cbar = add_colorbar(ax, image, st.colorbar, st.colorbar_label, style, nbins=st.cbar_nbins)

        def probe(renderer: RendererBase) -> list[Mark]:
            marks = []
            for r in range(n_rows):
                for c in range(n_cols):
                    (x0, y0), (x1, y1) = ax.transData.transform(
                        [(c - 0.5, r + 0.5), (c + 0.5, r - 0.5)]
                    )
                    marks.append(
                        Mark(
                            "cell",
                            (x0, y0, x1, y1),
                            value=[float(grid[r, c])],
                            series=r,
                            item=c,
                            color=tuple(float(v) for v in colours[r, c]),  # type: ignore[arg-type]
                        )
                    )
            for i, text in enumerate(texts):
                if text.get_visible():
                    tb = text.get_window_extent(renderer)
                    r, c = divmod(i, n_cols)
                    marks.append(
                        Mark(
                            "cell_text",
                            (tb.x0, tb.y0, tb.x1, tb.y1),
                            series=r,
                            item=c,
                            text=text.get_text(),
                        )
                    )
            return marks

        return Drawn(probes=[probe], colorbar=cbar)

    def shown_colormap(self, panel: PanelRecord) -> str | None:
        return colorbar_colormap(panel.style_as(HeatmapStyle))

    def panel_questions(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
        d, index = panel.data_as(HeatmapData), panel.index
        cells = ctx.element_ids(index, "cell")
        if level == 1:
            ctx.ask(HEATMAP_ROWS, panel, len(d.rows), evidence=cells)
            ctx.ask(HEATMAP_COLUMNS, panel, len(d.columns), evidence=cells)
        elif level == 2:
            _value_questions(ctx, panel, d)
        else:
            evidence = ctx.element_ids(index, "cell", "colorbar")
            ask_findings(ctx, panel, heatmap_findings(panel, annotated(ctx, panel)), evidence)

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        d, style = panel.data_as(HeatmapData), panel.style_as(HeatmapStyle)
        grid, shown = d.grid(), annotated(ctx, panel)
        if level == 1:
            out = [
                f"It is a grid of {count(len(d.rows), 'row')} ({quoted_names(d.rows)}) by "
                f"{count(len(d.columns), 'column')} ({quoted_names(d.columns)}) of coloured cells"
                + (", each printed with its value." if shown else ".")
            ]
            if style.colormap:
                out.append(colormap_sentence(style.colormap))
            return out
        if level == 2:
            low = np.unravel_index(int(np.argmin(grid)), grid.shape)
            high = np.unravel_index(int(np.argmax(grid)), grid.shape)
            about = "" if shown else "about "
            decimals, digits = (d.decimals, 3) if shown else (None, 2)
            low_text = spoken_number(float(grid[low]), decimals=decimals, digits=digits)
            high_text = spoken_number(float(grid[high]), decimals=decimals, digits=digits)
            return [
                f"Values run from {about}{low_text} ({_cell(d, low)}) to "
                f"{about}{high_text} ({_cell(d, high)})."
            ]
        found = heatmap_findings(panel, shown)
        if found:
            return [f.sentence for f in found]
        out = ["The values show no single direction."]
        if not shown and style.colormap in CYCLIC_COLORMAPS:
            return out
        margin = 0.0 if shown else CLEAR_SHARE * float(np.ptp(grid))
        r, c = _clear_line(grid, margin), _clear_line(grid.T, margin)
        if r is not None and c is not None:
            out.append(f"The highest cell is {_cell(d, (r, c))}.")
        return out


def annotated(ctx: FigureContext, panel: PanelRecord) -> bool:
    """Whether every cell prints its value (the annotations fitted their cells)."""
    d = panel.data_as(HeatmapData)
    return len(ctx.elements(panel.index, "cell_text")) == len(d.rows) * len(d.columns)


def heatmap_findings(panel: PanelRecord, shown: bool) -> list[Finding]:
    """The direction the values increase, where a plane fits the grid clearly."""
    d = panel.data_as(HeatmapData)
    if not shown and panel.style_as(HeatmapStyle).colormap in CYCLIC_COLORMAPS:
        return []
    grid = d.grid()
    rows, cols = np.indices(grid.shape)
    towards = plane_direction(
        cols.astype(float), -rows.astype(float), grid, DIRECTIONS
    )  # row 0 is drawn on top
    if towards is None:
        return []
    sentence = f"The values increase from {towards}."
    return [Finding(HEATMAP_GRADIENT, towards, sentence, list(DIRECTIONS))]


def _value_questions(ctx: FigureContext, panel: PanelRecord, d: HeatmapData) -> None:
    grid, index = d.grid(), panel.index
    shown = annotated(ctx, panel)
    span = float(np.ptp(grid))
    if shown:
        n_rows, n_cols = grid.shape
        for r, c in {(n_rows // 2, n_cols // 3), (0, n_cols - 1)}:
            evidence = [
                e.id
                for kind in ("cell", "cell_text")
                for e in ctx.elements(index, kind)
                if e.series == r and e.item == c
            ]
            ctx.ask(
                CELL_VALUE,
                panel,
                float(grid[r, c]),
                evidence=evidence,
                span=span,
                row=d.rows[r],
                column=d.columns[c],
            )
    if not shown and panel.style_as(HeatmapStyle).colormap in CYCLIC_COLORMAPS:
        return
    cells = ctx.element_ids(index, "cell", "colorbar")
    margin = 0.0 if shown else CLEAR_SHARE * span
    row = _clear_line(grid, margin)
    if row is not None:
        ctx.ask(MAX_CELL_ROW, panel, d.rows[row], choices=list(d.rows), evidence=cells)
    column = _clear_line(grid.T, margin)
    if column is not None:
        ctx.ask(MAX_CELL_COLUMN, panel, d.columns[column], choices=list(d.columns), evidence=cells)


def _clear_line(grid: np.ndarray, margin: float) -> int | None:
    """The row holding the largest cell, when it beats every other row's best by more than
    ``margin`` (annotated grids: by any printed amount)."""
    best = grid.max(axis=1)
    order = np.argsort(best)[::-1]
    if len(order) < 2 or best[order[0]] - best[order[1]] <= margin:
        return None
    return int(order[0])


def _cell(d: HeatmapData, where: tuple[Any, ...]) -> str:
    r, c = (int(i) for i in where)
    return f'row "{spoken(d.rows[r])}", column "{spoken(d.columns[c])}"'


register(HeatmapKind())
