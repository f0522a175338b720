"""Box plots: one box per group (quartiles, median line, whiskers, caps, outliers), notched
or plain, vertical or horizontal.

``data`` holds ``groups`` (the tick labels, in axis order), ``samples`` (each group's values,
three significant figures), ``stats`` (per group what is drawn: ``q1``, ``med``, ``q3``,
``whislo``, ``whishi``, ``fliers``, ``cilo``/``cihi`` of the notch, ``mean``), ``colors``,
``notch``, ``whis`` (whisker reach in IQRs) and ``orientation``. The statistics are Tukey's as
matplotlib draws them (linear-interpolated percentiles; whiskers to the furthest value within
``whis`` IQRs of the box; every value beyond is an outlier); :func:`box_stats` computes them
and the panel is drawn from them with ``Axes.bxp``, so the record and the drawing hold the
same numbers. Elements, all with ``series`` = the group index: ``box`` (``value`` = [position,
q1, q3]), ``median_line`` ([position, median]), ``whisker`` and ``cap`` (``item`` 0 lower, 1
upper; [position, from, to] and [position, value]) and ``outlier`` (``item`` = its index in
``fliers``; [position, value]). Opt-in: the default kind mix gives ``box`` weight 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import to_rgb, to_rgba
from pydantic import Field

from figgen.config.sections.fields import IntRange, Probability, Range, Section, within
from figgen.kinds.api import Axis, Drawn, KindHooks, Mark, Sampled, register
from figgen.kinds.box_data import (
    WHIS,
    BoxData,
    BoxStyle,
    box_chart_table,
    box_stats,
    group_sample,
)
from figgen.kinds.box_multichart import BoxCharts
from figgen.kinds.box_reading import (
    BOX_IQR,
    BOX_MEDIAN,
    BOX_QUARTILE,
    HIGHEST_MEDIAN,
    LARGEST_SPREAD,
    N_BOXES,
    N_OUTLIERS,
    NOTCHED,
    box_questions,
    box_sentences,
)
from figgen.kinds.shared.categories import category_words, distinct_colors
from figgen.kinds.shared.marks import centres, point_marks
from figgen.sample.rng import integer, uniform
from figgen.sample.text import Vocabulary
from figgen.schema.elements import mark
from figgen.schema.panel import PanelRecord
from figgen.schema.spec import FigureStyle, PanelSpec
from figgen.vqa.api.families import Family

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.qa_item import Level
    from figgen.vqa.api.context import FigureContext

NOTCH_SIZE = 40
"""Notched panels draw at least this many values per group (where the config allows)."""


class BoxConfig(Section):
    """Box plots (opt-in: give ``box`` a weight in ``kinds``)."""

    groups: Annotated[IntRange, within(1, 12)] = (2, 7)
    sample_size: Annotated[IntRange, within(5, 2000)] = Field(
        (8, 300), description="values per group, log-uniform"
    )
    notch_p: Probability = 0.45
    horizontal_p: Probability = 0.3
    filled_p: Probability = 0.6
    centre: Annotated[Range, within(1e-3, 1e9)] = Field(
        (1.0, 1000.0), description="the typical group median, log-uniform"
    )


class BoxKind(BoxCharts, KindHooks):
    name = "box"
    config = BoxConfig
    noun = "box plot"
    default_weight = 0.0
    chart_table = staticmethod(box_chart_table)
    density_rule = """\
- Box plot: one series per box, named by its group label. Give five rows per box, with X
  Value "lower whisker", "Q1", "median", "Q3" and "upper whisker" and Y Value the value where
  the lower whisker ends, the box's lower edge, the median line, the box's upper edge and where
  the upper whisker ends. Outlier points are not rows."""
    elements = (
        mark("box", "#daa520"),
        mark("median_line", "#dc143c"),
        mark("whisker", "#20b2aa"),
        mark("cap", "#2e8b57"),
        mark("outlier", "#9400d3"),
    )
    families: tuple[Family, ...] = (
        N_BOXES,
        NOTCHED,
        N_OUTLIERS,
        BOX_MEDIAN,
        BOX_QUARTILE,
        BOX_IQR,
        LARGEST_SPREAD,
        HIGHEST_MEDIAN,
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
        bc = cfg.section(self.name, BoxConfig)
        n_groups = integer(rng, bc.groups)
        groups = category_words(rng, vocab, n_groups)
        centre = float(np.exp(uniform(rng, (np.log(bc.centre[0]), np.log(bc.centre[1])))))
        spread = centre * uniform(rng, (0.05, 0.3))
        notched = bool(rng.random() < bc.notch_p)
        low, high = np.log(bc.sample_size[0]), np.log(bc.sample_size[1])
        if notched:  # a notch fits inside its box only with enough values (1.57 IQR / sqrt(n))
            low = min(max(low, np.log(NOTCH_SIZE)), high)
        samples, sizes = [], []
        for _ in groups:
            n = int(round(np.exp(uniform(rng, (low, high)))))
            where = centre + spread * rng.normal(0.0, 1.5)
            samples.append(group_sample(rng, n, where, spread * uniform(rng, (0.4, 1.6))))
            sizes.append(n)
        stats = [box_stats(s) for s in samples]
        # a notch wider than its box folds back over the box: drawn only where every one fits
        fits = all(s.q1 <= s.cilo and s.cihi <= s.q3 for s in stats)
        notch = notched and fits
        one_colour = rng.random() < 0.4
        colors = distinct_colors(rng, 1 if one_colour else n_groups, dark=dark)
        data = BoxData(
            groups=groups,
            samples=samples,
            stats=stats,
            colors=colors * n_groups if one_colour else colors,
            notch=notch,
            whis=WHIS,
            orientation="horizontal" if rng.random() < bc.horizontal_p else "vertical",
        )
        style = BoxStyle(
            filled=bool(rng.random() < bc.filled_p),
            width=round(uniform(rng, (0.35, 0.75)), 2),
            linewidth=round(uniform(rng, (0.8, 1.8)), 2),
            flier_marker=str(rng.choice(["o", "D", "+", "x"])),
            flier_size=round(uniform(rng, (3.0, 6.0)), 1),
            grid=bool(rng.random() < cfg.style.grid_p),
        )
        # the derived colours go into the record, so a reader of it knows every mark's ink
        looks = [_look(color, style.filled, dark) for color in data.colors]
        style.line_colors = [look.line for look in looks]
        style.median_colors = [look.median for look in looks]
        return Sampled(
            params={"sizes": sizes, "centre": centre, "spread": spread},
            data=data.to_dict(),
            style=style.to_dict(),
        )

    def category_axis(self, panel: PanelSpec) -> Axis:
        return "y" if BoxData.from_dict(panel.data).orientation == "horizontal" else "x"

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        st, boxes = BoxStyle.from_dict(panel.style), BoxData.from_dict(panel.data)
        horizontal = boxes.orientation == "horizontal"
        looks = [
            _Look(color if st.filled else "none", line, median, color)
            for color, line, median in zip(
                boxes.colors, st.line_colors, st.median_colors, strict=True
            )
        ]
        positions = np.arange(1, len(boxes.groups) + 1, dtype=float)
        for i, (stats, look) in enumerate(zip(boxes.stats, looks, strict=True)):
            line = {"color": look.line, "linewidth": st.linewidth}
            ax.bxp(
                [stats.bxp(boxes.groups[i])],
                positions=[positions[i]],
                widths=st.width,
                orientation="horizontal" if horizontal else "vertical",
                patch_artist=True,
                shownotches=boxes.notch,
                boxprops={
                    "facecolor": look.face,
                    "edgecolor": look.line,
                    "linewidth": st.linewidth,
                },
                whiskerprops=line,
                capprops=line,
                medianprops={"color": look.median, "linewidth": st.linewidth * 1.6},
                flierprops={
                    "marker": st.flier_marker,
                    "markersize": st.flier_size,
                    "markerfacecolor": look.flier if st.flier_marker in "oD" else "none",
                    "markeredgecolor": look.flier,
                    "linestyle": "none",
                },
                manage_ticks=False,
            )
        axis = ax.yaxis if horizontal else ax.xaxis
        axis.set_ticks(positions, labels=boxes.groups)
        (ax.set_ylim if horizontal else ax.set_xlim)(0.5, len(positions) + 0.5)
        rotation = st.tick_rotation("y" if horizontal else "x")
        if rotation:
            ax.tick_params(axis="y" if horizontal else "x", labelrotation=rotation)
        if horizontal:
            ax.invert_yaxis()  # the first group on top, where reading starts
        ax.grid(st.grid, axis="x" if horizontal else "y")
        ax.set_axisbelow(True)
        dpi = ax.figure.dpi

        def probe(renderer: RendererBase) -> list[Mark]:
            pad = max(st.linewidth * dpi / 72 / 2, 0.5)
            half = st.width / 2
            marks: list[Mark] = []

            def box(
                kind: str,
                g: int,
                across: tuple[float, float],
                along: tuple[float, float],
                **kw: Any,
            ) -> None:
                xs, ys = (along, across) if horizontal else (across, along)
                corners = centres(ax, np.array(xs), np.array(ys))
                (x0, x1), (y0, y1) = sorted(corners[:, 0]), sorted(corners[:, 1])
                marks.append(Mark(kind, (x0 - pad, y0 - pad, x1 + pad, y1 + pad), series=g, **kw))

            # fmt: off
            for g, (stats, look) in enumerate(zip(boxes.stats, looks, strict=True)):
                p, edge = float(positions[g]), to_rgba(look.line)
                ink = to_rgba(look.face) if st.filled else edge
                outline = edge if st.filled else None
                box("box", g, (p - half, p + half), (stats.q1, stats.q3),
                    value=[p, stats.q1, stats.q3], item=g, color=ink, edge=outline)
                wide = half / 2 if boxes.notch else half  # a notch narrows the box at the median
                box("median_line", g, (p - wide, p + wide), (stats.med, stats.med),
                    value=[p, stats.med], item=g, color=to_rgba(look.median))
                ends = ((stats.q1, stats.whislo), (stats.q3, stats.whishi))
                for item, (start, end) in enumerate(ends):
                    box("whisker", g, (p, p), (start, end),
                        value=[p, start, end], item=item, color=edge)
                    box("cap", g, (p - half / 2, p + half / 2), (end, end),
                        value=[p, end], item=item, color=edge)
                values = np.array(stats.fliers, dtype=float)
                at = np.column_stack([np.full(len(values), p), values])
                xy = centres(ax, *(at[:, ::-1] if horizontal else at).T)
                size = st.flier_size * dpi / 72 / 2 + pad
                marks += point_marks("outlier", xy, size, at, series=g, color=to_rgba(look.flier))
            # fmt: on
            return marks

        return Drawn(probes=[probe])

    def panel_questions(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
        box_questions(ctx, panel, level)

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        return box_sentences(ctx, panel, level)


@dataclass(frozen=True)
class _Look:
    face: str
    line: str
    median: str
    flier: str


def _look(color: str, filled: bool, dark: bool) -> _Look:
    """A group's colours: a filled box in its colour with grey lines and a median line that
    contrasts with the fill, or an outline in its colour with a median in the contrasting grey."""
    grey = "#d0d0d0" if dark else "#333333"
    if not filled:
        return _Look(face="none", line=color, median=grey, flier=color)
    luminance = float(np.dot(to_rgb(color), (0.299, 0.587, 0.114)))
    return _Look(
        face=color, line=grey, median="#000000" if luminance > 0.55 else "#ffffff", flier=color
    )


register(BoxKind())
