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

from figgen.element_kinds import mark
from figgen.kinds.base import Axis, Drawn, KindHooks, Mark, Sampled, register
from figgen.kinds.box_data import (
    WHIS,
    BoxData,
    BoxStats,
    BoxStyle,
    box_chart_table,
    box_stats,
    group_sample,
)
from figgen.kinds.box_multichart import BoxCharts
from figgen.kinds.categories import category_words, clear_leader, distinct_colors, quoted_names
from figgen.kinds.marks import centres, point_marks
from figgen.records import PanelRecord
from figgen.sample.rng import integer, uniform
from figgen.sample.text import Vocabulary
from figgen.sections import IntRange, Probability, Range, Section, within
from figgen.spec import FigureStyle, PanelSpec
from figgen.vqa.answerable import MAX_MARKER_OVERLAP, length_readable, marker_overlap
from figgen.vqa.families import Family, declare
from figgen.vqa.numbers import round_sig
from figgen.vqa.readout import AxisReading, DrawnAxis, axis_reading, drawn_axis
from figgen.vqa.wording import count

if TYPE_CHECKING:
    from figgen.config_sections import SharedConfig
    from figgen.record import Element
    from figgen.vqa.context import FigureContext
    from figgen.vqa.item import Level

_PLOT = "the box plot in {loc}"
# fmt: off
N_BOXES = declare(
    "n_boxes", 1, "panel", "integer", "exact",
    f"how many boxes does {_PLOT} show?", is_count=True,
)
NOTCHED = declare(
    "box_notched", 1, "panel", "choice", "exact",
    f"are the boxes of {_PLOT} notched around the median?",
)
N_OUTLIERS = declare(
    "n_outliers", 1, "panel", "integer", "exact",
    'in {loc}, how many outliers (points beyond the whiskers) does the group "{group}" have?',
    is_count=True,
)
BOX_MEDIAN = declare(
    "box_median", 2, "panel", "number", "ssmape",
    'in {loc}, what is the median of the group "{group}" (the line inside its box)?',
)
BOX_QUARTILE = declare(
    "box_quartile", 2, "panel", "number", "ssmape",
    'in {loc}, what is the {which} quartile of the group "{group}" (the {edge} edge of its box)?',
)
BOX_IQR = declare(
    "box_iqr", 2, "panel", "number", "axis_2pct",
    'in {loc}, what is the interquartile range of the group "{group}" (the length of its box)?',
)
LARGEST_SPREAD = declare(
    "largest_spread", 3, "panel", "choice", "exact",
    f"in {_PLOT}, which group has the largest spread (interquartile range, the longest box)?",
)
HIGHEST_MEDIAN = declare(
    "highest_median", 3, "panel", "choice", "exact",
    f"in {_PLOT}, which group has the highest median?",
)
# fmt: on

YES_NO = ["yes", "no"]
MEDIAN_LEAD = 0.05
"""A group "has the highest median" when it leads the runner-up by this share of the axis span."""
MIN_BOX_PX = 4.0
"""A box shorter than this (pixels) shows no readable quartiles, median or length."""
NOTCH_SIZE = 40
"""Notched panels draw at least this many values per group (where the config allows)."""
SKEW_RATIO = 2.0
"""A group is described as skewed when one whisker is this many times the other."""


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
        boxes, index = panel.data_as(BoxData), panel.index
        marks = ctx.elements(index, "box")
        if level == 1:
            if all(_shown(e) for e in marks):
                ctx.ask(N_BOXES, panel, len(boxes.groups), evidence=[e.id for e in marks])
            ctx.ask(
                NOTCHED,
                panel,
                "yes" if boxes.notch else "no",
                choices=YES_NO,
                evidence=[e.id for e in marks],
            )
            for g in _countable_outliers(ctx, panel, boxes):
                ids = ctx.element_ids(index, "outlier", series=g)
                ctx.ask(
                    N_OUTLIERS,
                    panel,
                    len(boxes.stats[g].fliers),
                    evidence=ids,
                    group=boxes.groups[g],
                )
        elif level == 2:
            _value_questions(ctx, panel, boxes)
        elif level == 3 and len(boxes.groups) > 1:
            evidence = [e.id for e in marks]
            if not all(_shown(e) for e in marks):
                return
            for family, answer in _leaders(boxes, _span(boxes)):
                ctx.ask(family, panel, answer, choices=list(boxes.groups), evidence=evidence)

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        boxes = panel.data_as(BoxData)
        if level == 1:
            notch = " notched" if boxes.notch else ""
            return [
                f"It shows {count(len(boxes.groups), f'{boxes.orientation}{notch} box')}, "
                f"one per group: {quoted_names(boxes.groups)}."
            ]
        read = _reading(ctx, panel, boxes)
        if level == 2:
            out = []
            for group, stats in zip(boxes.groups, boxes.stats, strict=True):
                outliers = f", and {count(len(stats.fliers), 'outlier')}" if stats.fliers else ""
                out.append(
                    f'The group "{group}" has median {read.say(stats.med)}, quartiles '
                    f"{read.number(stats.q1)} and {read.number(stats.q3)}, whiskers "
                    f"{read.span(stats.whislo, stats.whishi)}{outliers}."
                )
            return out
        out = [
            _leader_sentence(boxes, family, answer, read)
            for family, answer in _leaders(boxes, _span(boxes))
        ]
        return out + [
            _skew_sentence(g, s) for g, s in zip(boxes.groups, boxes.stats, strict=True) if _skew(s)
        ]


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


def _shown(element: Element) -> bool:
    """A mark counts as shown when the record says most of it is (unmeasured marks count)."""
    fraction = 1.0 if element.visible_fraction is None else element.visible_fraction
    return element.visible is not False and fraction >= 0.75


def _span(boxes: BoxData) -> float:
    values = [v for s in boxes.stats for v in (s.whislo, s.whishi, *s.fliers)]
    return float(np.ptp(values)) if values else 0.0


def _reading(ctx: FigureContext, panel: PanelRecord, boxes: BoxData) -> AxisReading:
    axis = "x" if boxes.orientation == "horizontal" else "y"
    values = [v for s in boxes.stats for v in (s.whislo, s.whishi, *s.fliers)]
    return axis_reading(ctx, panel, axis, values)


def _box_px(element: Element, horizontal: bool) -> float:
    x0, y0, x1, y1 = element.bbox
    return float(x1 - x0) if horizontal else float(y1 - y0)


def _value_questions(ctx: FigureContext, panel: PanelRecord, boxes: BoxData) -> None:
    """Median, one quartile and the IQR of each group whose box and median line show and whose
    box is tall enough to tell its edges from the median (the IQR: rule readable lengths)."""
    index, span = panel.index, _span(boxes)
    horizontal = boxes.orientation == "horizontal"
    scale = panel.xscale if horizontal else panel.yscale
    box_of = {e.series: e for e in ctx.elements(index, "box")}
    median_of = {e.series: e for e in ctx.elements(index, "median_line")}
    # a length on a log axis is not a difference of readings: no IQR there
    axis = _value_axis(ctx, panel, horizontal) if scale == "linear" else None
    line_px = panel.style_as(BoxStyle).linewidth * ctx.record.image.dpi / 72  # an edge line
    for g, (group, stats) in enumerate(zip(boxes.groups, boxes.stats, strict=True)):
        box, median = box_of.get(g), median_of.get(g)
        if box is None or median is None or not (_shown(box) and _shown(median)):
            continue
        if _box_px(box, horizontal) < MIN_BOX_PX:
            continue
        evidence = [box.id, median.id]
        ctx.ask(
            BOX_MEDIAN,
            panel,
            round_sig(stats.med),
            evidence=evidence,
            span=span,
            scale=scale,
            group=group,
        )
        upper = g % 2 == 1  # alternate, so a panel asks about both quartiles
        which, edge = ("upper", "top") if upper else ("lower", "bottom")
        if horizontal:
            edge = "right" if upper else "left"
        ctx.ask(
            BOX_QUARTILE,
            panel,
            round_sig(stats.q3 if upper else stats.q1),
            evidence=[box.id],
            span=span,
            scale=scale,
            group=group,
            which=which,
            edge=edge,
        )
        if axis is not None and length_readable(axis, stats.iqr, span, line_px):
            ctx.ask(
                BOX_IQR,
                panel,
                round_sig(stats.iqr),
                evidence=[box.id],
                axis_span=span,
                group=group,
            )


def _value_axis(ctx: FigureContext, panel: PanelRecord, horizontal: bool) -> DrawnAxis | None:
    """The value axis as drawn, placed by the median lines and caps (each box's centre sits on
    its value)."""
    at = 0 if horizontal else 1
    values, pixels = [], []
    for kind in ("median_line", "cap"):
        for e in ctx.elements(panel.index, kind):
            if e.value is not None:
                values.append(float(e.value[1]))
                pixels.append((e.bbox[at] + e.bbox[at + 2]) / 2)
    return drawn_axis(ctx, panel, "x" if horizontal else "y", values, pixels)


def _countable_outliers(ctx: FigureContext, panel: PanelRecord, boxes: BoxData) -> list[int]:
    """Groups whose outliers can be counted: every one drawn, shown, and no two overlapping
    by more than :data:`MAX_MARKER_OVERLAP` (rule: overlapping markers)."""
    out = []
    for g, stats in enumerate(boxes.stats):
        drawn = [e for e in ctx.elements(panel.index, "outlier") if e.series == g]
        if len(drawn) != len(stats.fliers) or not all(_shown(e) for e in drawn):
            continue
        if marker_overlap([e.bbox for e in drawn]) <= MAX_MARKER_OVERLAP:
            out.append(g)
    return out


def _leaders(boxes: BoxData, span: float) -> list[tuple[Family, str]]:
    """The group with the clearly largest IQR and the one with the clearly highest median."""
    out = []
    widest = clear_leader([s.iqr for s in boxes.stats])
    if widest is not None:
        out.append((LARGEST_SPREAD, boxes.groups[widest]))
    medians = [s.med for s in boxes.stats]
    order = np.argsort(medians)[::-1]
    if len(medians) > 1 and medians[order[0]] - medians[order[1]] >= MEDIAN_LEAD * span:
        out.append((HIGHEST_MEDIAN, boxes.groups[int(order[0])]))
    return out


def _skew(stats: BoxStats) -> str | None:
    """ "high" or "low" where one whisker is :data:`SKEW_RATIO` times the other, else None."""
    below, above = stats.q1 - stats.whislo, stats.whishi - stats.q3
    if above > SKEW_RATIO * below and above > 0:
        return "high"
    if below > SKEW_RATIO * above and below > 0:
        return "low"
    return None


def _skew_sentence(group: str, stats: BoxStats) -> str:
    side = _skew(stats)
    longer, shorter = ("upper", "lower") if side == "high" else ("lower", "upper")
    return (
        f'The group "{group}" is skewed towards {side} values: its {longer} whisker is much '
        f"longer than its {shorter}."
    )


def _leader_sentence(boxes: BoxData, family: Family, group: str, read: AxisReading) -> str:
    stats = boxes.stats[boxes.groups.index(group)]
    if family is LARGEST_SPREAD:
        iqr = read.number(stats.iqr)
        return f'The group "{group}" has the widest spread (interquartile range {iqr}).'
    return f'The group "{group}" has the highest median ({read.say(stats.med)}).'


register(BoxKind())
