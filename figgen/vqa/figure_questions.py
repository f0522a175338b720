"""Level 1 questions about the whole figure: panel count, layout, plot types, titles, labels."""

from __future__ import annotations

from figgen.vqa.context import FigureContext
from figgen.vqa.families import LAYOUT, PANEL_COUNT, PLOT_TYPES, TITLES, XLABELS, YLABELS


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
    for family, field in ((TITLES, "title"), (XLABELS, "xlabel"), (YLABELS, "ylabel")):
        texts = [p[field] for p in panels if p.get(field)]
        evidence = [i for p in panels for i in ctx.element_ids(p.index, field)]
        ctx.ask(family, None, texts, evidence=evidence)
