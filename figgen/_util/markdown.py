"""Markdown tables, the one writer every report uses."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any


def cell(value: Any, float_format: str = ".4g") -> str:
    """A table cell: – for missing, floats in ``float_format``."""
    if value is None:
        return "–"
    if isinstance(value, float):
        return format(value, float_format)
    return str(value)


def markdown_table(
    header: Sequence[str], rows: Iterable[Sequence[Any]], *, float_format: str = ".4g"
) -> list[str]:
    """The lines of a markdown table (floats to four significant digits unless told)."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    return lines + ["| " + " | ".join(cell(v, float_format) for v in row) + " |" for row in rows]


def table_text(
    header: Sequence[str], rows: Iterable[Sequence[Any]], *, float_format: str = ".4g"
) -> str:
    """The same table as one string."""
    return "\n".join(markdown_table(header, rows, float_format=float_format))
