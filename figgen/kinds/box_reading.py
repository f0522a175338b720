"""What a reader is asked and told about a drawn box plot: the families, which boxes, values
and outliers can be read (shown marks, tall enough boxes, countable outliers), the groups that
clearly lead, and the description sentences."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from figgen.kinds.box_data import BoxData, BoxStats, BoxStyle
from figgen.kinds.shared.categories import clear_leader, quoted_names
from figgen.schema.panel import PanelRecord
from figgen.vqa.api.answerable import MAX_MARKER_OVERLAP, length_readable, marker_overlap
from figgen.vqa.api.families import Family, declare
from figgen.vqa.api.reading.readout import AxisReading, DrawnAxis, axis_reading, drawn_axis
from figgen.words.numerals import round_sig
from figgen.words.wording import count

if TYPE_CHECKING:
    from figgen.schema.elements import Element
    from figgen.schema.qa_item import Level
    from figgen.vqa.api.context import FigureContext

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
SKEW_RATIO = 2.0
"""A group is described as skewed when one whisker is this many times the other."""


def box_questions(ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
    """The questions of ``level`` a reader can answer from a drawn box plot."""
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


def box_sentences(ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
    """A box plot's sentences of a panel description at ``level``."""
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
