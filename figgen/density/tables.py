"""Ground-truth tables ``(series, x, y)`` of source charts, from figgen records or CSV files.

A figgen line panel gives one row per drawn marker (its series label, x and y); a panel whose
line has no marker symbol is skipped, because its data points are not visible on the chart. A
bar panel gives one row per bar (series, category, value). Those are the paper's kinds and the
default; the box, range and heatmap kinds' tables are used when chosen (``kinds``): each kind
says how its panels read as a table (its ``chart_table`` declaration).
An external folder holds ``NAME.png`` beside ``NAME.csv`` with the columns ``series,x,y``.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from figgen.errors import FiggenError
from figgen.schema.truth_table import ChartTable, PanelTable, Row, XKind, number_text
from figgen.words.wording import join

if TYPE_CHECKING:
    from figgen.schema.panel import PanelRecord

__all__ = [
    "ChartTable",
    "Row",
    "SourceChart",
    "XKind",
    "load_sources",
    "number_text",
    "read_csv_table",
]


@dataclass(frozen=True)
class SourceChart:
    """One source chart: an id, its ground-truth table and where its picture comes from.

    ``image`` is a PNG file (external folder) or None for figgen panels, which are rendered
    from ``figure`` (the record's path) and ``panel`` (its index) when composing.
    """

    id: str
    kind: str
    table: ChartTable
    image: Path | None = None
    figure: Path | None = None
    panel: int | None = None


PAPER_KINDS = ("line", "bar")
"""The source kinds of the paper (line and bar charts), and the default choice."""


def panel_tables(kinds: Collection[str] | None = None) -> dict[str, PanelTable]:
    """The plot kinds whose panels carry a ground-truth table, and how each reads it; with
    ``kinds``, only those (in the registry's order). A name without a table is an error."""
    from figgen.kinds import KINDS

    tables = {name: kind.chart_table for name, kind in KINDS.items() if kind.chart_table}
    if kinds is None:
        return tables
    unknown = sorted(set(kinds) - set(tables))
    if unknown:
        raise FiggenError(
            f"--kinds {','.join(unknown)}: no such plot kind has a table; "
            f"choose from {','.join(tables)}"
        )
    return {name: read for name, read in tables.items() if name in kinds}


def is_figgen_build(folder: Path) -> bool:
    return (folder / "figures").is_dir() and any((folder / "figures").glob("*.json"))


SKIP_NO_MARKERS = "line panels without markers (their data points are not visible)"
SKIP_EMPTY = "panels with no data row"
SKIP_NO_TABLE = {
    "line": SKIP_NO_MARKERS,
    "range": "range bands (their positions are not marked)",
    "heatmap": "heatmap panels without a colour bar that gives one value per colour",
}
"""Why a chosen kind's panel shows no table (its ``chart_table`` gave None)."""


def _skip_reason(
    panel: PanelRecord,
    table: ChartTable | None,
    tables: dict[str, PanelTable],
    kinds: Collection[str],
    with_table: Collection[str],
) -> str | None:
    """Why a panel is not a source chart, or None when it is one (``with_table``: every kind
    that has a table, chosen or not)."""
    if panel.kind not in tables:
        if panel.kind in with_table:  # it has a table, but was not chosen
            return f"{panel.kind} panels (not among --kinds {','.join(kinds)})"
        return f"{panel.kind} panels (only {join(list(tables))} charts have a table)"
    if table is None:
        return SKIP_NO_TABLE.get(panel.kind, f"{panel.kind} panels that show no table")
    return None if table.rows else SKIP_EMPTY


def figgen_sources(
    folder: Path, skipped: dict[str, int] | None = None, kinds: Collection[str] = PAPER_KINDS
) -> list[SourceChart]:
    """Every panel of a figgen build whose kind is one of ``kinds`` and has a table, in figure
    and panel order; the panels left out are counted by reason into ``skipped``."""
    from figgen.schema.record import open_record

    tables, with_table = panel_tables(kinds), panel_tables()
    sources = []
    for path in sorted((folder / "figures").glob("*.json")):
        record = open_record(path)
        for panel in record.panels:
            reader = tables.get(panel.kind)
            table = reader(panel) if reader else None
            reason = _skip_reason(panel, table, tables, kinds, with_table)
            if reason is not None:
                if skipped is not None:
                    skipped[reason] = skipped.get(reason, 0) + 1
            elif table is not None:
                sources.append(
                    SourceChart(
                        f"{record.id}-p{panel.index}",
                        panel.kind,
                        table,
                        figure=path,
                        panel=panel.index,
                    )
                )
    return sources


# ---- external folders of PNG + CSV ---------------------------------------------------------

COLUMNS = ("series", "x", "y")


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def read_csv_table(path: Path) -> ChartTable:
    """A ``series,x,y`` CSV (header required, any column order, extra columns ignored).

    x is numeric when every x entry is a number, else categorical; every y must be a number.
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise FiggenError(f"{path} is not UTF-8 text; save the table as a UTF-8 CSV") from None
    reader = csv.DictReader(io.StringIO(text))
    header = [name.strip().lower() for name in reader.fieldnames or []]
    missing = [c for c in COLUMNS if c not in header]
    if missing:
        raise FiggenError(
            f"{path} has no column {', '.join(missing)} (header: {','.join(header) or 'empty'}); "
            "the first line must name the columns series,x,y"
        )
    rows = []
    for number, raw in enumerate(reader, start=2):
        cells = {k.strip().lower(): (v or "").strip() for k, v in raw.items() if k is not None}
        series, x, y = (cells.get(column, "") for column in COLUMNS)
        if not (series or x or y):
            continue
        if not x:
            raise FiggenError(f"{path} line {number} has an empty x; fill it or drop the row")
        if not _is_number(y):
            raise FiggenError(
                f"{path} line {number}: y {y!r} is not a number; write a plain number"
            )
        rows.append(Row(series, x, y))
    if not rows:
        raise FiggenError(f"{path} holds no data rows; add rows of series,x,y")
    x_kind: XKind = "numeric" if all(_is_number(r.x) for r in rows) else "categorical"
    return ChartTable(tuple(rows), x_kind)


def folder_sources(folder: Path) -> list[SourceChart]:
    """``NAME.png`` + ``NAME.csv`` pairs; a PNG without its CSV is an error, not a skip."""
    images = sorted(folder.glob("*.png"))
    if not images:
        raise FiggenError(
            f"{folder} holds no PNG charts; pass a figgen build or a folder of NAME.png + NAME.csv"
        )
    sources = []
    for image in images:
        table_path = image.with_suffix(".csv")
        if not table_path.is_file():
            raise FiggenError(f"{image} has no table {table_path.name}; add a series,x,y CSV")
        sources.append(SourceChart(image.stem, "external", read_csv_table(table_path), image))
    return sources


def load_sources(
    folder: str | Path,
    skipped: dict[str, int] | None = None,
    kinds: Collection[str] = PAPER_KINDS,
) -> list[SourceChart]:
    """The source charts of a figgen build (its panels of ``kinds``) or of a folder of PNG + CSV
    pairs; a build's panels that are not source charts are counted by reason into ``skipped``."""
    folder = Path(folder)
    if not folder.is_dir():
        raise FiggenError(f"--source {folder} is not a folder; pass a figgen build or PNG + CSV")
    if is_figgen_build(folder):
        sources = figgen_sources(folder, skipped, kinds)
    else:
        sources = folder_sources(folder)
    if not sources:
        raise FiggenError(
            f"{folder} has no chart with a table (line panels with markers, bar panels); "
            "build with more line panels, e.g. a config with kinds = {line = 1}"
        )
    return sources


def tables_by_id(sources: Iterable[SourceChart]) -> dict[str, ChartTable]:
    return {source.id: source.table for source in sources}
