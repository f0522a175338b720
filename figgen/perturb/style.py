"""Style transfer: the same figure drawn again with another style sheet, its boxes measured anew.

The paper redraws charts in another look (appendix B); figgen redraws the exact spec of the
record with another matplotlib style sheet, so the data, the colours of the series and every
question stay as they were, and the boxes come from the new drawing. Where no sheet changes
the picture (a dark figure, a table, a pie with its own colours) the font changes instead. A
look is kept only when the new drawing differs from the old and has the same elements (kind,
panel, series, item, text) in the same order, so the evidence ids of the questions still name
the same marks and every text a question reads is the same; on a figure dataset also only
when the questions, answers, evidence and descriptions made from the new record are exactly
the stored ones, so each question is still answerable from the new drawing (a look that hides
a counted point under another fails). Otherwise the next look in the seeded order is tried; a
figure no look keeps is left out of the perturbed dataset (``NoLook``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from figgen.errors import FiggenError
from figgen.perturb.kinds import Look
from figgen.schema.elements import Element
from figgen.schema.record import Record

if TYPE_CHECKING:
    from figgen.config.load import FigureConfig


class NoLook(FiggenError):
    """No other look of a figure keeps what its questions need (the figure is left out)."""


Keeps = Callable[[Record], bool]
"""Whether a redrawn record still carries every question of the clean one."""


def _structure(elements: list[Element]) -> list[tuple[Any, ...]]:
    # the text too: another sheet may place other numbers at as many ticks (``classic``
    # rounds the axis limits), and a tick-value question reads them
    return [(e.kind, e.panel, e.series, e.item, e.text) for e in elements]


def same_questions(clean: Record) -> Keeps:
    """A check that a redrawn record gives exactly the clean record's questions, answers,
    evidence and descriptions: what is asked stays answerable from the new drawing (no point
    newly hidden under another, no bar newly under the frame)."""
    from figgen.vqa.files import FigureTexts

    def texts(record: Record) -> tuple[list[str], list[str]]:
        made = FigureTexts.of(record, None)  # the plot-type choices alike on both sides
        return made.qa, made.descriptions

    wanted = texts(clean)
    return lambda redrawn: texts(redrawn) == wanted


def restyled(
    record: Record,
    candidates: list[Look],
    original: bytes,
    *,
    keeps: Keeps | None = None,
    cfg: FigureConfig | None = None,
) -> tuple[bytes, Record, Look]:
    """The PNG and record of the first look whose drawing differs from the ``original`` PNG (a
    sheet changes nothing in a pie with its own colours), keeps the figure's elements and
    texts, and passes ``keeps``; :class:`NoLook` if none does.

    The record is the clean one with the new drawing's look, image size, boxes and repair log.
    """
    from figgen.build.figure import render_to_record
    from figgen.config.load import FigureConfig
    from figgen.schema.record import spec_from_record

    spec = spec_from_record(record)
    wanted = _structure(record.elements)
    for look in candidates:
        style = dataclasses.replace(
            spec.style, mpl_style=look.mpl_style, font_family=look.font_family
        )
        drawn = render_to_record(
            dataclasses.replace(spec, style=style),
            cfg or FigureConfig(),
            image_file=record.image.file,
        )
        if drawn.png == original:
            continue
        new = drawn.record
        if _structure(new.elements) != wanted:
            continue
        redrawn = dataclasses.replace(
            record,
            image=dataclasses.replace(new.image, file=record.image.file),
            style=new.style,
            elements=new.elements,
            repair=new.repair,
        )
        if keeps is None or keeps(redrawn):
            return drawn.png, redrawn, look
    raise NoLook(
        f"figure {record.id}: no other look keeps its ticks, texts and questions "
        "(a figure drawn with the classic sheet often has none)"
    )
