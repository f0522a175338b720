"""Question blocks shared by the kinds that draw sets of points (lines, scatter plots).

A kind's module calls these with its own point sets and the words that name them; the
families asked here are declared once, in :mod:`figgen.vqa.api.families`.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Any

from figgen.schema.panel import PanelRecord
from figgen.vqa.api import answerable
from figgen.vqa.api.families import (
    LINEARITY,
    MAX_Y,
    MEAN_Y,
    MEDIAN_Y,
    MIN_Y,
    TREND,
    X_RANGE,
    Family,
)
from figgen.vqa.api.reading import trends
from figgen.vqa.api.reading.trends import PointSet
from figgen.words.numerals import round_sig

if TYPE_CHECKING:
    from figgen.vqa.api.context import FigureContext

LINEARITY_CHOICES = ["linear", "nonlinear"]
TREND_CHOICES = ["increasing", "decreasing"]


def _extreme_marks(ctx: FigureContext, evidence: list[int], pick: Any) -> list[int]:
    """The marks among ``evidence`` holding the ``pick`` (min or max) y value; all of
    ``evidence`` when none of it is a mark with a value (a line drawn without markers)."""
    wanted = set(evidence)
    marks = [(e.id, e.value[1]) for e in ctx.record.elements if e.id in wanted and e.value]
    if not marks:
        return evidence
    extreme = pick(float(y) for _, y in marks)
    return [i for i, y in marks if float(y) == extreme]


def stats_questions(
    ctx: FigureContext,
    panel: PanelRecord,
    what: str,
    ys: list[float],
    evidence: list[int],
    *,
    span: float,
) -> None:
    """Mean, median, smallest and largest y of ``what`` (e.g. "the plotted points").

    ``span`` is the range of every y value the panel draws (the axis a truth near zero is
    judged against). The smallest and largest point to the mark(s) holding them, so they can
    be pointed at.
    """
    extremes = {
        MIN_Y.name: _extreme_marks(ctx, evidence, min),
        MAX_Y.name: _extreme_marks(ctx, evidence, max),
    }
    for family, value in (
        (MEAN_Y, statistics.fmean(ys)),
        (MEDIAN_Y, statistics.median(ys)),
        (MIN_Y, min(ys)),
        (MAX_Y, max(ys)),
    ):
        ctx.ask(
            family,
            panel,
            round_sig(value),
            evidence=extremes.get(family.name, evidence),
            span=span,
            scale=panel.yscale,
            what=what,
        )


def range_question(
    ctx: FigureContext,
    panel: PanelRecord,
    what: str,
    low: float,
    high: float,
    evidence: list[int],
    *,
    family: Family = X_RANGE,
    axis: str = "x",
) -> None:
    """The [smallest, largest] values along ``axis`` that ``what`` cover."""
    answer = [round_sig(low), round_sig(high)]
    scale = panel.axis_scale(axis)
    ctx.ask(
        family, panel, answer, evidence=evidence, span=high - low, scale=scale, what=what, axis=axis
    )


def shape_questions(
    ctx: FigureContext,
    panel: PanelRecord,
    points: PointSet,
    name: str,
    evidence: list[int],
) -> None:
    """Linearity of one point set and, where it is clearly linear, its trend."""
    xscale, yscale = panel.xscale, panel.yscale
    verdict = trends.linearity(points.x, points.y, panel.distribution, xscale, yscale)
    if verdict is None:
        return
    ctx.ask(LINEARITY, panel, verdict, choices=LINEARITY_CHOICES, evidence=evidence, name=name)
    trend = trends.series_trend(panel, points)
    if trend is not None and answerable.trend_visible(ctx, panel, points.x, points.y):
        ctx.ask(TREND, panel, trend, choices=TREND_CHOICES, evidence=evidence, name=name)
