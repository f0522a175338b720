"""Style transfer: the same figure drawn again with another style sheet, its boxes measured anew.

The paper redraws charts in another look (appendix B); figgen redraws the exact spec of the
record with another matplotlib style sheet, so the data, the colours of the series and every
question stay as they were, and the boxes come from the new drawing. Where no sheet changes
the picture (a dark figure, a table, a pie with its own colours) the font changes instead. A
look is kept only when the new drawing differs from the old and has the same elements (kind,
panel, series, item) in the same order, so the evidence ids of the questions still name the
same marks; otherwise the next look in the seeded order is tried.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from figgen.config import FigureConfig
from figgen.config_sections import StyleConfig
from figgen.errors import FiggenError
from figgen.perturb.kinds import Look
from figgen.record import Element
from figgen.records import Record

RECOLOURING = ("grayscale", "tableau-colorblind10")
"""Sheets of figgen's style list that change the marks' colours, which questions ask about."""
SHEETS = tuple(s for s in StyleConfig().styles if s not in RECOLOURING)
FONTS = ("DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono")
"""Other looks where no sheet changes the picture (a dark figure, a table, a pie): the font."""


def looks(record: Record, rng: np.random.Generator) -> list[Look]:
    """The other looks of a figure in a seeded order: other sheets first, then other fonts."""
    sheet, font = record.style.mpl_style, record.style.font_family
    sheets = [] if record.style.dark else [s for s in SHEETS if s != sheet]
    fonts = [f for f in FONTS if f != font]
    return [Look(sheets[int(i)], font) for i in rng.permutation(len(sheets))] + [
        Look(sheet, fonts[int(i)]) for i in rng.permutation(len(fonts))
    ]


def _structure(elements: list[Element]) -> list[tuple[Any, ...]]:
    return [(e.kind, e.panel, e.series, e.item) for e in elements]


def restyled(
    record: Record, candidates: list[Look], original: bytes, cfg: FigureConfig | None = None
) -> tuple[bytes, Record, Look]:
    """The PNG and record of the first look whose drawing keeps the figure's elements and
    differs from the ``original`` PNG (a sheet changes nothing in a pie with its own colours)."""
    from figgen.generate import render_to_record
    from figgen.record import spec_from_record

    spec = spec_from_record(record.to_dict())
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
        redrawn = Record.from_dict(drawn.record)
        if drawn.png != original and _structure(redrawn.elements) == wanted:
            return drawn.png, redrawn, look
    raise FiggenError(
        f"figure {record.id}: no other style keeps its elements; leave style out of --kinds"
    )
