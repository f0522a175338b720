"""Cross-panel questions: answers that need several panels at once.

``count_kind`` (Level 1) counts panels of each plot type. ``largest_mean`` (Level 2) asks which
panel's data have the largest mean, only where the winner leads the runner-up by at least
``MEAN_GAP`` of the larger of the two panels' drawn value spans and both value axes are linear.
``same_trend`` (Level 3) pairs consecutive panels (reading order) that each have a clear linear
trend (see :func:`figgen.vqa.trends.panel_trend`). ``strongest_linear`` (Level 3) asks which
scatter panel shows the strongest linear relationship (R^2 in display coordinates), only where
the best R^2 is >= LINEAR_R2 (0.95) and every other candidate's R^2 is at least ``R2_GAP`` lower.
"""

from __future__ import annotations

import statistics
from typing import Any

from figgen.kinds import noun
from figgen.vqa import trends
from figgen.vqa.context import FigureContext

MEAN_GAP = 0.1
R2_GAP = 0.3
YES_NO = ["yes", "no"]


def cross_questions(ctx: FigureContext) -> None:
    """Add the cross-panel items of a figure with two or more panels."""
    panels = ctx.panels
    if len(panels) < 2:
        return
    for kind in ctx.kinds:
        matching = [p for p in panels if p["kind"] == kind]
        ctx.add(
            level=1,
            scope="cross-panel",
            family="count_kind",
            panel=None,
            question=f"how many panels of this figure are {noun(kind)}s?",
            answer=len(matching),
            answer_type="integer",
            metric="exact",
            answer_key=f"n_{kind}_panels",
            evidence=[i for p in matching for i in ctx.element_ids(p["index"], "panel")],
        )
    _largest_mean(ctx, [p for p in panels if p["kind"] == "histogram"], "histogram")
    _largest_mean(ctx, [p for p in panels if p["kind"] == "scatter"], "scatter")
    _same_trend(ctx, panels)
    _strongest_linear(ctx, [p for p in panels if p["kind"] == "scatter"])


def _mean_and_span(panel: dict[str, Any]) -> tuple[float, float, str]:
    data = panel["data"]
    if panel["kind"] == "histogram":
        horizontal = data.get("orientation") == "horizontal"
        edges = data["bin_edges"]
        scale = panel.get("yscale" if horizontal else "xscale", "linear")
        return statistics.fmean(data["samples"]), edges[-1] - edges[0], scale
    ys = data["y"]
    return statistics.fmean(ys), max(ys) - min(ys), panel.get("yscale", "linear")


def _largest_mean(ctx: FigureContext, panels: list[dict[str, Any]], kind: str) -> None:
    if len(panels) < 2:
        return
    stats = [_mean_and_span(p) for p in panels]
    if any(scale != "linear" for _, _, scale in stats):
        return
    order = sorted(range(len(panels)), key=lambda i: stats[i][0], reverse=True)
    best, second = order[0], order[1]
    gap = stats[best][0] - stats[second][0]
    if gap < MEAN_GAP * max(stats[best][1], stats[second][1]):
        return
    what = (
        "the data shown by the histograms (the mean of the underlying values)"
        if kind == "histogram"
        else "the y values of the scatter plots"
    )
    ctx.add(
        level=2,
        scope="cross-panel",
        family="largest_mean",
        panel=None,
        question=f"considering the {noun(kind)}s only, which panel has the largest mean of {what}?",
        answer=ctx.location(panels[best]),
        answer_type="choice",
        metric="exact",
        choices=[ctx.location(p) for p in panels],
        answer_key="panel",
        evidence=[i for p in panels for i in ctx.element_ids(p["index"], "panel")],
    )


def _same_trend(ctx: FigureContext, panels: list[dict[str, Any]]) -> None:
    trended = [(p, t) for p in panels if (t := trends.panel_trend(p)) is not None]
    for (a, trend_a), (b, trend_b) in zip(trended, trended[1:], strict=False):
        ctx.add(
            level=3,
            scope="cross-panel",
            family="same_trend",
            panel=None,
            question=f"do {ctx.location(a)} and {ctx.location(b)} show the same trend, "
            "that is, do the data in both rise with x or both fall with x?",
            answer="yes" if trend_a == trend_b else "no",
            answer_type="choice",
            metric="exact",
            choices=list(YES_NO),
            evidence=ctx.element_ids(a["index"], "panel") + ctx.element_ids(b["index"], "panel"),
        )


def _strongest_linear(ctx: FigureContext, panels: list[dict[str, Any]]) -> None:
    candidates = [p for p in panels if len(p["data"]["x"]) >= trends.MIN_POINTS]
    if len(candidates) < 2:
        return
    r2 = [trends.display_fit(p, p["data"]["x"], p["data"]["y"])[2] for p in candidates]
    best = max(range(len(candidates)), key=r2.__getitem__)
    others = [v for i, v in enumerate(r2) if i != best]
    if r2[best] < trends.LINEAR_R2 or max(others) > r2[best] - R2_GAP:
        return
    ctx.add(
        level=3,
        scope="cross-panel",
        family="strongest_linear",
        panel=None,
        question="among the scatter plots, which panel shows the strongest linear "
        "relationship between x and y (points closest to a straight line)?",
        answer=ctx.location(candidates[best]),
        answer_type="choice",
        metric="exact",
        choices=[ctx.location(p) for p in candidates],
        answer_key="panel",
        evidence=[i for p in candidates for i in ctx.element_ids(p["index"], "panel")],
    )
