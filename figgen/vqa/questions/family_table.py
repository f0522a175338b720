"""The question-family table: every declared family and the plot kinds it is asked of.

Generic families are declared in :mod:`figgen.vqa.api.families`, kind-owned ones in the kind's
module; importing :mod:`figgen.kinds` (done here) declares them all.
"""

from __future__ import annotations

from dataclasses import dataclass

from figgen.kinds import KINDS
from figgen.vqa.api.families import EVERY_PANEL, FAMILIES, Family


@dataclass(frozen=True)
class FamilyRow:
    """One row of the table: a family and the kinds whose panels it is asked of."""

    family: Family
    kinds: tuple[str, ...]
    """Empty for figure and cross-panel families (asked of the figure, not of one panel)."""


def family_table() -> list[FamilyRow]:
    """Every family, generic ones first, in declaration order."""
    rows = []
    for family in FAMILIES.values():
        if family.scope != "panel":
            kinds: tuple[str, ...] = ()
        elif family in EVERY_PANEL:
            kinds = tuple(KINDS)
        else:
            kinds = tuple(name for name, kind in KINDS.items() if family in kind.families)
        rows.append(FamilyRow(family, kinds))
    return rows


def is_count(family: str) -> bool:
    """Whether a family's answers count something (False for a family this version lacks)."""
    known = FAMILIES.get(family)
    return known is not None and known.is_count
