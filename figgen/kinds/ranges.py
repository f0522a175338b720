"""Range plots: shaded bands around a centre line (mean +- sd, or quantiles of replicates), or
floating min-max bars over categories; one or several series.

``data`` holds ``mode`` (``band`` | ``bars``), ``x`` (band mode: the positions) or
``categories`` (bars mode: the tick labels), ``stat`` (what a range spans: ``sd`` = mean +- 1 sd,
``quantile`` = 10th-90th percentile around the median, ``minmax`` = smallest to largest) and
``series`` (``label``, ``color``, ``centre``, ``low``, ``high``: one value per position), and
``alpha`` (a band's opacity). The statistics are computed from replicates by
:func:`range_stats` when sampling; the record keeps what is drawn. Elements: band mode draws one
``band`` (``series``; its box encloses the shaded area) and one centre ``line`` per series; bars
mode one ``range_bar`` per series and category (``item`` = category index, ``value`` =
[position, low, high]). Opt-in: the default kind mix gives ``range`` weight 0.
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING, Annotated

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import to_rgba
from pydantic import Field

from figgen.config.sections.fields import IntRange, Probability, Range, Section, within
from figgen.kinds.api import Axis, Drawn, KindHooks, Mark, Sampled, register
from figgen.kinds.ranges_data import (
    RangeData,
    RangeSeries,
    RangeStyle,
    Stat,
    range_chart_table,
    range_stats,
    replicates,
)
from figgen.kinds.ranges_multichart import RangeCharts
from figgen.kinds.shared.categories import (
    category_words,
    clear_leader,
    distinct_colors,
    quoted_names,
)
from figgen.kinds.shared.marks import background, centres
from figgen.sample.rng import integer, sig, uniform
from figgen.sample.text import Vocabulary
from figgen.schema.elements import mark
from figgen.schema.panel import PanelRecord
from figgen.schema.spec import FigureStyle, PanelSpec
from figgen.vqa.api.answerable import legend_boxes, length_readable, mark_hidden
from figgen.vqa.api.families import Family, declare
from figgen.vqa.api.reading.readout import DrawnAxis, axis_reading, drawn_axis
from figgen.words.numerals import round_sig
from figgen.words.wording import count

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.elements import Element
    from figgen.schema.qa_item import Level
    from figgen.vqa.api.context import FigureContext

_PLOT = "the range plot in {loc}"
# fmt: off
N_RANGES = declare(
    "n_range_series", 1, "panel", "integer", "exact",
    f"how many series of {{what}} does {_PLOT} show?", is_count=True,
)
RANGE_BAR = declare(
    "range_bar_ends", 2, "panel", "number_pair", "ssmape",
    'in {loc}, what are the low and high ends of the range bar{whose} for "{category}"?',
)
RANGE_LENGTH = declare(
    "range_bar_length", 2, "panel", "number", "axis_2pct",
    'in {loc}, how long is the range bar{whose} for "{category}" (high end minus low end)?',
)
WIDEST_AT = declare(
    "band_widest_at", 2, "panel", "number", "ssmape",
    "in {loc}, at which x value is the shaded band{whose} widest?",
)
WIDEST_RANGE = declare(
    "widest_range", 3, "panel", "choice", "exact",
    "in {loc}, which {what} has the widest range {how}?",
)
RANGES_OVERLAP = declare(
    "ranges_overlap", 3, "panel", "choice", "exact",
    'in {loc}, do the {what} of "{first}" and "{second}" overlap anywhere?',
)
# fmt: on

YES_NO = ["yes", "no"]
SPANS = {
    "sd": "mean plus and minus one standard deviation",
    "quantile": "10th to 90th percentile",
    "minmax": "smallest to largest value",
}
OVERLAP_MARGIN = 0.03
"""Ranges overlap "clearly" (or clearly not) when the overlap (or the narrowest gap) is at least
this share of the axis span; between the two the question is not asked."""
WIDEST_LEAD = 1.25
"""A band is widest at a point when it is this many times as wide as anywhere else that is more
than :data:`WIDEST_AWAY` of the x span away."""
WIDEST_AWAY = 0.1


class RangeConfig(Section):
    """Range plots (opt-in: give ``range`` a weight in ``kinds``)."""

    series: Annotated[IntRange, within(1, 5)] = (1, 3)
    band_p: Probability = Field(0.6, description="share of shaded bands (else min-max bars)")
    points: Annotated[IntRange, within(5, 200)] = Field((15, 60), description="band positions")
    categories: Annotated[IntRange, within(2, 12)] = (3, 8)
    level: Annotated[Range, within(1e-3, 1e9)] = Field(
        (1.0, 1000.0), description="the typical centre value, log-uniform"
    )


class RangeKind(RangeCharts, KindHooks):
    name = "range"
    config = RangeConfig
    noun = "range plot"
    default_weight = 0.0
    chart_table = staticmethod(range_chart_table)
    density_rule = """\
- Range plot (floating bars from a low to a high value): for each bar a row with Series Name
  "NAME low" and a row with "NAME high" (NAME the legend name; without a legend just "low"
  and "high"), X Value the bar's category, Y Value the bar's lower or upper end."""
    elements = (
        mark("band", "#556b2f", off_ink=True),  # a wavy band's box centre may lie off it
        mark("line", "#7f7f7f", off_ink=True),  # the centre lines, as the line kind's
        mark("range_bar", "#cd5c5c"),
    )
    families: tuple[Family, ...] = (
        N_RANGES,
        RANGE_BAR,
        RANGE_LENGTH,
        WIDEST_AT,
        WIDEST_RANGE,
        RANGES_OVERLAP,
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
        rc = cfg.section(self.name, RangeConfig)
        band = bool(rng.random() < rc.band_p)
        n_series = integer(rng, rc.series)
        stats: tuple[Stat, Stat] = ("sd", "quantile") if band else ("minmax", "quantile")
        stat = stats[int(rng.integers(2))]
        if band:
            n = integer(rng, rc.points)
            start, step = sig(uniform(rng, (0.0, 100.0)), 2), sig(uniform(rng, (0.1, 5.0)), 1)
            x, categories = sig(start + step * np.arange(n), 4), []
        else:
            categories = category_words(rng, vocab, integer(rng, rc.categories))
            n, x = len(categories), []
        level = float(np.exp(uniform(rng, (np.log(rc.level[0]), np.log(rc.level[1])))))
        labels = category_words(rng, vocab, n_series) if n_series > 1 else [None]
        colors = distinct_colors(rng, n_series, dark=dark)
        series = []
        gap = uniform(rng, (0.0, 1.2))  # from overlapping bands to ones far apart
        for k, (label, color) in enumerate(zip(labels, colors, strict=True)):
            where = level * (1 + gap * (k - (n_series - 1) / 2) + uniform(rng, (-0.1, 0.1)))
            centre, low, high = range_stats(replicates(rng, n, where, level * 0.2), stat)
            series.append(RangeSeries(label, color, sig(centre, 3), sig(low, 3), sig(high, 3)))
        data = RangeData(
            "band" if band else "bars",
            stat,
            x,
            categories,
            series,
            round(uniform(rng, (0.2, 0.45)), 2),
        )
        style = RangeStyle(
            linewidth=round(uniform(rng, (1.0, 2.2)), 2),
            width=round(uniform(rng, (0.4, 0.75)), 2),
            grid=bool(rng.random() < cfg.style.grid_p),
        )
        return Sampled(params={"level": level}, data=data.to_dict(), style=style.to_dict())

    def category_axis(self, panel: PanelSpec) -> Axis | None:
        return "x" if RangeData.from_dict(panel.data).mode == "bars" else None

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        st, ranges = RangeStyle.from_dict(panel.style), RangeData.from_dict(panel.data)
        positions, n_series = ranges.positions(), len(ranges.series)
        width = st.width / n_series
        offsets = (np.arange(n_series) - (n_series - 1) / 2) * width
        for s, series in enumerate(ranges.series):
            if ranges.mode == "band":
                ax.fill_between(
                    positions,
                    series.low,
                    series.high,
                    color=series.color,
                    alpha=ranges.alpha,
                    linewidth=0,
                    label=series.label,
                )
                ax.plot(positions, series.centre, color=series.color, linewidth=st.linewidth)
            else:
                floating = ax.bar(
                    positions + offsets[s],
                    series.widths(),
                    width=width,
                    bottom=series.low,
                    color=series.color,
                    linewidth=0,
                    label=series.label,
                )
                for patch in floating:  # floating bars: the axis pads below the lowest one
                    patch.sticky_edges.y.clear()
        if ranges.mode == "bars":
            ax.xaxis.set_ticks(positions, labels=ranges.categories)
            rotation = st.x_tick_rotation
            if rotation:
                ax.tick_params(axis="x", labelrotation=rotation)
        if n_series > 1:  # outside the axes: a legend must not hide a range
            ax.legend(
                loc="upper left",
                bbox_to_anchor=(1.02, 1.0),
                borderaxespad=0.0,
                fontsize=style.sizes.legend,
            )
        ax.grid(st.grid, axis="y")
        ax.set_axisbelow(True)

        def probe(renderer: RendererBase) -> list[Mark]:
            behind = np.asarray(background(ax))
            marks: list[Mark] = []
            for s, series in enumerate(ranges.series):
                rgba = np.asarray(to_rgba(series.color))
                if ranges.mode == "band":
                    low = centres(ax, positions, np.asarray(series.low))
                    high = centres(ax, positions, np.asarray(series.high))
                    corners = np.vstack([low, high])
                    (x0, y0), (x1, y1) = corners.min(axis=0), corners.max(axis=0)
                    shown = (
                        ranges.alpha * rgba + (1 - ranges.alpha) * behind
                    )  # the fill over the background
                    marks.append(Mark("band", (x0, y0, x1, y1), series=s, color=_rgba(shown)))
                    line = centres(ax, positions, np.asarray(series.centre))
                    pad = st.linewidth * ax.figure.dpi / 72 / 2
                    (a0, b0), (a1, b1) = line.min(axis=0), line.max(axis=0)
                    marks.append(
                        Mark(
                            "line",
                            (a0 - pad, b0 - pad, a1 + pad, b1 + pad),
                            series=s,
                            color=_rgba(rgba),
                        )
                    )
                    continue
                left = positions + offsets[s] - width / 2
                lo = centres(ax, left, np.asarray(series.low))
                hi = centres(ax, left + width, np.asarray(series.high))
                for i in range(len(positions)):
                    (x0, x1), (y0, y1) = sorted((lo[i, 0], hi[i, 0])), sorted((lo[i, 1], hi[i, 1]))
                    value = [float(positions[i] + offsets[s]), series.low[i], series.high[i]]
                    marks.append(
                        Mark(
                            "range_bar",
                            (x0, y0, x1, y1),
                            value=value,
                            series=s,
                            item=i,
                            color=_rgba(rgba),
                        )
                    )
            return marks

        return Drawn(probes=[probe])

    def panel_questions(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
        ranges, index = panel.data_as(RangeData), panel.index
        kind = "band" if ranges.mode == "band" else "range_bar"
        marks = ctx.elements(index, kind)
        legends = legend_boxes(ctx, panel)
        if any(mark_hidden(e, legends) for e in marks):
            return  # a range partly under the legend: its ends and width cannot be read
        evidence = [e.id for e in marks]
        what = "shaded bands" if ranges.mode == "band" else "range bars"
        if level == 1:
            ctx.ask(N_RANGES, panel, len(ranges.series), evidence=evidence, what=what)
        elif level == 2:
            if ranges.mode == "bars":
                _bar_questions(ctx, panel, ranges, marks)
            else:
                _widest_at(ctx, panel, ranges)
        elif level == 3:
            for family, answer, choices, words, _ in _finding_sentences(ranges):
                ctx.ask(
                    family,
                    panel,
                    answer,
                    choices=choices,
                    evidence=evidence,
                    what=words["what"],
                    how=words.get("how", ""),
                    first=words.get("first", ""),
                    second=words.get("second", ""),
                )

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        ranges = panel.data_as(RangeData)
        read = axis_reading(ctx, panel, "y", [v for s in ranges.series for v in (*s.low, *s.high)])
        if level == 1:
            shape = (
                count(len(ranges.series), "shaded band") + " around a centre line"
                if ranges.mode == "band"
                else f"{count(len(ranges.series), 'series')} of range bars over "
                f"{count(len(ranges.categories), 'category')} ({quoted_names(ranges.categories)})"
            )
            return [f"It shows {shape}; each range spans the {SPANS[ranges.stat]}."]
        if level == 2:
            out = []
            for s in ranges.series:
                who = f'The range of "{s.label}"' if s.label else "The range"
                out.append(f"{who} runs {read.span(min(s.low), max(s.high))}.")
            return out
        return [sentence for *_, sentence in _finding_sentences(ranges)]


def _rgba(color: np.ndarray) -> tuple[float, float, float, float]:
    r, g, b, _ = (float(v) for v in color)
    return (r, g, b, 1.0)


def _span(ranges: RangeData) -> float:
    return float(np.ptp([v for s in ranges.series for v in (*s.low, *s.high)]))


def _whose(ranges: RangeData, s: int) -> str:
    label = ranges.series[s].label
    return f' of the series "{label}"' if label else ""


def _bar_questions(
    ctx: FigureContext, panel: PanelRecord, ranges: RangeData, marks: list[Element]
) -> None:
    """The ends and the length of one bar per series (a different category for each); the
    length where it reads by eye (rule: readable lengths)."""
    n, span, axis = len(ranges.categories), _span(ranges), _value_axis(ctx, panel, marks)
    for s, series in enumerate(ranges.series):
        item = (s + n // 2) % n
        ids = [e.id for e in marks if e.series == s and e.item == item]
        whose, category = _whose(ranges, s), ranges.categories[item]
        ends = [round_sig(series.low[item]), round_sig(series.high[item])]
        ctx.ask(RANGE_BAR, panel, ends, evidence=ids, span=span, whose=whose, category=category)
        length = series.high[item] - series.low[item]
        if axis is not None and length_readable(axis, length, span):
            ctx.ask(
                RANGE_LENGTH,
                panel,
                round_sig(length),
                evidence=ids,
                axis_span=span,
                whose=whose,
                category=category,
            )


def _value_axis(ctx: FigureContext, panel: PanelRecord, marks: list[Element]) -> DrawnAxis | None:
    """The y axis as drawn, placed by the range bars' ends (the low end at the bottom)."""
    values, pixels = [], []
    for e in marks:
        if e.value is not None:
            values += [float(e.value[1]), float(e.value[2])]
            pixels += [e.bbox[3], e.bbox[1]]
    return drawn_axis(ctx, panel, "y", values, pixels)


def _widest_at(ctx: FigureContext, panel: PanelRecord, ranges: RangeData) -> None:
    """Where each band is widest, when it is clearly widest there (:data:`WIDEST_LEAD`)."""
    x = ranges.positions()
    x_span = float(np.ptp(x))
    for s, series in enumerate(ranges.series):
        widths = series.widths()
        top = int(np.argmax(widths))
        away = np.abs(x - x[top]) > WIDEST_AWAY * x_span
        if away.any() and widths[top] < WIDEST_LEAD * widths[away].max():
            continue
        ids = ctx.element_ids(panel.index, "band", series=s)
        ctx.ask(
            WIDEST_AT,
            panel,
            round_sig(float(x[top])),
            evidence=ids,
            span=x_span,
            whose=_whose(ranges, s),
        )


def overlap(a: RangeSeries, b: RangeSeries) -> float:
    """The largest overlap of two series' ranges at one position (negative: the narrowest gap)."""
    top = np.minimum(np.asarray(a.high, dtype=float), b.high)
    bottom = np.maximum(np.asarray(a.low, dtype=float), b.low)
    return float((top - bottom).max())


def _finding_sentences(
    ranges: RangeData,
) -> list[tuple[Family, str, list[str], dict[str, str], str]]:
    """Level 3 verdicts with the sentence a description states: the widest range (the series
    with the widest mean width, or the category with the longest bar of a single series) and
    whether two series' ranges overlap."""
    span = _span(ranges)
    out: list[tuple[Family, str, list[str], dict[str, str], str]] = []
    what = "shaded bands" if ranges.mode == "band" else "range bars"
    if len(ranges.series) > 1:
        leader = clear_leader([float(s.widths().mean()) for s in ranges.series])
        if leader is not None:
            name = ranges.names()[leader]
            words = {"what": "series", "how": "on average"}
            out.append(
                (
                    WIDEST_RANGE,
                    name,
                    ranges.names(),
                    words,
                    f'The series "{name}" has the widest ranges on average.',
                )
            )
        for a, b in itertools.pairwise(range(len(ranges.series))):
            amount = overlap(ranges.series[a], ranges.series[b])
            if abs(amount) < OVERLAP_MARGIN * span:
                continue
            first, second = ranges.names()[a], ranges.names()[b]
            answer = "yes" if amount > 0 else "no"
            verb = "overlap" if amount > 0 else "never overlap"
            words = {"what": what, "first": first, "second": second}
            out.append(
                (
                    RANGES_OVERLAP,
                    answer,
                    YES_NO,
                    words,
                    f'The {what} of "{first}" and "{second}" {verb}.',
                )
            )
    elif ranges.mode == "bars":
        leader = clear_leader(ranges.series[0].widths().tolist())
        if leader is not None:
            name = ranges.categories[leader]
            words = {"what": "category", "how": "(the longest bar)"}
            out.append(
                (
                    WIDEST_RANGE,
                    name,
                    list(ranges.categories),
                    words,
                    f'"{name}" has the widest range.',
                )
            )
    return out


register(RangeKind())
