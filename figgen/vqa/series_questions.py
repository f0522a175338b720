"""Question blocks shared by the kinds that draw sets of points (lines, scatter plots).

A kind's module calls these with its own point sets and the words that name them; the
families asked here are declared once, in :mod:`figgen.vqa.families`.
"""

from __future__ import annotations

import statistics
from typing import TYPE_CHECKING, Any

from figgen.vqa import trends
from figgen.vqa.families import (
    LINEARITY,
    MAX_Y,
    MEAN_Y,
    MEDIAN_Y,
    MIN_Y,
    TREND,
    X_RANGE,
    Family,
)
from figgen.vqa.numbers import round_sig
from figgen.vqa.trends import PointSet

if TYPE_CHECKING:
    from figgen.vqa.context import FigureContext

LINEARITY_CHOICES = ["linear", "nonlinear"]
TREND_CHOICES = ["increasing", "decreasing"]


def stats_questions(
    ctx: FigureContext, panel: dict[str, Any], what: str, ys: list[float], evidence: list[int]
) -> None:
    """Mean, median, smallest and largest y of ``what`` (e.g. "the plotted points")."""
    loc = ctx.location(panel)
    for family, word, value in (
        (MEAN_Y, "mean", statistics.fmean(ys)),
        (MEDIAN_Y, "median", statistics.median(ys)),
        (MIN_Y, "smallest", min(ys)),
        (MAX_Y, "largest", max(ys)),
    ):
        ctx.ask(
            family,
            panel,
            f"in {loc}, what is the {word} y value of {what}?",
            round_sig(value),
            evidence=evidence,
        )


def range_question(
    ctx: FigureContext,
    panel: dict[str, Any],
    what: str,
    low: float,
    high: float,
    evidence: list[int],
    *,
    family: Family = X_RANGE,
    axis: str = "x",
) -> None:
    """The [smallest, largest] values along ``axis`` that ``what`` cover."""
    ctx.ask(
        family,
        panel,
        f"in {ctx.location(panel)}, what range of {axis} values do {what} cover? "
        "Give [smallest, largest].",
        [round_sig(low), round_sig(high)],
        evidence=evidence,
    )


def shape_questions(
    ctx: FigureContext,
    panel: dict[str, Any],
    points: PointSet,
    name: str,
    evidence: list[int],
) -> None:
    """Linearity of one point set and, where it is clearly linear, its trend."""
    loc = ctx.location(panel)
    xscale, yscale = panel.get("xscale", "linear"), panel.get("yscale", "linear")
    verdict = trends.linearity(points.x, points.y, panel["distribution"], xscale, yscale)
    if verdict is None:
        return
    ctx.ask(
        LINEARITY,
        panel,
        f"in {loc}, do {name} lie along a straight line (linear) or not (nonlinear)?",
        verdict,
        choices=list(LINEARITY_CHOICES),
        evidence=evidence,
    )
    trend = trends.series_trend(panel, points)
    if trend is not None:
        ctx.ask(
            TREND,
            panel,
            f"in {loc}, as x increases, do {name} show an increasing or a decreasing trend?",
            trend,
            choices=list(TREND_CHOICES),
            evidence=evidence,
        )


def shape_sentence(
    panel: dict[str, Any], points: PointSet, who: str, *, plural: bool
) -> str | None:
    """The description's linearity sentence for one point set, or None."""
    verdict = trends.linearity(
        points.x,
        points.y,
        panel["distribution"],
        panel.get("xscale", "linear"),
        panel.get("yscale", "linear"),
    )
    if verdict == "linear":
        trend = trends.series_trend(panel, points)
        way = {
            "increasing": "rise" if plural else "rises",
            "decreasing": "fall" if plural else "falls",
        }.get(trend or "", "follow" if plural else "follows")
        return f"{who} {way} along a straight line."
    if verdict == "nonlinear":
        return f"{who} {'do' if plural else 'does'} not follow a straight line."
    return None
