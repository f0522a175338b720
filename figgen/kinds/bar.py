"""Categorical bar charts: one, grouped or stacked series of bars over named categories.

``data`` holds ``categories`` (the tick labels, in axis order), ``series`` (``label``, ``color``,
``values``: one value per category), ``mode`` (``single`` | ``grouped`` | ``stacked``) and
``orientation``; :func:`bar_table` turns it into the ground-truth ``(series, category, value)``
table. Every bar (a stacked segment too) is one ``bar`` element with ``series``, ``item`` (the
category index) and ``value`` ``[category position, value]``. Opt-in: the default kind mix gives
``bar`` weight 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal, cast, get_args

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import to_rgba
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
from figgen.kinds.api import Axis, Drawn, KindHooks, Mark, Sampled, random_color, register
from figgen.kinds.shared.categories import (
    category_words,
    clear_leader,
    distinct_colors,
    quoted_names,
)
from figgen.kinds.shared.marks import BAR, centres
from figgen.sample.rng import choose, integer, sig, uniform
from figgen.sample.text import Vocabulary
from figgen.schema.elements import Element
from figgen.schema.longchart import Chart, ChartPanel, ReadValue, Shape, same_vectors
from figgen.schema.panel import PanelData, PanelRecord, PanelStyle, panel_data, panel_style
from figgen.schema.spec import FigureStyle, PanelSpec
from figgen.schema.truth_table import ChartTable, Row, number_text
from figgen.vqa.api.answerable import legend_boxes, mark_hidden
from figgen.vqa.api.families import ERROR_BARS, Family, declare
from figgen.words.numerals import round_sig

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.elements import Element
    from figgen.schema.qa_item import Level
    from figgen.schema.record import Record
    from figgen.vqa.api.context import FigureContext

Mode = Literal["single", "grouped", "stacked"]
MODES: tuple[str, ...] = get_args(Mode)

_CHART = "the bar chart in {loc}"
# fmt: off
N_CATEGORIES = declare(
    "n_categories", 1, "panel", "integer", "exact",
    f"how many categories are there along the {{axis}} axis of {_CHART}?", is_count=True,
)
CATEGORIES = declare(
    "categories", 1, "panel", "string_list", "cer_list",
    f"list the category names along the {{axis}} axis of {_CHART}, in order.",
)
N_SERIES = declare(
    "n_bar_series", 1, "panel", "integer", "exact",
    f"how many data series (bar colours) does {_CHART} show?", is_count=True,
)
BAR_MODE = declare(
    "bar_mode", 1, "panel", "choice", "exact",
    f"are the series of {_CHART} drawn side by side (grouped) or on top of each other "
    "(stacked)?",
)
BAR_VALUE = declare(
    "bar_value", 2, "panel", "number", "ssmape",
    'in {loc}, what is the value{whose} for the category "{category}"{length}?',
)
MAX_CATEGORY = declare(
    "max_category", 2, "panel", "choice", "exact",
    "in {loc}, which category has the longest {what}?",
)
LARGEST_SERIES = declare(
    "largest_series", 3, "panel", "choice", "exact",
    f"in {_CHART}, which series has the largest total over all categories?",
)
# fmt: on

MULTI_MODES: list[str] = ["grouped", "stacked"]


@dataclass
class BarSeries(PanelData):
    label: str | None
    color: str
    values: list[float]


@panel_data("bar")
@dataclass
class BarData(PanelData):
    """The typed view of a bar panel's ``data``; ``to_dict`` is exactly what the record stores."""

    categories: list[str]
    series: list[BarSeries]
    mode: Mode
    orientation: Literal["vertical", "horizontal"]

    NESTED = {"series": BarSeries}

    def bottoms(self) -> np.ndarray:
        """Where each series' bars start (series x category): stacked on the ones before."""
        values = np.array([s.values for s in self.series], dtype=float)
        if self.mode != "stacked":
            return np.zeros_like(values)
        return np.vstack([np.zeros(values.shape[1]), np.cumsum(values, axis=0)[:-1]])

    def totals(self) -> np.ndarray:
        """The sum over series of each category (a stack's height)."""
        totals: np.ndarray = np.array([s.values for s in self.series], dtype=float).sum(axis=0)
        return totals


@panel_style("bar")
@dataclass
class BarStyle(PanelStyle):
    """A bar chart's look: bar width (category spacing 1), an optional outline, grid."""

    width: float = 0.8
    edgecolor: str | None = None
    edgewidth: float = 0.5
    grid: bool = False

    def edge_px(self, dpi: float) -> float:
        """Half the outline's width in pixels (0 without an outline): how far it reaches."""
        return (self.edgewidth if self.edgecolor else 0.0) * dpi / 72 / 2


def bar_table(data: BarData | dict[str, Any]) -> list[tuple[str, str, float]]:
    """The ground-truth table ``(series, category, value)`` of a bar panel's ``data`` (typed
    or stored), series by series. A single unnamed series is named ``""``.
    """
    bars = data if isinstance(data, BarData) else BarData.from_dict(data)
    return [
        (s.label or "", category, float(value))
        for s in bars.series
        for category, value in zip(bars.categories, s.values, strict=True)
    ]


def bar_panel_table(panel: PanelRecord) -> ChartTable:
    """One row per bar: series label, category and value (a stacked segment's own length)."""
    rows = [Row(s, c, number_text(v)) for s, c, v in bar_table(panel.data_as(BarData))]
    return ChartTable(tuple(rows), "categorical")


def _values(
    rng: np.random.Generator, distribution: str, n: int, top: float
) -> tuple[Any, dict[str, Any]]:
    """Positive bar values shaped by the panel's distribution, and how they were made."""
    t = np.linspace(0.0, 1.0, n)
    if distribution == "linear":
        slope, intercept = uniform(rng, (-0.8, 0.8)), uniform(rng, (0.2, 1.0))
        shape = np.clip(intercept + slope * t, 0.05, None)
        params: dict[str, Any] = {"slope": slope, "intercept": intercept}
    elif distribution == "gmm":
        mean, width = uniform(rng, (0.0, 1.0)), uniform(rng, (0.15, 0.6))
        shape = 0.1 + np.exp(-0.5 * ((t - mean) / width) ** 2)
        params = {"means": [mean], "stds": [width]}
    else:
        shape = rng.uniform(0.1, 1.0, n)
        params = {}
    values = top * shape / shape.max() * rng.uniform(0.85, 1.0, n)
    return sig(values, 3), {**params, "top": top}


class BarConfig(Section):
    """Categorical bar charts (opt-in: give ``bar`` a weight in ``kinds``)."""

    categories: Annotated[IntRange, within(2, 12)] = (2, 8)
    series: Annotated[IntRange, within(1, 6)] = Field(
        (2, 3), description="series of a grouped or stacked chart"
    )
    mode: Annotated[Weights, one_of("bar mode", MODES)] = Field(
        default_factory=lambda: {"single": 1.0, "grouped": 1.0, "stacked": 0.5}
    )
    horizontal_p: Probability = 0.25
    top: Annotated[Range, within(1e-3, 1e9)] = Field(
        (1.0, 1000.0), description="the tallest bar's value, log-uniform"
    )


class BarKind(KindHooks):
    name = "bar"
    config = BarConfig
    noun = "bar chart"
    default_weight = 0.0
    elements = (BAR,)
    chart_table = staticmethod(bar_panel_table)
    multichart_charts = ("bar", "stacked_bar")
    families: tuple[Family, ...] = (
        ERROR_BARS,
        N_CATEGORIES,
        N_SERIES,
        BAR_MODE,
        CATEGORIES,
        BAR_VALUE,
        MAX_CATEGORY,
        LARGEST_SERIES,
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
        bc = cfg.section(self.name, BarConfig)
        n_categories = integer(rng, bc.categories)
        mode: Mode = choose(rng, bc.mode)  # type: ignore[assignment]
        n_series = 1 if mode == "single" else integer(rng, bc.series)
        categories = category_words(rng, vocab, n_categories)
        labels = category_words(rng, vocab, n_series) if n_series > 1 else [None]
        top = float(np.exp(rng.uniform(np.log(bc.top[0]), np.log(bc.top[1]))))
        series, params = [], []
        colors = distinct_colors(rng, len(labels), dark=dark)
        for label, color in zip(labels, colors, strict=True):
            values, p = _values(rng, distribution, n_categories, top)
            series.append(BarSeries(label, color, values))
            params.append(p)
        horizontal = bool(rng.random() < bc.horizontal_p)
        data = BarData(categories, series, mode, "horizontal" if horizontal else "vertical")
        style = BarStyle(
            width=round(uniform(rng, (0.55, 0.85)), 2),
            edgecolor=random_color(rng, dark=dark) if rng.random() < 0.3 else None,
            edgewidth=round(uniform(rng, (0.3, 1.2)), 2),
            grid=bool(rng.random() < cfg.style.grid_p),
        )
        return Sampled(params={"series": params}, data=data.to_dict(), style=style.to_dict())

    def error_bars(self, panel: PanelRecord) -> tuple[bool, bool]:
        return False, False  # bars carry no error bars; "none" is still a fair question

    def category_axis(self, panel: PanelSpec) -> Axis:
        return "y" if BarData.from_dict(panel.data).orientation == "horizontal" else "x"

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        st, bars = BarStyle.from_dict(panel.style), BarData.from_dict(panel.data)
        horizontal = bars.orientation == "horizontal"
        n_series, positions = len(bars.series), np.arange(len(bars.categories), dtype=float)
        grouped = bars.mode == "grouped"
        width = st.width / n_series if grouped else st.width
        offsets = (
            (np.arange(n_series) - (n_series - 1) / 2) * width if grouped else [0.0] * n_series
        )
        bottoms = bars.bottoms()
        edge = (
            {"edgecolor": st.edgecolor, "linewidth": st.edgewidth}
            if st.edgecolor
            else {"linewidth": 0}
        )
        for s, series in enumerate(bars.series):
            where = positions + offsets[s]
            kw: dict[str, Any] = {"color": series.color, "label": series.label, **edge}
            if horizontal:
                ax.barh(where, series.values, height=width, left=bottoms[s], **kw)
            else:
                ax.bar(where, series.values, width=width, bottom=bottoms[s], **kw)
        axis = ax.yaxis if horizontal else ax.xaxis
        axis.set_ticks(positions, labels=bars.categories)
        rotation = st.tick_rotation("y" if horizontal else "x")
        if rotation:
            ax.tick_params(axis=self.category_axis(panel), labelrotation=rotation)
        if horizontal:
            ax.invert_yaxis()  # the first category on top, where reading starts
        if n_series > 1:  # outside the axes: a legend must not hide a bar
            ax.legend(
                loc="upper left",
                bbox_to_anchor=(1.02, 1.0),
                borderaxespad=0.0,
                fontsize=style.sizes.legend,
            )
        ax.grid(st.grid, axis="x" if horizontal else "y")
        ax.set_axisbelow(True)  # grid lines must not cross the bars
        dpi = ax.figure.dpi

        def probe(renderer: RendererBase) -> list[Mark]:
            pad = st.edge_px(dpi)
            marks = []
            for s, series in enumerate(bars.series):
                low, high = positions + offsets[s] - width / 2, positions + offsets[s] + width / 2
                start = bottoms[s]
                end = start + np.asarray(series.values, dtype=float)
                if horizontal:
                    a, b = centres(ax, start, low), centres(ax, end, high)
                else:
                    a, b = centres(ax, low, start), centres(ax, high, end)
                for i, value in enumerate(series.values):
                    x0, x1 = sorted((a[i, 0], b[i, 0]))
                    y0, y1 = sorted((a[i, 1], b[i, 1]))
                    marks.append(
                        Mark(
                            "bar",
                            (x0 - pad, y0 - pad, x1 + pad, y1 + pad),
                            value=[float(positions[i] + offsets[s]), float(value)],
                            series=s,
                            item=i,
                            color=to_rgba(series.color),
                            edge=to_rgba(st.edgecolor) if st.edgecolor else None,
                        )
                    )
            return marks

        return Drawn(probes=[probe])

    def multichart_refusal(self, chart: str, inputs: list[Shape]) -> str | None:
        if same_vectors(inputs) or all(s.kind == "scalar" for s in inputs):
            return None
        return "shows vectors over the same labels, or numbers only"

    def multichart_panel(self, chart: Chart) -> ChartPanel:
        first, xlabel = chart.inputs[0], chart.index_title
        if first.shape == "vector":
            categories = [str(v) for v in first.labels]
            named = len(chart.inputs) > 1
            series = [
                BarSeries(i.label if named else None, chart.colour(n), list(i.values))
                for n, i in enumerate(chart.inputs)
            ]
        else:
            categories = [i.label for i in chart.inputs]
            # scalars only here (see multichart_refusal): each a number
            values = cast(list[float], [i.value for i in chart.inputs])
            series, xlabel = [BarSeries(None, chart.colour(0), values)], None
        grouped: Mode = "grouped" if len(series) > 1 else "single"
        mode: Mode = "stacked" if chart.chart == "stacked_bar" else grouped
        data = BarData(categories, series, mode, "vertical")
        style = BarStyle(width=0.8, edgecolor=None, edgewidth=0.5, grid=True)
        return ChartPanel(data.to_dict(), style.to_dict(), xlabel, chart.unit)

    def multichart_read(self, record: Record, chart: Chart) -> list[ReadValue]:
        series = record.panels[0].data_as(BarData).series
        if chart.inputs[0].shape == "vector":
            return [tuple(map(float, s.values)) for s in series]
        return [float(v) for v in series[0].values]

    def shows_input(self, element: Element, series: int, items: set[int]) -> bool:
        return element.kind == "bar" and element.series == series and element.item in items

    def panel_questions(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
        bars, index = panel.data_as(BarData), panel.index
        evidence = ctx.element_ids(index, "bar")
        along = "y" if bars.orientation == "horizontal" else "x"
        if level == 1:
            labels = ctx.element_ids(index, f"{along}tick_label")
            ctx.ask(N_CATEGORIES, panel, len(bars.categories), evidence=evidence, axis=along)
            ctx.ask(CATEGORIES, panel, bars.categories, evidence=labels, axis=along)
            ctx.ask(N_SERIES, panel, len(bars.series), evidence=evidence)
            if bars.mode != "single":
                ctx.ask(BAR_MODE, panel, bars.mode, choices=MULTI_MODES, evidence=evidence)
        elif level == 2:
            _value_questions(ctx, panel, bars)
        elif level == 3 and len(bars.series) > 1:
            best = clear_leader([float(np.sum(s.values)) for s in bars.series])
            if best is not None:
                names = [s.label or "" for s in bars.series]
                ctx.ask(LARGEST_SERIES, panel, names[best], choices=names, evidence=evidence)

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        bars = panel.data_as(BarData)
        names = quoted_names(bars.categories)
        if level == 1:
            out = [
                f"It shows {len(bars.categories)} categories ({names})"
                + (
                    f" as {bars.orientation} bars."
                    if bars.mode == "single"
                    else f" with {len(bars.series)} {bars.mode} series of {bars.orientation} bars."
                )
            ]
            if len(bars.series) > 1:
                out.append(
                    "A legend names the series "
                    + quoted_names([s.label or "" for s in bars.series])
                    + "."
                )
            return out
        if level == 2:
            out = []
            for s in bars.series:
                low, high = int(np.argmin(s.values)), int(np.argmax(s.values))
                who = f'Series "{s.label}"' if s.label else "The bars"
                out.append(
                    f'{who} run from {_num(s.values[low])} at "{bars.categories[low]}" '
                    f'to {_num(s.values[high])} at "{bars.categories[high]}".'
                )
            return out
        out = []
        best = clear_leader(bars.totals().tolist())
        if best is not None and bars.mode != "grouped":
            out.append(
                f'"{bars.categories[best]}" has the longest '
                f"{'stack' if bars.mode == 'stacked' else 'bar'}."
            )
        if len(bars.series) > 1:
            leader = clear_leader([float(np.sum(s.values)) for s in bars.series])
            if leader is not None:
                out.append(f'Series "{bars.series[leader].label}" has the largest total.')
        return out


def _value_questions(ctx: FigureContext, panel: PanelRecord, bars: BarData) -> None:
    index, n = panel.index, len(bars.categories)
    tops = bars.bottoms() + np.array([s.values for s in bars.series], dtype=float)
    span = float(np.ptp([0.0, *tops.ravel(), *bars.bottoms().ravel()]))
    legends = legend_boxes(ctx, panel)
    for s, series in enumerate(bars.series):
        item = (s + n // 2) % n  # a different category for each series
        whose = f' of the series "{series.label}"' if series.label else ""
        length = " (the length of its segment)" if bars.mode == "stacked" else ""
        evidence = _bar_ids(ctx, index, s, item)
        if any(mark_hidden(e, legends) for e in ctx.elements(index, "bar") if e.id in evidence):
            continue
        ctx.ask(
            BAR_VALUE,
            panel,
            round_sig(series.values[item]),
            evidence=evidence,
            span=span,
            whose=whose,
            category=bars.categories[item],
            length=length,
        )
    if bars.mode == "grouped":
        return
    best = clear_leader(bars.totals().tolist())
    if best is not None:
        ctx.ask(
            MAX_CATEGORY,
            panel,
            bars.categories[best],
            choices=list(bars.categories),
            evidence=ctx.element_ids(index, "bar"),
            what="stack" if bars.mode == "stacked" else "bar",
        )


def _bar_ids(ctx: FigureContext, panel: int, series: int, item: int) -> list[int]:
    return [int(e.id) for e in ctx.elements(panel, "bar") if e.series == series and e.item == item]


def _num(value: float) -> str:
    return f"{value:.3g}"


register(BarKind())
