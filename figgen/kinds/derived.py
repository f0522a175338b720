"""What the rest of figgen reads from the kinds' declarations: element-kind tables, the
LongChart chart names.

The element tables join the shared layout and text elements (:mod:`figgen.schema.elements`) with
each registered kind's ``elements``, in registration order; an element kind that two plot kinds
draw (``bar``, ``errorbar``) must be declared the same by both.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, cached_property

from figgen.errors import FiggenError
from figgen.kinds.api import KINDS, PlotKind
from figgen.schema.elements import SHARED_ELEMENTS, ElementDecl


@dataclass(frozen=True)
class ElementTables:
    """The element kinds by what they are, derived from the declarations."""

    declared: dict[str, ElementDecl]
    """Every element kind in schema order: the shared ones, then the kinds' own."""

    @cached_property
    def names(self) -> tuple[str, ...]:
        """The valid ``kind`` of an element."""
        return tuple(self.declared)

    @cached_property
    def text(self) -> frozenset[str]:
        """Kinds whose element carries a ``text`` field."""
        return frozenset(name for name, decl in self.declared.items() if decl.text)

    @cached_property
    def mark_text(self) -> frozenset[str]:
        """Texts a kind draws inside its plot area as part of the data (pie labels, table
        cells): they carry ``text`` but are placed by the kind, so overlap repair leaves them
        alone."""
        shared = {decl.name for decl in SHARED_ELEMENTS}
        return self.text - shared

    @cached_property
    def layout(self) -> frozenset[str]:
        """Kinds that frame the figure; every other non-text kind is a data mark."""
        return frozenset(d.name for d in SHARED_ELEMENTS if not d.text)

    @cached_property
    def marks(self) -> frozenset[str]:
        """Kinds merged per panel and series into one evidence region."""
        return frozenset(name for name, decl in self.declared.items() if decl.series_region)

    @cached_property
    def off_ink(self) -> frozenset[str]:
        """Kinds whose box centre need not lie on anything drawn: no point target."""
        return frozenset(name for name, decl in self.declared.items() if decl.off_ink)

    @cached_property
    def text_groups(self) -> dict[str, str]:
        """Text kinds merged per panel into one evidence region, and the region's name."""
        return {n: d.text_group for n, d in self.declared.items() if d.text_group is not None}

    @cached_property
    def colours(self) -> dict[str, str]:
        """The box colour of each kind in ``figgen show``."""
        return {name: decl.colour for name, decl in self.declared.items()}


def element_tables() -> ElementTables:
    """The element tables of the kinds registered now."""
    return _tables(len(KINDS))  # the registry only grows: its size names its state


@cache
def _tables(count: int) -> ElementTables:
    return derive_tables(KINDS.values())


def derive_tables(kinds: Iterable[PlotKind]) -> ElementTables:
    """The element tables of the shared elements and ``kinds``' declarations."""
    declared = {decl.name: decl for decl in SHARED_ELEMENTS}
    for kind in kinds:
        for decl in kind.elements:
            known = declared.setdefault(decl.name, decl)
            if known != decl:
                raise ValueError(
                    f"element kind {decl.name!r} of plot kind {kind.name!r} is declared "
                    f"differently before ({known}); declare it once and share it"
                )
    return ElementTables(declared)


def multichart_kinds() -> dict[str, PlotKind]:
    """The LongChart image kinds (``kind`` of an image node) and the plot kind drawing each."""
    return {chart: kind for kind in KINDS.values() for chart in kind.multichart_charts}


def multichart_kind(chart: str) -> PlotKind:
    """The plot kind that draws LongChart images of kind ``chart``."""
    kinds = multichart_kinds()
    if chart not in kinds:
        raise FiggenError(f"unknown chart kind {chart!r}; known: {', '.join(kinds)}")
    return kinds[chart]
