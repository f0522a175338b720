"""A model's reply -> one predicted table per chart, with formatting problems recorded apart.

Charts are separated by the first cue present, in this order:

1. ``explicit``: heading lines such as "Chart 2", "### Subplot 3:", "**Panel (b)**";
2. ``column``: a table column naming the chart (``| Chart | Series Name | X | Y |``);
3. ``tables``: several separate tables, each starting with its own header row;
4. ``structural``: one continuous table (the paper's "structural cues such as x-axis
   sequences and series structure"): rows are cut into series runs where the series name
   changes or the x sequence resets (an x repeats, or numeric x turn back), and a run starts
   a new chart when its series name is already in the current chart or it shares fewer than
   half of its x entries with it;
5. ``single``: one chart.

Reasoning wrapped in ``<think>`` tags is ignored, and a table row holding only a heading
("| **Chart 2** | | |") counts as a heading. A reply with no table row is a formatting failure
(``no_table``); rows with fewer than three cells are counted as ``malformed_rows``. Neither
is a numeric error: cells are kept as text and converted to numbers only when scored.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from typing import Any, Literal

from figgen.density.match import cell_number
from figgen.density.tables import Row

Segmentation = Literal["explicit", "column", "tables", "structural", "single", "none"]

_HEADING = re.compile(
    r"^\s*(?:#+\s*|\*\*|__)?\s*(?:chart|sub-?chart|sub-?plot|panel|figure|plot|graph)\s*"
    r"(?:no\.?\s*)?[#(\[]?\s*(\d+|[a-z])\b",
    re.IGNORECASE,
)
_SEPARATOR = re.compile(r"^:?-{2,}:?$")
_THINKING = re.compile(r"<think(?:ing)?>.*?</think(?:ing)?>", re.DOTALL | re.IGNORECASE)
_CHART_COLUMN = ("chart", "subplot", "sub-plot", "panel", "figure", "plot")


@dataclass
class ParsedReply:
    """Predicted tables in chart order and what went wrong with the format."""

    charts: list[list[Row]] = field(default_factory=list)
    segmentation: Segmentation = "none"
    malformed_rows: int = 0
    format_error: str | None = None

    def summary(self) -> dict[str, Any]:
        """What an answers row keeps: rows per chart and the format, not the cells (scoring
        parses the raw reply again)."""
        return {
            "rows_per_chart": [len(chart) for chart in self.charts],
            "segmentation": self.segmentation,
            "malformed_rows": self.malformed_rows,
            "format_error": self.format_error,
        }


@dataclass
class _Columns:
    series: int = 0
    x: int = 1
    y: int = 2
    chart: int | None = None


def _cells(line: str) -> list[str] | None:
    """The cells of a markdown table row, or None when the line is not one."""
    text = line.strip()
    if text.count("|") < 2:
        return None
    parts = [cell.strip() for cell in text.strip("|").split("|")]
    return [p.strip("*_` ") for p in parts]


def _header_columns(cells: list[str]) -> _Columns | None:
    """Column positions when ``cells`` is a header row ("Series Name | X Value | Y Value")."""
    lowered = [c.lower() for c in cells]
    if not any(c.startswith("x") or "x value" in c for c in lowered):
        return None
    columns = _Columns(chart=None)
    for i, c in enumerate(lowered):
        if any(c.startswith(word) for word in _CHART_COLUMN):
            columns.chart = i
        elif "series" in c or c == "name":
            columns.series = i
        elif c.startswith("x"):
            columns.x = i
        elif c.startswith("y") or "value" in c:
            columns.y = i
    return columns


@dataclass(frozen=True)
class _Entry:
    heading: int  # headings seen before the row, minus one (-1: before any heading)
    table: int  # header rows seen before the row
    chart_key: str | None
    row: Row


def _grouped(entries: list[_Entry], key: Any) -> list[list[Row]]:
    groups: dict[Any, list[Row]] = {}
    for entry in entries:
        groups.setdefault(key(entry), []).append(entry.row)
    return list(groups.values())


def parse_tables(text: str | None) -> ParsedReply:
    """Split a reply into per-chart tables (see the module docstring for the cues)."""
    result = ParsedReply()
    if not text or not text.strip():
        result.format_error = "empty_reply"
        return result
    entries: list[_Entry] = []
    columns = _Columns()
    headings, tables = -1, 0
    width = 3
    for line in _THINKING.sub("", text).splitlines():
        if line.lstrip().startswith("```"):
            continue
        cells = _cells(line)
        if cells is None or (not any(cells[1:]) and _HEADING.match(cells[0])):
            if _HEADING.match(line.strip().strip("|")):
                headings += 1
            continue
        # cheap tests on the whole line first: most lines are data rows
        if "--" in line and any(cells) and all(_SEPARATOR.match(c) for c in cells if c):
            continue
        lowered = line.lower()
        header = _header_columns(cells) if "series" in lowered or "name" in lowered else None
        if header is not None:
            columns = header
            width = max(columns.series, columns.x, columns.y, columns.chart or 0) + 1
            tables += 1
            continue
        if len(cells) == 4 and width == 3:  # an unlabelled chart column first
            columns = _Columns(series=1, x=2, y=3, chart=0)
            width = 4
        if len(cells) < width:
            result.malformed_rows += 1
            continue
        row = Row(cells[columns.series], cells[columns.x], cells[columns.y])
        key = cells[columns.chart] if columns.chart is not None else None
        entries.append(_Entry(headings, tables, key, row))
    if not entries:
        result.format_error = "no_table"
        return result
    if headings >= 0:
        result.charts = _grouped(entries, lambda e: e.heading)
        result.segmentation = "explicit"
    elif any(e.chart_key for e in entries):
        result.charts = _grouped(entries, lambda e: e.chart_key or "")
        result.segmentation = "column"
    elif len({e.table for e in entries}) > 1:
        result.charts = _grouped(entries, lambda e: e.table)
        result.segmentation = "tables"
    else:
        result.charts = split_structurally([e.row for e in entries])
        result.segmentation = "structural" if len(result.charts) > 1 else "single"
    return result


def _norm(text: str) -> str:
    return " ".join(text.casefold().split())


def _resets(run: list[Row], row: Row) -> bool:
    """Whether ``row`` starts the series' x sequence again: its x repeats one of the run, or
    a numeric x steps back against the direction the run has kept so far."""
    x = _norm(row.x)
    if any(_norm(r.x) == x for r in run):
        return True
    new = cell_number(row.x)
    values = [v for r in run if (v := cell_number(r.x)) is not None]
    if new is None or len(values) < 2 or len(values) < len(run):
        return False
    steps = [b - a for a, b in itertools.pairwise(values)]
    rising, falling = all(d > 0 for d in steps), all(d < 0 for d in steps)
    return (rising and new < values[-1]) or (falling and new > values[-1])


def series_runs(rows: list[Row]) -> list[list[Row]]:
    """Consecutive rows of one series name, cut where the x sequence resets: two charts in a
    row whose series have the same name ("Series 1") are two runs."""
    runs: list[list[Row]] = []
    for row in rows:
        if runs and _norm(runs[-1][-1].series) == _norm(row.series) and not _resets(runs[-1], row):
            runs[-1].append(row)
        else:
            runs.append([row])
    return runs


def split_structurally(rows: list[Row]) -> list[list[Row]]:
    """Cut one continuous table into charts: a series run starts a new chart when its name is
    already in the current chart (the series set repeats) or it shares fewer than half of its
    x entries with the current chart (another x axis)."""
    charts: list[list[Row]] = []
    names: set[str] = set()
    xs: set[str] = set()
    for run in series_runs(rows):
        name = _norm(run[0].series)
        run_xs = {_norm(r.x) for r in run}
        shared = len(run_xs & xs) / max(1, min(len(run_xs), len(xs)))
        if not charts or name in names or shared < 0.5:
            charts.append([])
            names, xs = set(), set()
        charts[-1] += run
        names.add(name)
        xs |= run_xs
    return charts
