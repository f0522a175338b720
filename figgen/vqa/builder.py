"""Turn one figure record into its question/answer items."""

from __future__ import annotations

from typing import Any

from figgen.vqa.context import FigureContext
from figgen.vqa.cross_questions import cross_questions
from figgen.vqa.figure_questions import figure_questions
from figgen.vqa.item import QAItem
from figgen.vqa.panel_questions import panel_questions
from figgen.vqa.trend_questions import trend_questions
from figgen.vqa.value_questions import value_questions


def questions_for_record(
    record: dict[str, Any], *, kinds: tuple[str, ...] | None = None
) -> list[QAItem]:
    """Every item for one record, in a fixed order: figure, each panel (reading order), cross.

    Pure function of the record: the same record always gives the same items, qids and choice
    orders. ``kinds`` are the plot kinds the build could draw (default: the default mix); they
    are the choices of the plot-type questions.
    """
    ctx = FigureContext(record) if kinds is None else FigureContext(record, kinds)
    figure_questions(ctx)
    for panel in ctx.panels:
        panel_questions(ctx, panel)
        value_questions(ctx, panel)
        trend_questions(ctx, panel)
    cross_questions(ctx)
    return ctx.items
