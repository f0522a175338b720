"""Line plots: 2-3 series of 10-11 points, optional markers and x/y error bars.

``data.series[i]`` holds ``x, y, xerr, yerr, color, label`` (typed data and style in
:mod:`figgen.kinds.line_data`); ``params.series[i]`` the generating parameters of that series
(see ``figgen.sample.distributions.relation``).
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, cast

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import to_rgba
from matplotlib.typing import LegendLocType

from figgen._util.colour_distance import spread_colours
from figgen.config.sections.fields import IntRange, Probability, Range, Section, within
from figgen.kinds.api import (
    LEGEND_LOCATIONS,
    Drawn,
    KindHooks,
    Mark,
    Sampled,
    random_color,
    register,
)
from figgen.kinds.line_data import LineData, LineSeries, LineStyle, line_table
from figgen.kinds.shared.marks import ERRORBAR, centres, errorbar_marks, marker_ink, point_marks
from figgen.sample import distributions as dist
from figgen.sample.rng import integer, sig, uniform
from figgen.sample.text import Vocabulary
from figgen.schema.elements import Element, mark
from figgen.schema.longchart import Chart, ChartPanel, ReadValue, Shape
from figgen.schema.panel import PanelRecord
from figgen.schema.params import LineParams
from figgen.schema.spec import FigureStyle, PanelSpec
from figgen.vqa.api import answerable
from figgen.vqa.api.context import away_from_zero
from figgen.vqa.api.families import ERROR_BARS, POINT_SET_FAMILIES, declare
from figgen.vqa.api.point_questions import range_question, shape_questions, stats_questions
from figgen.vqa.api.reading.hedges import NO_TREND, stacking_order, trend_clause
from figgen.vqa.api.reading.line_names import colour_words, described_names
from figgen.vqa.api.reading.measures import display
from figgen.vqa.api.reading.readout import axis_reading
from figgen.vqa.api.reading.trends import PointSet
from figgen.words.colour_names import COLOR_NAMES
from figgen.words.numerals import number_text, round_sig
from figgen.words.spoken import quoted
from figgen.words.wording import cap, count, has, join

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.elements import Element
    from figgen.schema.qa_item import Level
    from figgen.schema.record import Record
    from figgen.vqa.api.context import FigureContext

MARKERS = ("o", "s", "^", "v", "D", "*", "p", "h", "<", ">", "x", "+", "d")
LINESTYLES = ("-", "-", "-", "--", "-.", ":")


# fmt: off
N_LINES = declare(
    "n_lines", 1, "panel", "integer", "exact",
    "how many lines (data series) are drawn in {loc}?", is_count=True,
)
LINE_COLORS = declare(
    "line_colors", 1, "panel", "choice_list", "exact_set",
    "what colours are the lines in {loc}? Name each line's colour once.",
)
VALUE_AT_X = declare(
    "value_at_x", 2, "panel", "number", "ssmape",
    "in {loc}, what is the y value of {name} at x = {quoted}?", names_series=True,
)
# fmt: on


class LineConfig(Section):
    series: Annotated[IntRange, within(1, 10)] = (2, 3)
    points: Annotated[IntRange, within(2, 1000)] = (10, 11)
    marker_p: Probability = 0.5
    xerr_p: Probability = 0.25
    yerr_p: Probability = 0.25
    linewidth: Annotated[Range, within(0.1, 10)] = (0.8, 3.0)


class LineKind(KindHooks):
    name = "line"
    config = LineConfig
    families = (ERROR_BARS, N_LINES, LINE_COLORS, VALUE_AT_X, *POINT_SET_FAMILIES)
    noun = "line plot"
    elements = (mark("line", "#7f7f7f", off_ink=True), mark("marker", "#8b008b"), ERRORBAR)
    chart_table = staticmethod(line_table)
    multichart_charts = ("line",)

    def sample(
        self,
        rng: np.random.Generator,
        cfg: SharedConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        lc = cfg.section(self.name, LineConfig)
        xlog = bool(rng.random() < cfg.style.log_x_p)
        ylog = bool(rng.random() < cfg.style.log_y_p)
        n_series, n_points = integer(rng, lc.series), integer(rng, lc.points)
        marker = str(rng.choice(MARKERS)) if rng.random() < lc.marker_p else None
        has_xerr, has_yerr = rng.random() < lc.xerr_p, rng.random() < lc.yerr_p
        x = dist.x_grid(rng, cfg.distributions, n_points, log=xlog)
        series, params = [], []
        for _ in range(n_series):
            y, p = dist.relation(rng, cfg.distributions, distribution, x, xlog=xlog)
            if ylog:
                y = dist.to_log_axis(rng, y)
                p["log_y_mapped"] = True
            xerr = _errors(rng, x, log=xlog) if has_xerr else None
            yerr = _errors(rng, y, log=ylog) if has_yerr else None
            series.append(
                LineSeries(
                    x=sig(x),
                    y=sig(y),
                    xerr=sig(xerr) if xerr is not None else None,
                    yerr=sig(yerr) if yerr is not None else None,
                    color=random_color(rng, dark=dark),
                    label=vocab.words[int(rng.integers(len(vocab.words)))],
                    linestyle=str(rng.choice(LINESTYLES)),
                )
            )
            params.append(p)
        for line, colour in zip(
            series, spread_colours([s.color or "" for s in series]), strict=True
        ):
            line.color = colour  # no two lines of a panel look alike
        style = LineStyle(
            marker=marker,
            markersize=round(uniform(rng, (3.0, 8.0)), 1),
            linewidth=round(uniform(rng, lc.linewidth), 2),
            capsize=round(uniform(rng, (0.0, 4.0)), 1),
            legend=bool(rng.random() < cfg.style.legend_p),
            legend_loc=cast(LegendLocType, str(rng.choice(LEGEND_LOCATIONS))),
            grid=bool(rng.random() < cfg.style.grid_p),
        )
        return Sampled(
            params={"series": params},
            data=LineData(series).to_dict(),
            style=style.to_dict(),
            xscale="log" if xlog else "linear",
            yscale="log" if ylog else "linear",
        )

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        st, lines = LineStyle.from_dict(panel.style), LineData.from_dict(panel.data).series
        dpi = ax.figure.dpi
        drawn = [
            ax.errorbar(
                s.x,
                s.y,
                xerr=s.xerr,
                yerr=s.yerr,
                color=s.color,
                marker=st.marker or "",
                markersize=st.markersize,
                linewidth=st.linewidth,
                linestyle=s.linestyle,
                capsize=st.capsize,
                elinewidth=max(0.6, st.linewidth * 0.6),
                label=s.label,
            )
            for s in lines
        ]
        legend = (
            ax.legend(
                loc=st.legend_loc,
                fontsize=style.sizes.legend,
                handlelength=answerable.handle_length(
                    [s.linestyle for s in lines],
                    st.linewidth,
                    style.mpl_style,
                    style.sizes.legend,
                ),
            )
            if st.legend
            else None
        )
        ax.grid(st.grid)

        def probe(renderer: RendererBase) -> list[Mark]:
            lw_half = max(st.linewidth * dpi / 72 / 2, 1.0)
            mark_half = st.markersize * dpi / 72 / 2
            cap_half = max(st.capsize * dpi / 72, lw_half)
            marks: list[Mark] = []
            for i, (s, container) in enumerate(zip(lines, drawn, strict=True)):
                x, y = np.asarray(s.x), np.asarray(s.y)
                xy = centres(ax, x, y)
                lo, hi = xy.min(axis=0), xy.max(axis=0)
                data_line = container.lines[0]
                assert data_line is not None
                colour = to_rgba(data_line.get_color())
                marks.append(
                    Mark(
                        "line",
                        (lo[0] - lw_half, lo[1] - lw_half, hi[0] + lw_half, hi[1] + lw_half),
                        series=i,
                        color=colour,
                    )
                )
                if st.marker:  # without a symbol a point may fall in a dash gap: no mark
                    marks += point_marks(
                        "marker",
                        xy,
                        mark_half,
                        np.column_stack([x, y]),
                        series=i,
                        color=to_rgba(marker_ink(data_line)),
                    )
                bars = errorbar_marks(ax, x, y, s.yerr, axis="y", half_px=cap_half, series=i)
                bars += errorbar_marks(ax, x, y, s.xerr, axis="x", half_px=cap_half, series=i)
                for bar in bars:
                    bar.color = colour
                marks += bars
            return marks

        movable = (legend, st.legend_loc) if legend is not None else None
        return Drawn(probes=[probe], movable_legend=movable)

    def panel_questions(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
        if level == 1:
            _level1(ctx, panel)
        elif level == 2:
            _level2(ctx, panel)
        else:
            names = [
                f"the data points of {n}" if n else None for n in answerable.line_names(ctx, panel)
            ]
            hidden = answerable.hidden_vertices(ctx, panel)
            for s, (points, name) in enumerate(zip(self.point_sets(panel), names, strict=True)):
                if name is not None and not hidden[s]:
                    evidence = ctx.element_ids(panel.index, "line", "marker", series=s)
                    shape_questions(ctx, panel, points, name, evidence)

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        series, st = panel.data_as(LineData).series, panel.style_as(LineStyle)
        if level == 1:
            # the colour words of the names ("red", "dashed red"), where lines go by colour
            looks = [n.removeprefix("the ").removesuffix(" line") for n in described_names(panel)]
            by_colour = len(series) > 1 and all(look.split()[-1] in COLOR_NAMES for look in looks)
            out = [
                f"It shows {count(len(series), 'line')}"
                + (f" ({join(looks)})" if by_colour else "")
                + (" with markers." if st.marker else ".")
            ]
            labels = [s.label for s in series]
            if st.legend and all(labels):
                out.append("A legend names them " + join([quoted(str(x)) for x in labels]) + ".")
            return out
        names = [cap(name) for name in described_names(panel)]
        all_x = [float(v) for s in series for v in s.x]
        read_x = axis_reading(ctx, panel, "x", all_x)
        if level == 2:
            read_y = axis_reading(ctx, panel, "y", [float(v) for s in series for v in s.y])
            spans = {(min(s.x), max(s.x)) for s in series}
            out = []
            if len(spans) == 1 and len(series) > 1:
                out.append(f"All lines run over x {read_x.span(min(all_x), max(all_x))}.")
            for s, who in zip(series, names, strict=True):
                ys = [float(v) for v in s.y]
                over = (
                    ""
                    if len(spans) == 1 and len(series) > 1
                    else f" x {read_x.span(min(s.x), max(s.x))} and"
                )
                out.append(
                    f"{who} spans{over} y {read_y.span(min(ys), max(ys))} "
                    f"(mean {read_y.say(statistics.fmean(ys))})."
                )
            return out
        return _trend_sentences(panel, self.point_sets(panel), names, read_x.say)

    def error_bars(self, panel: PanelRecord) -> tuple[bool, bool]:
        series = panel.data_as(LineData).series
        return any(has(s.xerr) for s in series), any(has(s.yerr) for s in series)

    def multichart_refusal(self, chart: str, inputs: list[Shape]) -> str | None:
        if all(s.numeric_labels for s in inputs):
            return None
        return "shows vectors over integer labels only"

    def multichart_panel(self, chart: Chart) -> ChartPanel:
        series = [
            LineSeries(
                x=cast(list[float], list(i.labels)),  # numeric labels (multichart_refusal)
                y=list(i.values),
                color=chart.colour(n),
                label=i.label,
            )
            for n, i in enumerate(chart.inputs)
        ]
        style = LineStyle(
            marker="o",
            markersize=5.0,
            linewidth=1.8,
            capsize=0.0,
            legend=len(series) > 1,
            legend_loc="best",
            grid=True,
            x_nbins=len(chart.inputs[0].labels),
        )
        return ChartPanel(
            LineData(series).to_dict(), style.to_dict(), chart.index_title, chart.unit
        )

    def multichart_read(self, record: Record, chart: Chart) -> list[ReadValue]:
        return [tuple(map(float, s.y)) for s in record.panels[0].data_as(LineData).series]

    def shows_input(self, element: Element, series: int, items: set[int]) -> bool:
        return element.kind == "marker" and element.series == series and element.item in items

    def point_sets(self, panel: PanelRecord) -> list[PointSet]:
        params = panel.params_as(LineParams)
        relations = params.series if params is not None else []
        return [
            PointSet(list(s.x), list(s.y), relations[i] if i < len(relations) else None)
            for i, s in enumerate(panel.data_as(LineData).series)
        ]


def _trend_sentences(
    panel: PanelRecord,
    point_sets: list[PointSet],
    names: list[str],
    say_x: Callable[[float], str],
) -> list[str]:
    """Level 3: each line's trend; the lines without one in one sentence; their order."""
    out, flat = [], []
    heights = display([y for p in point_sets for y in p.y], panel.yscale)
    span = float(np.ptp(heights[np.isfinite(heights)])) if np.isfinite(heights).any() else None
    for points, who in zip(point_sets, names, strict=True):
        clause = trend_clause(panel, points, plural=False, say_x=say_x, panel_span=span)
        if NO_TREND in clause:
            flat.append(who)
        else:
            out.append(f"{who} {clause}.")
    lower = [name[:1].lower() + name[1:] for name in names]
    if len(flat) == 1:
        out.append(f"{flat[0]} does not rise or fall overall ({NO_TREND}).")
    elif len(flat) == len(names):
        who = "Neither line" if len(flat) == 2 else f"None of the {count(len(flat), 'line')}"
        out.append(f"{who} rises or falls overall ({NO_TREND}).")
    elif flat:
        who = join([flat[0]] + [lower[names.index(name)] for name in flat[1:]])
        out.append(f"{who} do not rise or fall overall ({NO_TREND}).")
    lines: list[Any] = panel.data_as(
        LineData
    ).series  # figgen.vqa.api.reading.hedges reads them by key
    order = stacking_order(lines, panel.yscale)
    if order is not None:
        by_position = all(name.endswith(" edge") for name in names)
        out.append(
            "The lines never cross."
            if by_position
            else f"The lines never cross: from top to bottom, {join([lower[i] for i in order])}."
        )
    return out


def _errors(rng: np.random.Generator, values: np.ndarray, *, log: bool) -> np.ndarray:
    """Positive error sizes; on a log axis kept below the value so bars stay drawable."""
    if log:
        sizes: np.ndarray = np.abs(values) * rng.uniform(0.05, 0.5, values.shape)
        return sizes
    scale = float(np.ptp(values)) or max(abs(float(np.mean(values))), 1.0)
    return scale * rng.uniform(0.02, 0.12, values.shape)


def _level1(ctx: FigureContext, panel: PanelRecord) -> None:
    index, series = panel.index, panel.data_as(LineData).series
    lines = ctx.element_ids(index, "line")
    ctx.ask(N_LINES, panel, len(series), evidence=lines)
    names = colour_words(panel)
    if all(names) and len(set(names)) == len(names):
        ordered = [name for name in COLOR_NAMES if name in names]
        ctx.ask(LINE_COLORS, panel, ordered, choices=list(COLOR_NAMES), evidence=lines)


def _level2(ctx: FigureContext, panel: PanelRecord) -> None:
    index, lines = panel.index, panel.data_as(LineData).series
    all_y = [float(v) for series in lines for v in series.y]
    span = max(all_y) - min(all_y) if all_y else 0.0
    hidden = answerable.hidden_vertices(ctx, panel)
    for s, (series, name) in enumerate(zip(lines, answerable.line_names(ctx, panel), strict=True)):
        if name is None or hidden[s]:
            continue
        evidence = ctx.element_ids(index, "line", "marker", series=s)
        xs, ys = [float(v) for v in series.x], [float(v) for v in series.y]
        if not ys:
            continue
        stats_questions(ctx, panel, f"the points of {name}", ys, evidence, span=span)
        asked = _asked_vertex(ctx, panel, s, xs, ys, span)
        if asked is None:
            continue
        ctx.ask(
            VALUE_AT_X,
            panel,
            round_sig(ys[asked]),
            # the series' line and the marker drawn at the asked x
            evidence=ctx.element_ids(index, "line", series=s)
            + [
                int(e.id)
                for e in ctx.elements(index, "marker")
                if e.series == s and e.item == asked
            ],
            span=span,
            scale=panel.yscale,
            name=name,
            quoted=number_text(xs[asked]),
        )
    all_x = [float(v) for series in lines for v in series.x]
    seen = [
        float(x) for s, line in enumerate(lines) for i, x in enumerate(line.x) if i not in hidden[s]
    ]
    if min(all_x) in seen and max(all_x) in seen:  # some line shows a vertex at each end
        range_question(
            ctx, panel, "the lines", min(all_x), max(all_x), ctx.element_ids(index, "line")
        )


def _asked_vertex(
    ctx: FigureContext,
    panel: PanelRecord,
    series: int,
    xs: list[float],
    ys: list[float],
    span: float,
) -> int | None:
    """The vertex ``value_at_x`` asks about: the one nearest the middle of the line that stands
    apart from the others in pixels, whose quoted x names it alone and whose value sSMAPE can
    score; None when no vertex qualifies."""
    quoted = [number_text(x) for x in xs]
    scale = panel.yscale
    candidates = [
        i
        for i in answerable.separated_vertices(ctx, panel, series)
        if quoted.count(quoted[i]) == 1 and away_from_zero(ys[i], span, scale)
    ]
    middle = len(xs) // 2
    return min(candidates, key=lambda i: (abs(i - middle), i), default=None)


register(LineKind())
