"""Scatter plots: 10-100 points (Gaussian clusters up to 200), coloured by a colormap or plain.

``data`` holds ``x, y, c`` (colour values or null) and optional ``xerr, yerr``.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import to_rgba, to_rgba_array
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
from figgen.kinds.api import COLORMAPS, Drawn, KindHooks, Mark, Sampled, random_color, register
from figgen.kinds.shared.colorbar import add_colorbar
from figgen.kinds.shared.marks import (
    ERRORBAR,
    MIN_EDGE_PX,
    background,
    errorbar_marks,
    point_ink,
    point_marks,
)
from figgen.sample import distributions as dist
from figgen.sample.rng import choose, integer, sig, uniform
from figgen.sample.text import Vocabulary, colorbar_label
from figgen.schema.elements import Element, mark
from figgen.schema.longchart import Chart, ChartPanel, ReadValue, Shape
from figgen.schema.panel import PanelData, PanelRecord, PanelStyle, panel_data, panel_style
from figgen.schema.spec import FigureStyle, PanelSpec
from figgen.vqa.api import answerable
from figgen.vqa.api.families import COLORMAP, ERROR_BARS, POINT_SET_FAMILIES, Balance, declare
from figgen.vqa.api.point_questions import range_question, shape_questions, stats_questions
from figgen.vqa.api.reading import features, trends
from figgen.vqa.api.reading.hedges import NO_TREND, spreads_evenly, trend_clause
from figgen.vqa.api.reading.readout import axis_reading
from figgen.vqa.api.reading.trends import PointSet
from figgen.words.colormap_words import colormap_sentence
from figgen.words.wording import count, has

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.elements import Element
    from figgen.schema.qa_item import Level
    from figgen.schema.record import Record
    from figgen.vqa.api.context import FigureContext

MARKERS = ("o", "o", "o", "s", "^", "D", "v", "p", "h")
ERRORBAR_COLOR = "0.5"


# fmt: off
N_POINTS = declare(
    "n_points", 1, "panel", "integer", "exact",
    "how many data points are plotted in the scatter plot in {loc}?", is_count=True,
)
N_CLUSTERS = declare(
    "n_clusters", 3, "panel", "integer", "exact",
    "into how many separate clusters do the points in {loc} fall?", is_count=True,
    balance=Balance(0.5, {"1": 0.3}),
)
# fmt: on


@panel_data("scatter")
@dataclass
class ScatterData(PanelData):
    """A scatter panel's ``data``: the points, their colour values and optional errors."""

    x: list[float]
    y: list[float]
    c: list[float] | None = None
    xerr: list[float] | None = None
    yerr: list[float] | None = None


@panel_style("scatter")
@dataclass
class ScatterStyle(PanelStyle):
    """A scatter plot's look: a colormap for colour values (else one colour), its colour bar,
    the marker symbol and size (points squared), edges, grid."""

    colormap: str | None = None
    colorbar: str | None = None
    colorbar_label: str | None = None
    color: str = "#1f77b4"
    marker: str = "o"
    size: float = 20.0
    edgecolor: str = "black"
    edgewidth: float = 0.5
    grid: bool = False


class ScatterConfig(Section):
    points: Annotated[IntRange, within(2, 2000)] = (10, 100)
    gmm_points_cap: int = Field(200, ge=2, le=2000)
    clusters: Annotated[IntRange, within(1, 20)] = (1, 5)
    marker_size: Annotated[Range, within(0.5, 500)] = (6, 60)
    colorbar_p: Probability = 0.6
    colorbar_location: Annotated[
        Weights, one_of("colorbar location", ("right", "left", "top", "bottom"))
    ] = Field(default_factory=lambda: {"right": 0.55, "left": 0.15, "top": 0.15, "bottom": 0.15})
    xerr_p: Probability = 0.1
    yerr_p: Probability = 0.1


class ScatterKind(KindHooks):
    name = "scatter"
    families = (ERROR_BARS, COLORMAP, N_POINTS, N_CLUSTERS, *POINT_SET_FAMILIES)
    config = ScatterConfig
    noun = "scatter plot"
    elements = (mark("point", "#ff00ff"), ERRORBAR)

    def sample(
        self,
        rng: np.random.Generator,
        cfg: SharedConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        sc = cfg.section(self.name, ScatterConfig)
        xlog = bool(rng.random() < cfg.style.log_x_p)
        ylog = bool(rng.random() < cfg.style.log_y_p)
        if distribution == "gmm":
            n = min(integer(rng, (sc.points[0], sc.points[1] * 2)), sc.gmm_points_cap)
            k = integer(rng, sc.clusters)
            span = uniform(rng, cfg.distributions.x_span)
            x0, y0 = uniform(rng, (-span, span)), uniform(rng, cfg.distributions.intercept)
            x, y, labels, params = dist.clusters_2d(
                rng, n, k, (x0, x0 + span, y0, y0 + span * uniform(rng, (0.1, 10.0)))
            )
            if xlog:
                x = dist.to_log_axis(rng, x)
        else:
            n = integer(rng, sc.points)
            x = dist.x_grid(rng, cfg.distributions, n, log=xlog)
            x = rng.permutation(x)
            y, params = dist.relation(rng, cfg.distributions, distribution, x, xlog=xlog)
            labels = None
        if ylog:
            y = dist.to_log_axis(rng, y)
            params["log_y_mapped"] = True
        colormap = str(rng.choice(COLORMAPS)) if rng.random() < cfg.style.colormap_p else None
        c = _colour_values(rng, x, y, labels) if colormap else None
        colorbar = (
            choose(rng, sc.colorbar_location) if colormap and rng.random() < sc.colorbar_p else None
        )
        xerr = None
        if rng.random() < sc.xerr_p:
            xerr = (
                x * rng.uniform(0.02, 0.2, n)
                if xlog
                else (float(np.ptp(x)) or 1.0) * rng.uniform(0.01, 0.06, n)
            )
        yerr = (
            (float(np.ptp(y)) or 1.0) * rng.uniform(0.01, 0.06, n)
            if rng.random() < sc.yerr_p and not ylog
            else None
        )
        data = ScatterData(
            x=sig(x),
            y=sig(y),
            c=sig(c) if c is not None else None,
            xerr=sig(xerr) if xerr is not None else None,
            yerr=sig(yerr) if yerr is not None else None,
        )
        style = ScatterStyle(
            colormap=colormap,
            colorbar=colorbar,
            colorbar_label=colorbar_label(rng, vocab, cfg.text) if colorbar else None,
            color=random_color(rng, dark=dark),
            marker=str(rng.choice(MARKERS)),
            size=round(uniform(rng, sc.marker_size), 1),
            edgecolor="white" if dark else "black",
            edgewidth=round(uniform(rng, (0.2, 0.8)), 2),
            grid=bool(rng.random() < cfg.style.grid_p),
        )
        return Sampled(
            params=params,
            data=data.to_dict(),
            style=style.to_dict(),
            xscale="log" if xlog else "linear",
            yscale="log" if ylog else "linear",
        )

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        st, d = ScatterStyle.from_dict(panel.style), ScatterData.from_dict(panel.data)
        x, y = np.asarray(d.x), np.asarray(d.y)
        if d.xerr is not None or d.yerr is not None:
            ax.errorbar(
                x,
                y,
                xerr=d.xerr,
                yerr=d.yerr,
                fmt="none",
                ecolor=ERRORBAR_COLOR,
                elinewidth=0.7,
                zorder=1,
            )
        colour_kw = {"c": d.c, "cmap": st.colormap} if d.c is not None else {"color": st.color}
        points = ax.scatter(
            x,
            y,
            s=st.size,
            marker=st.marker,
            edgecolors=st.edgecolor,
            linewidths=st.edgewidth,
            zorder=2,
            **colour_kw,
        )
        ax.grid(st.grid)
        cbar = (
            add_colorbar(ax, points, st.colorbar, st.colorbar_label, style, nbins=st.cbar_nbins)
            if d.c is not None
            else None
        )
        dpi = ax.figure.dpi

        def probe(renderer: RendererBase) -> list[Mark]:
            half = (np.sqrt(st.size) / 2 + st.edgewidth / 2) * dpi / 72
            offsets = points.get_offset_transform().transform(points.get_offsets())
            faces, edges = (
                to_rgba_array(points.get_facecolor()),
                to_rgba_array(points.get_edgecolor()),
            )
            shows = st.edgewidth * dpi / 72 >= MIN_EDGE_PX
            ink = point_ink(faces, edges, background(ax), edge_shows=shows)
            marks = point_marks(
                "point", np.asarray(offsets), half, np.column_stack([x, y]), color=ink
            )
            cap = max(1.0, 0.7 * dpi / 72)
            bars = errorbar_marks(ax, x, y, d.yerr, axis="y", half_px=cap)
            bars += errorbar_marks(ax, x, y, d.xerr, axis="x", half_px=cap)
            for bar in bars:
                bar.color = to_rgba(ERRORBAR_COLOR)
            return [*marks, *bars]

        return Drawn(probes=[probe], colorbar=cbar)

    mean_phrase = "the y values of the scatter plots"
    compares_fit = True

    def panel_questions(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
        data = panel.data_as(ScatterData)
        points = ctx.element_ids(panel.index, "point")
        if level == 1:
            if answerable.markers_apart(ctx, panel):  # an exact count needs every point apart
                ctx.ask(N_POINTS, panel, len(data.x), evidence=points)
        elif not answerable.all_shown(ctx, panel, "point"):
            return  # values and shapes need every point; a legend or the frame hides some
        elif level == 2:
            what, ys = "the plotted points", [float(v) for v in data.y]
            stats_questions(ctx, panel, what, ys, points, span=max(ys) - min(ys))
            range_question(ctx, panel, what, min(data.x), max(data.x), points)
        else:
            for point_set in self.point_sets(panel):
                shape_questions(ctx, panel, point_set, "the plotted points", points)
            clusters = trends.n_clusters(panel, ctx.panel_aspect(panel))
            if clusters is not None:
                ctx.ask(N_CLUSTERS, panel, clusters, evidence=points)

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        data = panel.data_as(ScatterData)
        if level == 1:
            out = [f"It shows {count(len(data.x), 'point')}."]
            cmap = panel.style_as(ScatterStyle).colormap
            if cmap and data.c is not None:
                out.append(colormap_sentence(cmap))
            return out
        read_x = axis_reading(ctx, panel, "x", data.x)
        if level == 2:
            read_y = axis_reading(ctx, panel, "y", data.y)
            return [
                f"The points span x {read_x.span(min(data.x), max(data.x))} and "
                f"y {read_y.span(min(data.y), max(data.y))}, with mean y "
                f"{read_y.say(statistics.fmean(data.y))} and median y "
                f"{read_y.say(statistics.median(data.y))}."
            ]
        trend = trend_clause(panel, self.point_sets(panel)[0], plural=True, say_x=read_x.say)
        groups = features.groups(panel, ctx.panel_aspect(panel))  # what n_clusters agrees with
        if groups is None:
            out = []
            if NO_TREND in trend:  # no trend, but a cloud has a shape
                centres = trends.cluster_centres(panel) or []
                if panel.distribution == "gmm" and len(centres) == 1:
                    out.append("The points form a single cloud.")
                elif spreads_evenly(panel):
                    out.append("The points spread evenly over the panel.")
            return [*out, f"The points {trend}."]
        out = [
            f"The points form {count(groups.n, 'separate cluster')}."
            if groups.separate
            else f"The points fall into {count(groups.n, 'group')} that partly overlap."
        ]
        if NO_TREND not in trend:  # the groups are the structure; say a trend only if one shows
            out.append(f"Taken together, they {trend}.")
        return out

    def error_bars(self, panel: PanelRecord) -> tuple[bool, bool]:
        data = panel.data_as(ScatterData)
        return has(data.xerr), has(data.yerr)

    def shown_colormap(self, panel: PanelRecord) -> str | None:
        # a scatter shows its colormap only through colour values
        name = panel.style_as(ScatterStyle).colormap
        return name if name and has(panel.data_as(ScatterData).c) else None

    def point_sets(self, panel: PanelRecord) -> list[PointSet]:
        data = panel.data_as(ScatterData)
        return [PointSet(list(data.x), list(data.y), panel.params)]

    # LongChart: one vector over integer labels, a point per label at x = the label
    multichart_charts = ("scatter",)

    def multichart_refusal(self, chart: str, inputs: list[Shape]) -> str | None:
        if len(inputs) == 1 and inputs[0].numeric_labels:
            return None
        return "shows one vector over integer labels (x is the label)"

    def multichart_panel(self, chart: Chart) -> ChartPanel:
        (shown,) = chart.inputs
        data = ScatterData(x=[float(v) for v in shown.labels], y=list(shown.values))
        style = ScatterStyle(
            colormap=None,
            colorbar=None,
            colorbar_label=None,
            color=chart.colour(0),
            marker="o",
            size=30.0,
            edgecolor="black",
            edgewidth=0.5,
            grid=True,
            x_nbins=len(shown.labels),
        )
        return ChartPanel(data.to_dict(), style.to_dict(), chart.index_title, chart.unit)

    def multichart_read(self, record: Record, chart: Chart) -> list[ReadValue]:
        (shown,) = chart.inputs
        data = record.panels[0].data_as(ScatterData)
        at = {round(x): float(y) for x, y in zip(data.x, data.y, strict=True)}
        return [tuple(at[int(label)] for label in shown.labels)]

    def shows_input(self, element: Element, series: int, items: set[int]) -> bool:
        return element.kind == "point" and element.item in items

    def mean_and_span(self, panel: PanelRecord) -> tuple[float, float, str]:
        ys = panel.data_as(ScatterData).y
        return statistics.fmean(ys), max(ys) - min(ys), panel.yscale


def _colour_values(
    rng: np.random.Generator,
    x: np.ndarray,
    y: np.ndarray,
    labels: np.ndarray | None,
) -> np.ndarray:
    """Colour values from one of the three distributions: a gradient, the clusters, or noise."""
    mode = rng.integers(3)
    if mode == 0:
        a, b = rng.normal(size=2)
        u = a * (x - x.mean()) / (x.std() or 1.0) + b * (y - y.mean()) / (y.std() or 1.0)
        gradient: np.ndarray = u * uniform(rng, (0.1, 100.0))
        return gradient
    if mode == 1 and labels is not None:
        return labels + rng.normal(0, 0.15, len(labels))
    return rng.uniform(0, uniform(rng, (1.0, 1000.0)), len(x))


register(ScatterKind())
