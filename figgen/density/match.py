"""Point correspondence between a predicted and a ground-truth chart table (appendix A.1).

Series: labels are case-folded and stripped. A chart with one series on each side pairs them
directly. Otherwise every extracted series proposes its closest ground-truth series by
Levenshtein distance, accepted when ``d <= max(len) / 2``; proposals are taken in ascending
distance, each ground-truth series at most once. The mapping is reliable when it pairs
``min(#extracted, #ground truth)`` series; else rows are paired in order (extracted rows in
reply order against ground-truth rows in table order).

x values, within each mapped series: numeric x by greedy one-to-one nearest neighbour (each
extracted point proposes its closest ground-truth x, proposals in ascending distance, each
ground-truth point used once) within ``x_tolerance`` times the chart's ground-truth x range;
categorical x by case-folded label, then the remaining points in row order.

Only points whose x is valid (a number for numeric charts, non-empty otherwise) and whose y is
a number take part, so every matched pair can be scored.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from rapidfuzz.distance import Levenshtein

from figgen.density.tables import ChartTable, Row, XKind
from figgen.eval.parse import Rejected, parse_number

X_TOLERANCE = 0.05
"""Default numeric x tolerance: 5% of the chart's ground-truth x range (half the spacing of
an evenly spaced 11-point line)."""

SeriesMapping = Literal["single", "names", "row_order"]


_NUMBER_CELL = re.compile(
    r"^(?:~|≈|approx\.?|about)?\s*[$€£]?\s*[-+\u2212]?(?:\d[\d,]*\.?\d*|\.\d+)"
    r"(?:[eE][-+]?\d+)?\s*[A-Za-z%°/]{0,8}$",
    re.IGNORECASE,
)


def cell_number(text: str) -> float | None:
    """The number a table cell holds ("1,234.5", "~12 %", "-3e2", "$5"), or None.

    The whole cell must be one number with at most a short unit, so labels such as "Q3" or
    "Series 2" are not numbers.
    """
    if not _NUMBER_CELL.match(text.strip()):
        return None
    try:
        return parse_number(text)
    except Rejected:
        return None


def normalise_label(text: str) -> str:
    return text.strip().casefold()


def valid_x(text: str, x_kind: XKind) -> bool:
    """A counted x entry: a number on a numeric chart, any non-empty label otherwise."""
    return cell_number(text) is not None if x_kind == "numeric" else bool(text.strip())


@dataclass(frozen=True)
class _Point:
    row: int  # position in its table
    x: str
    x_value: float | None
    y: float


@dataclass
class ChartMatch:
    """The matched ``(predicted y, true y)`` pairs and how they were found."""

    pairs: list[tuple[float, float]] = field(default_factory=list)
    mapping: SeriesMapping = "single"
    matched_series: int = 0


def _points(rows: Sequence[Row], x_kind: XKind) -> list[_Point]:
    points = []
    for i, row in enumerate(rows):
        y = cell_number(row.y)
        if y is None or not valid_x(row.x, x_kind):
            continue
        points.append(_Point(i, row.x, cell_number(row.x) if x_kind == "numeric" else None, y))
    return points


def greedy_nearest(
    n_left: int, n_right: int, distance: Callable[[int, int], float | None]
) -> list[tuple[int, int]]:
    """One-to-one pairs: each left item proposes its nearest right item (``distance`` None
    means not allowed), proposals taken in ascending distance, each right item once."""
    proposals = []
    for i in range(n_left):
        best: tuple[float, int] | None = None
        for j in range(n_right):
            d = distance(i, j)
            if d is not None and (best is None or d < best[0]):
                best = (d, j)
        if best is not None:
            proposals.append((best[0], i, best[1]))
    used: set[int] = set()
    pairs = []
    for _, i, j in sorted(proposals):
        if j not in used:
            used.add(j)
            pairs.append((i, j))
    return pairs


def map_series(predicted: Sequence[str], truth: Sequence[str]) -> list[tuple[int, int]] | None:
    """Index pairs (extracted, ground truth) by name, or None when no reliable mapping exists."""
    if len(predicted) == 1 and len(truth) == 1:
        return [(0, 0)]
    left = [normalise_label(s) for s in predicted]
    right = [normalise_label(s) for s in truth]

    def distance(i: int, j: int) -> float | None:
        d = Levenshtein.distance(left[i], right[j])
        return float(d) if d <= max(len(left[i]), len(right[j])) / 2 else None

    pairs = greedy_nearest(len(left), len(right), distance)
    return pairs if pairs and len(pairs) == min(len(left), len(right)) else None


def _by_series(rows: Sequence[Row]) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(normalise_label(row.series), []).append(row)
    return groups


def _match_numeric(
    pred: list[_Point], true: list[_Point], tolerance: float
) -> list[tuple[int, int]]:
    def distance(i: int, j: int) -> float | None:
        a, b = pred[i].x_value, true[j].x_value
        assert a is not None and b is not None
        d = abs(a - b)
        return d if d <= tolerance else None

    return greedy_nearest(len(pred), len(true), distance)


def _match_categorical(pred: list[_Point], true: list[_Point]) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    free = list(range(len(true)))
    left = []
    for i, point in enumerate(pred):
        label = normalise_label(point.x)
        j = next((j for j in free if normalise_label(true[j].x) == label), None)
        if j is None:
            left.append(i)
        else:
            free.remove(j)
            pairs.append((i, j))
    pairs += list(zip(left, free, strict=False))
    return pairs


def x_tolerance_of(truth: ChartTable, x_tolerance: float) -> float:
    """The absolute x tolerance on a numeric chart: a fraction of its ground-truth x range."""
    values = [v for r in truth.rows if (v := cell_number(r.x)) is not None]
    span = max(values) - min(values) if values else 0.0
    return x_tolerance * (span if span > 0 else max(1.0, abs(values[0]) if values else 1.0))


def match_chart(
    predicted: Sequence[Row], truth: ChartTable, *, x_tolerance: float = X_TOLERANCE
) -> ChartMatch:
    """Match a predicted table against the ground truth of the chart it was aligned with."""
    kind = truth.x_kind
    pred_groups, true_groups = _by_series(predicted), _by_series(truth.rows)
    pred_names, true_names = list(pred_groups), list(true_groups)
    mapping = map_series(pred_names, true_names)
    if mapping is None:
        pairs = [
            (p.y, t.y)
            for p, t in zip(_points(predicted, kind), _points(truth.rows, kind), strict=False)
        ]
        return ChartMatch(pairs, "row_order", 0)
    tolerance = x_tolerance_of(truth, x_tolerance) if kind == "numeric" else 0.0
    match = ChartMatch(mapping="single" if len(true_names) == 1 == len(pred_names) else "names")
    for i, j in mapping:
        pred = _points(pred_groups[pred_names[i]], kind)
        true = _points(true_groups[true_names[j]], kind)
        found = (
            _match_numeric(pred, true, tolerance)
            if kind == "numeric"
            else _match_categorical(pred, true)
        )
        match.pairs += [(pred[a].y, true[b].y) for a, b in found]
        match.matched_series += 1
    return match


def valid_truth_points(truth: ChartTable) -> int:
    """Ground-truth points that can be matched: a valid x and a numeric y."""
    return len(_points(truth.rows, truth.x_kind))
