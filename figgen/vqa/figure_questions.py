"""Level 1 questions about the whole figure: panel count, layout, plot types, titles, labels."""

from __future__ import annotations

from figgen.vqa.context import FigureContext
from figgen.vqa.families import LAYOUT, PANEL_COUNT, PLOT_TYPES, TITLES, XLABELS, YLABELS


def figure_questions(ctx: FigureContext) -> None:
    """Add the figure-scope Level 1 items."""
    panels = ctx.panels
    panel_ids = ctx.element_ids(None, "panel") + [
        i for p in panels for i in ctx.element_ids(p["index"], "panel")
    ]
    ctx.ask(
        PANEL_COUNT,
        None,
        "how many panels (separate plots with their own axes) does this figure contain?",
        len(panels),
        evidence=panel_ids,
    )
    ctx.ask(
        LAYOUT,
        None,
        "the panels are arranged in a grid: how many rows and how many columns of "
        "panels are there? Give [rows, columns].",
        [ctx.rows, ctx.cols],
        evidence=panel_ids,
    )
    kinds = [kind for kind in ctx.kinds if any(p["kind"] == kind for p in panels)]
    ctx.ask(
        PLOT_TYPES,
        None,
        "which types of plot appear in this figure? List each type once.",
        kinds,
        choices=list(ctx.kinds),
        evidence=panel_ids,
    )
    for family, field, words in (
        (TITLES, "title", "titles of the panels"),
        (XLABELS, "xlabel", "x-axis labels of the panels"),
        (YLABELS, "ylabel", "y-axis labels of the panels"),
    ):
        ctx.ask(
            family,
            None,
            f"list the {words}, reading the panels row by row from the top-left; "
            "copy each text exactly (keep any LaTeX between $ signs) and give [] if "
            "there are none.",
            [p[field] for p in panels if p.get(field)],
            evidence=[i for p in panels for i in ctx.element_ids(p["index"], field)],
        )
