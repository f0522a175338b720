"""Level 1 questions about the whole figure: panel count, layout, plot types, titles, labels."""

from __future__ import annotations

from figgen.vqa.context import FigureContext


def figure_questions(ctx: FigureContext) -> None:
    """Add the figure-scope Level 1 items."""
    panels = ctx.panels
    panel_ids = ctx.element_ids(None, "panel") + [
        i for p in panels for i in ctx.element_ids(p["index"], "panel")
    ]
    ctx.add(
        level=1,
        scope="figure",
        family="panel_count",
        panel=None,
        question="how many panels (separate plots with their own axes) does this figure contain?",
        answer=len(panels),
        answer_type="integer",
        metric="exact",
        evidence=panel_ids,
    )
    ctx.add(
        level=1,
        scope="figure",
        family="layout",
        panel=None,
        question="the panels are arranged in a grid: how many rows and how many columns of "
        "panels are there? Give [rows, columns].",
        answer=[ctx.rows, ctx.cols],
        answer_type="integer_pair",
        metric="exact",
        evidence=panel_ids,
    )
    kinds = [kind for kind in ctx.kinds if any(p["kind"] == kind for p in panels)]
    ctx.add(
        level=1,
        scope="figure",
        family="plot_types",
        panel=None,
        question="which types of plot appear in this figure? List each type once.",
        answer=kinds,
        answer_type="choice_list",
        metric="exact_set",
        choices=list(ctx.kinds),
        evidence=panel_ids,
    )
    for family, field, words in (
        ("titles", "title", "titles of the panels"),
        ("xlabels", "xlabel", "x-axis labels of the panels"),
        ("ylabels", "ylabel", "y-axis labels of the panels"),
    ):
        texts = [p[field] for p in panels if p.get(field)]
        evidence = [i for p in panels for i in ctx.element_ids(p["index"], field)]
        ctx.add(
            level=1,
            scope="figure",
            family=family,
            panel=None,
            question=f"list the {words}, reading the panels row by row from the top-left; "
            "copy each text exactly (keep any LaTeX between $ signs) and give [] if "
            "there are none.",
            answer=texts,
            answer_type="string_list",
            metric="cer_list",
            evidence=evidence,
        )
