"""Turn one figure record into its question/answer items."""

from __future__ import annotations

from typing import Any

from figgen.config.sections.balance import KeepTable
from figgen.kinds import KINDS
from figgen.schema.qa_item import QAItem
from figgen.schema.record import Record, as_record
from figgen.vqa.questions.cross_questions import cross_questions
from figgen.vqa.questions.figure_questions import figure_questions
from figgen.vqa.questions.offered import figure_context
from figgen.vqa.questions.panel_questions import panel_questions


def questions_for_record(
    record: Record | dict[str, Any],
    *,
    kinds: tuple[str, ...] | None = None,
    keep: KeepTable | None = None,
) -> list[QAItem]:
    """Every item for one record, in a fixed order: figure, each panel (reading order), cross.

    A panel gets the shared Level 1 items (with its kind's own Level 1 items among them), then
    its kind's Level 2 and Level 3 items. Pure function of the record: the same record always
    gives the same items, qids and choice orders. ``kinds`` are the plot kinds the build could
    draw (default: the default mix); they are the choices of the plot-type questions. ``keep``
    is the build config's balance table (default: the families' declared one,
    :func:`figgen.vqa.api.balance.declared_keep`). A stored dict is read into a
    :class:`~figgen.schema.record.Record` first.
    """
    ctx = figure_context(as_record(record), kinds, keep)
    figure_questions(ctx)
    for panel in ctx.panels:
        panel_questions(ctx, panel)
        KINDS[panel.kind].panel_questions(ctx, panel, 2)
        KINDS[panel.kind].panel_questions(ctx, panel, 3)
    cross_questions(ctx)
    return ctx.items
