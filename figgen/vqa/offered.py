"""The plot kinds a build offers as plot-type choices, and a record's question context with
them: both read the kind registry, so they sit above the kinds, unlike the context itself."""

from __future__ import annotations

from typing import Any

from figgen.kinds import KINDS, default_mix
from figgen.records import Record, as_record
from figgen.vqa.context import FigureContext


def offered_kinds(weights: dict[str, float] | None = None) -> tuple[str, ...]:
    """The kinds a build can draw (weight > 0), in registry order: the plot-type choices."""
    weights = default_mix() if weights is None else weights
    return tuple(name for name in KINDS if weights.get(name, 0.0) > 0)


def figure_context(
    record: Record | dict[str, Any], kinds: tuple[str, ...] | None = None
) -> FigureContext:
    """The context of one record offering ``kinds`` (default: the default mix's); a record from
    a build with other weights offers the kinds it draws too, in registry order."""
    offered = offered_kinds() if kinds is None else kinds
    record = as_record(record)
    drawn = {p.kind for p in record.panels}
    if not drawn <= set(offered):
        offered = tuple(k for k in KINDS if k in offered or k in drawn)
    return FigureContext(record, offered)
