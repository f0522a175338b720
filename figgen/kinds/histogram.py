"""Histograms: 10-10000 samples in 1-100 bins, vertical or horizontal, optional count errors.

``data`` holds ``samples, bin_edges, counts, orientation`` (and ``errors`` when drawn); the bars
are drawn from the stored edges and counts, so what is drawn is exactly what is stored.
"""

from __future__ import annotations

import statistics
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Literal

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.collections import PolyCollection
from matplotlib.colors import to_rgba

from figgen.config.sections.fields import IntRange, Probability, Section, within
from figgen.kinds.api import Drawn, KindHooks, Mark, Sampled, random_color, register
from figgen.kinds.shared.marks import BAR, ERRORBAR, centres, errorbar_marks
from figgen.sample import distributions as dist
from figgen.sample.rng import integer, sig, uniform
from figgen.sample.text import Vocabulary
from figgen.schema.elements import Element
from figgen.schema.longchart import Chart, ChartPanel, ReadValue, Shape
from figgen.schema.panel import PanelData, PanelRecord, PanelStyle, panel_data, panel_style
from figgen.schema.spec import FigureStyle, PanelSpec, Scale
from figgen.vqa.api import answerable
from figgen.vqa.api.families import ERROR_BARS, RANGE, Balance, declare
from figgen.vqa.api.findings import Finding, ask_findings
from figgen.vqa.api.point_questions import range_question
from figgen.vqa.api.reading import features, hedges, trends
from figgen.vqa.api.reading.readout import axis_reading
from figgen.words.numerals import round_sig
from figgen.words.wording import count, has, join

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.elements import Element
    from figgen.schema.qa_item import Level
    from figgen.schema.record import Record
    from figgen.vqa.api.context import FigureContext


_SHAPE = "the distribution shown by the histogram in {loc}"
# fmt: off
N_BARS = declare(
    "n_bars", 1, "panel", "integer", "exact",
    "how many bars does the histogram in {loc} have?", is_count=True,
)
HIST_MEAN = declare(
    "hist_mean", 2, "panel", "number", "ssmape",
    "what is the mean of the data whose distribution the histogram in {loc} shows (the mean "
    "of the underlying values, not of the bar heights)?",
)
MAX_COUNT = declare(
    "max_count", 2, "panel", "number", "ssmape",
    "in {loc}, how long is the longest bar of the histogram, read on the {count_axis} axis?",
)
BIN_RANGE = declare("bin_range", 2, "panel", "number_pair", "relaxed_5pct", RANGE)
SYMMETRY = declare(
    "symmetry", 3, "panel", "choice", "exact",
    f"is {_SHAPE} symmetric, left-skewed (long tail toward smaller values) or right-skewed "
    "(long tail toward larger values)?", balance=Balance(0.43, {"symmetric": 0.5}),
)
N_MODES = declare(
    "n_modes", 3, "panel", "integer", "exact",
    f"how many separate peaks (modes) does {_SHAPE} have?", is_count=True,
    balance=Balance(0.6, {"2": 0.6}),
)
# fmt: on

SYMMETRY_CHOICES = ["symmetric", "left-skewed", "right-skewed"]
FEW_SAMPLES = 50
"""Below this many values a description only says which way the bars lean."""
MAX_NAMED_PEAKS = 4
"""More drawn peaks than this are counted, not placed, in a description."""
MIN_VISIBLE_BAR = 0.01
"""A histogram's bars are countable when every bin holds at least this share of the tallest."""


@panel_data("histogram")
@dataclass
class HistogramData(PanelData):
    """A histogram panel's ``data``: the samples, the drawn bins and their optional errors."""

    samples: list[float]
    bin_edges: list[float]
    counts: list[int]
    orientation: Literal["vertical", "horizontal"] = "vertical"
    errors: list[float] | None = None


@panel_style("histogram")
@dataclass
class HistogramStyle(PanelStyle):
    """A histogram's look: bar fill, an optional outline of its own colour, grid."""

    color: str = "#1f77b4"
    edgecolor: str | None = None
    edgewidth: float = 0.0
    grid: bool = False

    def edge_px(self, dpi: float) -> float:
        """Half the outline's width in pixels (0 without an outline): how far it reaches."""
        return (self.edgewidth if self.edgecolor else 0.0) * dpi / 72 / 2


class HistogramConfig(Section):
    samples: Annotated[IntRange, within(2, 100_000)] = (10, 10000)
    bins: Annotated[IntRange, within(1, 200)] = (1, 100)
    horizontal_p: Probability = 0.25
    yerr_p: Probability = 0.25


class HistogramKind(KindHooks):
    name = "histogram"
    families = (ERROR_BARS, N_BARS, HIST_MEAN, MAX_COUNT, BIN_RANGE, SYMMETRY, N_MODES)
    config = HistogramConfig
    noun = "histogram"
    elements = (BAR, ERRORBAR)

    def sample(
        self,
        rng: np.random.Generator,
        cfg: SharedConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        hc = cfg.section(self.name, HistogramConfig)
        n = int(round(np.exp(rng.uniform(np.log(hc.samples[0]), np.log(hc.samples[1])))))
        bins = integer(rng, hc.bins)
        samples, params = dist.samples_1d(rng, cfg.distributions, distribution, n, log=False)
        samples = np.asarray(sig(samples))
        counts, edges = np.histogram(samples, bins=bins)
        edges = np.asarray(sig(edges, 8))
        # Re-count on the rounded edges so counts match the stored edges exactly.
        counts, _ = np.histogram(samples, bins=edges)
        horizontal = bool(rng.random() < hc.horizontal_p)
        count_log = bool(rng.random() < cfg.style.log_y_p) and bool(counts.min() > 0)
        errors = bool(rng.random() < hc.yerr_p)
        data = HistogramData(
            samples=samples.tolist(),
            bin_edges=edges.tolist(),
            counts=counts.astype(int).tolist(),
            orientation="horizontal" if horizontal else "vertical",
            errors=sig(np.sqrt(counts)) if errors else None,
        )
        style = HistogramStyle(
            color=random_color(rng, dark=dark),
            edgecolor=random_color(rng, dark=dark) if rng.random() < 0.5 else None,
            edgewidth=round(uniform(rng, (0.3, 1.5)), 2),
            grid=bool(rng.random() < cfg.style.grid_p),
        )
        scale: Scale = "log" if count_log else "linear"
        return Sampled(
            params=params,
            data=data.to_dict(),
            style=style.to_dict(),
            xscale=scale if horizontal else "linear",
            yscale="linear" if horizontal else scale,
        )

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        st, d = HistogramStyle.from_dict(panel.style), HistogramData.from_dict(panel.data)
        edges, counts = np.asarray(d.bin_edges), np.asarray(d.counts, dtype=float)
        left, width = edges[:-1], np.diff(edges)
        horizontal = d.orientation == "horizontal"
        _draw_bins(ax, left, width, counts, horizontal, st)
        mids = (edges[:-1] + edges[1:]) / 2
        err_kw: dict[str, Any] = {
            "fmt": "none",
            "ecolor": "0.2" if not style.dark else "0.85",
            "elinewidth": 0.8,
            "capsize": 2,
        }
        if d.errors is not None:
            if horizontal:
                ax.errorbar(counts, mids, xerr=d.errors, **err_kw)
            else:
                ax.errorbar(mids, counts, yerr=d.errors, **err_kw)
        ax.grid(st.grid)
        dpi = ax.figure.dpi

        def probe(renderer: RendererBase) -> list[Mark]:
            pad = st.edge_px(dpi)
            log_counts = (ax.get_xscale() if horizontal else ax.get_yscale()) == "log"
            base = (ax.get_xlim() if horizontal else ax.get_ylim())[0] if log_counts else 0.0
            if horizontal:
                lo, hi = (
                    centres(ax, np.full_like(left, base), left),
                    centres(ax, counts, left + width),
                )
            else:
                lo, hi = (
                    centres(ax, left, np.full_like(left, base)),
                    centres(ax, left + width, counts),
                )
            colour = to_rgba(st.color)
            marks = []
            for i in range(len(counts)):
                x0, x1 = sorted((lo[i, 0], hi[i, 0]))
                y0, y1 = sorted((lo[i, 1], hi[i, 1]))
                empty = counts[i] == 0
                grow = 0.0 if empty else pad  # an empty bin is its baseline, with no extent
                box = (x0 - pad, y0 - grow, x1 + pad, y1 + grow)
                if horizontal:
                    box = (x0 - grow, y0 - pad, x1 + grow, y1 + pad)
                marks.append(
                    Mark(
                        "bar",
                        box,
                        value=[float(mids[i]), float(counts[i])],
                        item=i,
                        color=colour,
                        edge=to_rgba(st.edgecolor) if st.edgecolor else None,
                        empty=bool(empty),
                    )
                )
            if d.errors is not None:
                axis = "x" if horizontal else "y"
                px, py = (counts, mids) if horizontal else (mids, counts)
                errs = errorbar_marks(
                    ax, px, py, np.asarray(d.errors), axis=axis, half_px=max(2 * dpi / 72, 1.0)
                )
                for err in errs:
                    err.color = to_rgba(err_kw["ecolor"])
                marks += errs
            return marks

        return Drawn(probes=[probe])

    mean_phrase = "the data shown by the histograms (the mean of the underlying values)"

    def panel_questions(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
        data = panel.data_as(HistogramData)
        bars = ctx.element_ids(panel.index, "bar")
        if level == 1:
            counts = [float(c) for c in data.counts]
            if (
                counts
                and min(counts) > 0
                and min(counts) >= MIN_VISIBLE_BAR * max(counts)
                and answerable.all_shown(ctx, panel, "bar")
            ):
                ctx.ask(N_BARS, panel, len(counts), evidence=bars)
        elif level == 2:
            _values(ctx, panel, bars)
        else:
            ask_findings(ctx, panel, _findings(panel), bars)

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        data = panel.data_as(HistogramData)
        counts, edges = data.counts, data.bin_edges
        horizontal = data.orientation == "horizontal"
        if level == 1:
            direction = "horizontal" if horizontal else "vertical"
            return [f"It shows {count(len(counts), direction + ' bin')}."]
        value_axis, count_axis = ("y", "x") if horizontal else ("x", "y")
        read_value = axis_reading(ctx, panel, value_axis, edges)
        if level == 2:
            read_count = axis_reading(ctx, panel, count_axis, [0, *counts]).whole()
            drawn = features.bars(panel)
            return [
                f"The bars cover values {read_value.span(edges[0], edges[-1])}; the "
                f"tallest bar holds about {read_count.number(drawn.tallest_count)} at about "
                f"{read_value.say(drawn.tallest_centre)}.",
                f"The underlying data ({count(len(data.samples), 'value')}) have mean "
                f"{read_value.say(statistics.fmean(data.samples))}.",
            ]
        return _shape_sentences(panel, read_value.say)

    def error_bars(self, panel: PanelRecord) -> tuple[bool, bool]:
        # count errors lie along the bars: vertical bars get y error bars
        data = panel.data_as(HistogramData)
        horizontal = data.orientation == "horizontal"
        errors = has(data.errors)
        return horizontal and errors, not horizontal and errors

    # LongChart: a histogram of one vector's observations, one bar per value on the grid of
    # its decimals, so every bar is one exact value (which label holds it is not shown)
    multichart_charts = ("histogram",)
    multichart_ordered = False

    def multichart_refusal(self, chart: str, inputs: list[Shape]) -> str | None:
        if len(inputs) == 1 and inputs[0].kind == "vector":
            return None
        return "shows exactly one vector (its observations)"

    def multichart_panel(self, chart: Chart) -> ChartPanel:
        (shown,) = chart.inputs
        places = shown.decimals
        grid = value_grid(min(shown.values), max(shown.values), places)
        half = 10.0**-places / 2
        edges = [round(v - half, places + 1) for v in grid] + [round(grid[-1] + half, places + 1)]
        on_grid = [round(v, places) for v in shown.values]
        counts = [on_grid.count(v) for v in grid]
        data = HistogramData(samples=list(shown.values), bin_edges=edges, counts=counts)
        style = HistogramStyle(
            color=chart.colour(0),
            edgecolor="#222222",
            edgewidth=0.8,
            grid=True,
            # a tick per value and per count where the labels fit (the locator thins them
            # otherwise, to steps of 2 or 5): bars and heights read as whole numbers
            x_nbins=len(grid) + 1,
            y_nbins=max(counts) + 1,
        )
        what = f"number of {chart.index_title}s" if chart.index_title else "count"
        return ChartPanel(data.to_dict(), style.to_dict(), shown.heading, what)

    def multichart_read(self, record: Record, chart: Chart) -> list[ReadValue]:
        """The observations as the bars give them: each bar's value as often as it is tall,
        in ascending order (they fill the input's labels in that order)."""
        (shown,) = chart.inputs
        data = record.panels[0].data_as(HistogramData)
        edges = data.bin_edges
        values = [
            round((edges[i] + edges[i + 1]) / 2, shown.decimals)
            for i, n in enumerate(data.counts)
            for _ in range(n)
        ]
        return [tuple(float(v) for v in values)]

    def shows_input(self, element: Element, series: int, items: set[int]) -> bool:
        # any label's value may sit in any bar: a reading of the input needs every filled bar
        return element.kind == "bar" and element.value is not None and element.value[1] > 0

    def mean_and_span(self, panel: PanelRecord) -> tuple[float, float, str]:
        data = panel.data_as(HistogramData)
        horizontal = data.orientation == "horizontal"
        edges = data.bin_edges
        scale = panel.yscale if horizontal else panel.xscale
        return statistics.fmean(data.samples), edges[-1] - edges[0], scale


def _findings(panel: PanelRecord) -> list[Finding]:
    out = []
    if (shape := trends.symmetry(panel)) is not None:
        out.append(Finding(SYMMETRY, shape, f"The distribution is {shape}.", SYMMETRY_CHOICES))
    if (modes := trends.n_modes(panel)) is not None:
        out.append(Finding(N_MODES, modes, f"It has {count(modes, 'peak')}."))
    return out


def _shape_sentences(panel: PanelRecord, say: Callable[[float], str]) -> list[str]:
    """Level 3: the drawn bars' shape, from the measured
    :func:`figgen.vqa.api.reading.features.bars` (the same tallest bar as Level 2, the same peaks
    as the ``n_modes`` question)."""
    strict = {found.family.name: found.sentence for found in _findings(panel)}
    skew = hedges.histogram_skew(panel)
    drawn = features.bars(panel)
    tallest = say(drawn.tallest_centre)
    if skew is None:
        return [f"It has too few filled bars to show a shape; most values lie near {tallest}."]
    n = len(panel.data_as(HistogramData).samples)
    if n < FEW_SAMPLES:  # a handful of values: the bars hint at a shape, no more
        lean = skew.words.split(",")[0].replace("roughly symmetric", "about even on both sides")
        return [f"With only {count(n, 'value')}, the bars look {lean}."]
    peaks = drawn.peak_centres
    if len(peaks) > MAX_NAMED_PEAKS:
        out = [f"Its bars rise and fall in {count(len(peaks), 'separate peak')}."]
    elif len(peaks) > 1:
        out = [f"The bars rise to {count(len(peaks), 'separate peak')}{_near(peaks, say)}."]
    elif peaks and drawn.peaks[0] == drawn.tallest:
        out = [f"It has one main peak, near {tallest}."]
    elif peaks:
        out = [f"It has one peak, near {say(peaks[0])}."]
    else:
        out = [_no_peak(drawn, tallest)]
    if len(peaks) > 1 or (peaks and drawn.peaks[0] != drawn.tallest):
        out.append(f"The tallest bar is near {tallest}.")
    if len(peaks) <= 1 or len(peaks) > MAX_NAMED_PEAKS or SYMMETRY.name in strict:
        # a skew is a single hump's lean; with several humps it would mislead
        out.insert(0, strict.get(SYMMETRY.name) or f"The distribution is {skew.words}.")
    return out


def _no_peak(drawn: features.Bars, tallest: str) -> str:
    """Bars with no peak beyond count noise: level, or tallest at one end of the range."""
    filled = [i for i, c in enumerate(drawn.counts) if c > 0]
    if drawn.tallest in (filled[0], filled[-1]) and len(filled) > 2:
        end = "low" if drawn.tallest == filled[0] else "high"
        return (
            "No peak stands out inside the range; the bars are tallest at the "
            f"{end} end, near {tallest}."
        )
    return (
        f"No separate peak stands out from the counting noise; the tallest bar is near {tallest}."
    )


def _near(peaks: list[float], say: Callable[[float], str]) -> str:
    return f", near {join([say(p) for p in peaks])}" if peaks else ""


def _values(ctx: FigureContext, panel: PanelRecord, bars: list[int]) -> None:
    data = panel.data_as(HistogramData)
    counts, edges = data.counts, data.bin_edges
    shown = set(range(len(counts))) - answerable.hidden_items(ctx, panel, "bar")
    mean = statistics.fmean(data.samples)
    if answerable.hist_mean_readable(counts, edges, shown, mean):
        ctx.ask(HIST_MEAN, panel, round_sig(mean), evidence=bars, span=edges[-1] - edges[0])
    filled = [i for i, c in enumerate(counts) if c > 0]
    if not filled:
        return
    count_axis = "x" if data.orientation == "horizontal" else "y"
    value_axis = "y" if count_axis == "x" else "x"
    tallest = max(counts)
    if all(i in shown for i, c in enumerate(counts) if c == tallest):
        ctx.ask(
            MAX_COUNT,
            panel,
            round_sig(tallest),
            evidence=bars,
            span=tallest,
            scale=panel.xscale if count_axis == "x" else panel.yscale,
            count_axis=count_axis,
        )
    if filled[0] in shown and filled[-1] in shown:
        range_question(
            ctx,
            panel,
            "the bars",
            edges[filled[0]],
            edges[filled[-1] + 1],
            bars,
            family=BIN_RANGE,
            axis=value_axis,
        )


register(HistogramKind())


def value_grid(low: float, high: float, decimals: int) -> list[float]:
    """The values from ``low`` to ``high`` rounded to ``decimals`` can take: one bar each."""
    step = 10.0**-decimals
    return [round(k * step, decimals) for k in range(round(low / step), round(high / step) + 1)]


def _draw_bins(
    ax: Axes,
    left: np.ndarray,
    width: np.ndarray,
    counts: np.ndarray,
    horizontal: bool,
    style: HistogramStyle,
) -> None:
    """The bins as one collection of rectangles: what ``ax.bar(..., align="edge")`` draws,
    without its per-bar patch (a histogram has up to a hundred bins, and adding each bar as
    its own patch was the histogram's largest drawing cost).

    As with bars, the count axis does not pad below the baseline (sticky edge at 0), and each
    rectangle's path is traced in the order a ``Rectangle`` is.
    """
    x0, x1 = left, left + width
    base = np.zeros_like(counts)
    if horizontal:
        corners = [(base, x0), (counts, x0), (counts, x1), (base, x1)]
    else:
        corners = [(x0, base), (x1, base), (x1, counts), (x0, counts)]
    verts = np.stack([np.stack(xy, axis=-1) for xy in corners], axis=1)
    bins = PolyCollection(
        list(verts),
        closed=True,
        facecolors=style.color,
        edgecolors=style.edgecolor or "none",
        linewidths=style.edgewidth if style.edgecolor else 0,
        joinstyle="miter",  # a patch's corners (a collection rounds them by default)
        capstyle="butt",
    )
    for path in bins.get_paths():
        path._interpolation_steps = 100  # type: ignore[attr-defined]  # as bar() sets
    (bins.sticky_edges.x if horizontal else bins.sticky_edges.y).append(0.0)
    ax.add_collection(bins, autolim=True)  # data limits and autoscaling, as bar() has
