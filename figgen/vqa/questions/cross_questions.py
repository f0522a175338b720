"""Cross-panel questions: answers that need several panels at once.

``count_kind`` (Level 1) counts panels of each plot type. ``largest_mean`` (Level 2) asks, for
each kind with a ``mean_phrase``, which panel's data have the largest mean, only where the
winner leads the runner-up by at least ``MEAN_GAP`` of the larger of the two panels' drawn
value spans and both value axes are linear. ``same_trend`` (Level 3) pairs consecutive panels
(reading order) that each have a clear linear trend (see
:func:`figgen.vqa.api.reading.trends.panel_trend`) whose every point set rises or falls visibly
(:func:`figgen.vqa.api.answerable.trend_visible`). ``strongest_linear`` (Level 3) asks which panel
of a kind that ``compares_fit`` (scatter plots) shows the strongest linear relationship (R^2 in
display coordinates), only where the best R^2 is >= LINEAR_R2 (0.95) and every other candidate's R^2
is at least ``R2_GAP`` lower.
"""

from __future__ import annotations

from figgen.kinds import KINDS, PlotKind, noun
from figgen.schema.panel import PanelRecord
from figgen.vqa.api import answerable
from figgen.vqa.api.context import FigureContext
from figgen.vqa.api.families import COUNT_KIND, LARGEST_MEAN, SAME_TREND, STRONGEST_LINEAR
from figgen.vqa.api.reading import trends

MEAN_GAP = 0.1
R2_GAP = 0.3
YES_NO = ["yes", "no"]


def cross_questions(ctx: FigureContext) -> None:
    """Add the cross-panel items of a figure with two or more panels."""
    panels = ctx.panels
    if len(panels) < 2:
        return
    for name in ctx.kinds:
        matching = [p for p in panels if p.kind == name]
        evidence = [i for p in matching for i in ctx.element_ids(p.index, "panel")]
        ctx.ask(
            COUNT_KIND,
            None,
            len(matching),
            answer_key=f"n_{name}_panels",
            evidence=evidence,
            balance_as=name,
            nouns=f"{noun(name)}s",
        )
    for name, kind in KINDS.items():
        if kind.mean_phrase:
            _largest_mean(ctx, [p for p in panels if p.kind == name], kind)
    _same_trend(ctx, panels)
    for name, kind in KINDS.items():
        if kind.compares_fit:
            _strongest_linear(ctx, [p for p in panels if p.kind == name], kind)


def _largest_mean(ctx: FigureContext, panels: list[PanelRecord], kind: PlotKind) -> None:
    if len(panels) < 2:
        return
    stats = [kind.mean_and_span(p) for p in panels]
    if any(s is None or s[2] != "linear" for s in stats):
        return
    means = [s[0] for s in stats if s is not None]
    spans = [s[1] for s in stats if s is not None]
    order = sorted(range(len(panels)), key=lambda i: means[i], reverse=True)
    best, second = order[0], order[1]
    if means[best] - means[second] < MEAN_GAP * max(spans[best], spans[second]):
        return
    evidence = [i for p in panels for i in ctx.element_ids(p.index, "panel")]
    ctx.ask(
        LARGEST_MEAN,
        None,
        ctx.location(panels[best]),
        answer_key="panel",
        choices=[ctx.location(p) for p in panels],
        evidence=evidence,
        nouns=f"{kind.noun}s",
        what=kind.mean_phrase or "",
    )


def _same_trend(ctx: FigureContext, panels: list[PanelRecord]) -> None:
    trended = [
        (p, t)
        for p in panels
        if (t := trends.panel_trend(p, KINDS[p.kind].point_sets(p))) is not None
        and all(answerable.trend_visible(ctx, p, s.x, s.y) for s in KINDS[p.kind].point_sets(p))
    ]
    for (a, trend_a), (b, trend_b) in zip(trended, trended[1:], strict=False):
        evidence = ctx.element_ids(a.index, "panel") + ctx.element_ids(b.index, "panel")
        ctx.ask(
            SAME_TREND,
            None,
            "yes" if trend_a == trend_b else "no",
            choices=list(YES_NO),
            evidence=evidence,
            first=ctx.location(a),
            second=ctx.location(b),
        )


def _strongest_linear(ctx: FigureContext, panels: list[PanelRecord], kind: PlotKind) -> None:
    fits = [
        (p, trends.display_fit(p, points.x, points.y)[2])
        for p in panels
        for points in kind.point_sets(p)[:1]
        if len(points.x) >= trends.MIN_POINTS
    ]
    if len(fits) < 2:
        return
    r2 = [fit for _, fit in fits]
    best = max(range(len(fits)), key=r2.__getitem__)
    others = [v for i, v in enumerate(r2) if i != best]
    if r2[best] < trends.LINEAR_R2 or max(others) > r2[best] - R2_GAP:
        return
    evidence = [i for p, _ in fits for i in ctx.element_ids(p.index, "panel")]
    ctx.ask(
        STRONGEST_LINEAR,
        None,
        ctx.location(fits[best][0]),
        answer_key="panel",
        choices=[ctx.location(p) for p, _ in fits],
        evidence=evidence,
        nouns=f"{kind.noun}s",
    )
