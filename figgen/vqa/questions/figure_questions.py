"""Level 1 questions about the whole figure: panel count, layout, plot types, titles, labels."""

from __future__ import annotations

from figgen.vqa.api.context import FigureContext
from figgen.vqa.api.families import LAYOUT, PANEL_COUNT, PLOT_TYPES, TITLES, XLABELS, YLABELS


def figure_questions(ctx: FigureContext) -> None:
    """Add the figure-scope Level 1 items."""
    panels = ctx.panels
    panel_ids = ctx.element_ids(None, "panel") + [
        i for p in panels for i in ctx.element_ids(p.index, "panel")
    ]
    ctx.ask(PANEL_COUNT, None, len(panels), evidence=panel_ids)
    ctx.ask(LAYOUT, None, [ctx.rows, ctx.cols], evidence=panel_ids)
    kinds = [kind for kind in ctx.kinds if any(p.kind == kind for p in panels)]
    ctx.ask(PLOT_TYPES, None, kinds, choices=list(ctx.kinds), evidence=panel_ids)
    for family, field, shown in (
        (TITLES, "title", [p.title for p in panels]),
        (XLABELS, "xlabel", [p.xlabel for p in panels]),
        (YLABELS, "ylabel", [p.ylabel for p in panels]),
    ):
        texts = [text for text in shown if text]
        evidence = [i for p in panels for i in ctx.element_ids(p.index, field)]
        ctx.ask(family, None, texts, evidence=evidence)
