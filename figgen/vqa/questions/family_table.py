"""The question-family table: every declared family and the plot kinds it is asked of.

Generic families are declared in :mod:`figgen.vqa.api.families`, kind-owned ones in the kind's
module; importing :mod:`figgen.kinds` (done here) declares them all.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from figgen._util.markdown import table_text
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


def series_families() -> frozenset[str]:
    """The families whose items name one line (or point set) and read every point of it."""
    return frozenset(name for name, family in FAMILIES.items() if family.names_series)


def is_count(family: str) -> bool:
    """Whether a family's answers count something (False for a family this version lacks)."""
    known = FAMILIES.get(family)
    return known is not None and known.is_count


SCOPES = ("figure", "panel", "cross-panel")
"""The order of scopes within a level in :func:`markdown_family_table`."""


def markdown_family_table() -> str:
    """The family table of docs/vqa.md: per level and scope (and for panel families the kinds
    they are asked of) the families; rows of one level and scope in declaration order."""
    groups: dict[tuple[int, str, str], list[str]] = {}
    for row in family_table():
        family = row.family
        where: str = family.scope
        if family.scope == "panel":
            where += " (every kind)" if family in EVERY_PANEL else f" ({', '.join(row.kinds)})"
        groups.setdefault((family.level, family.scope, where), []).append(f"`{family.name}`")
    order = sorted(groups, key=lambda key: (key[0], SCOPES.index(key[1])))  # stable: declared
    rows = [(level, where, ", ".join(groups[level, scope, where])) for level, scope, where in order]
    return table_text(("level", "scope", "families"), rows)


def markdown_balance_table() -> str:
    """The balance table of docs/vqa.md: per balanced family, in declaration order, the share
    of each dominant answer class a default build keeps (per stratum where the family has
    them) and the largest share any one answer may take."""
    rows = []
    for name, family in FAMILIES.items():
        if family.balance is None:
            continue
        tables = [("", family.balance.keep)] if family.balance.keep else []
        tables += [(f"{stratum}: ", classes) for stratum, classes in family.balance.by_kind.items()]
        kept = "; ".join(label + _kept(classes) for label, classes in tables) or "all"
        rows.append((f"`{name}`", kept, f"{family.balance.share_bound:.2f}"))
    return table_text(("family", "kept", "largest share"), rows)


def _kept(classes: Mapping[str, float]) -> str:
    return ", ".join(f'"{answer}" {100 * p:g}%' for answer, p in classes.items())
