"""A chart's ground-truth table ``(series, x, y)`` as text, the answer ``figgen density`` scores.

A plot kind that has one reads it from its panels (its ``chart_table`` declaration); an
external folder gives it as a CSV beside each PNG (:mod:`figgen.density.tables`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from figgen.schema.panel import PanelRecord

XKind = Literal["numeric", "categorical"]


@dataclass(frozen=True)
class Row:
    """One table row as text: the series name, the x entry and the y value."""

    series: str
    x: str
    y: str


@dataclass(frozen=True)
class ChartTable:
    """A chart's data table; ``x_kind`` says whether x entries are numbers or labels."""

    rows: tuple[Row, ...]
    x_kind: XKind

    def series_names(self) -> list[str]:
        """Series names in order of first appearance."""
        return list(dict.fromkeys(row.series for row in self.rows))

    def to_dict(self) -> dict[str, Any]:
        return {"x_kind": self.x_kind, "rows": [[r.series, r.x, r.y] for r in self.rows]}

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> ChartTable:
        return cls(tuple(Row(*map(str, row)) for row in values["rows"]), values["x_kind"])

    def markdown(self) -> str:
        """The table in the answer format the prompt asks for."""
        lines = ["| Series Name | X Value | Y Value |", "|---|---|---|"]
        lines += [f"| {r.series} | {r.x} | {r.y} |" for r in self.rows]
        return "\n".join(lines)


PanelTable = Callable[["PanelRecord"], ChartTable | None]
"""Reads a stored panel's table; None where the panel shows none (a line without markers)."""


def number_text(value: float) -> str:
    """A float as the shortest text that reads back to it ("3.0" -> "3")."""
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text
