"""Point correspondence between a predicted and a ground-truth chart table (appendix A.1).

Series: labels are case-folded and stripped. A chart with one series on each side pairs them
directly. Otherwise extracted and ground-truth series are assigned one-to-one by Levenshtein
distance, a pair allowed when ``d <= max(len) / 2``. The mapping is reliable when it pairs
``min(#extracted, #ground truth)`` series; else rows are paired in order (extracted rows in
reply order against ground-truth rows in table order).

x values, within each mapped series: numeric x one-to-one by distance within ``x_tolerance``
times the chart's ground-truth x range; categorical x by case-folded label, then the remaining
points in row order.

Two assignment rules, for series and numeric x alike: ``greedy`` is A.1 to the letter (each
extracted item proposes its nearest allowed ground-truth item, proposals taken in ascending
distance, each ground-truth item at most once); ``hungarian`` is Kuhn's optimal assignment
(as many allowed pairs as possible, then the least total distance).

Pairs are formed first and excluded after (A.1: "only pairs for which both x and y values can
be converted to valid numerical values are included"): a pair counts when its extracted x is
valid (a number on a numeric chart, non-empty otherwise) and both y values are numbers. So an
unreadable cell drops its own pair and never shifts the rows after it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from rapidfuzz.distance import Levenshtein

from figgen.density.tables import ChartTable, Row, XKind
from figgen.eval.scoring.parse import Rejected, parse_number

X_TOLERANCE = 0.05
"""Default numeric x tolerance: 5% of the chart's ground-truth x range (half the spacing of
an evenly spaced 11-point line)."""

SeriesMapping = Literal["single", "names", "row_order"]
Matching = Literal["greedy", "hungarian"]
MATCHINGS: tuple[Matching, ...] = ("greedy", "hungarian")
"""``greedy``: appendix A.1's literal rule (the default); ``hungarian``: optimal assignment."""

Distance = Callable[[int, int], float | None]
"""Distance between left item i and right item j; None when the pair is not allowed."""


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
    x: str
    x_value: float | None  # the x number on a numeric chart, else None
    y: float | None
    valid: bool  # x valid for the chart and y a number: the point can be scored


def _points(rows: Sequence[Row], x_kind: XKind) -> list[_Point]:
    """Every row as a point, valid or not (pairs are formed before invalid ones are dropped)."""
    points = []
    for row in rows:
        x_value = cell_number(row.x) if x_kind == "numeric" else None
        y = cell_number(row.y)
        points.append(_Point(row.x, x_value, y, y is not None and valid_x(row.x, x_kind)))
    return points


@dataclass
class ChartMatch:
    """The matched ``(predicted y, true y)`` pairs and how they were found."""

    pairs: list[tuple[float, float]] = field(default_factory=list)
    mapping: SeriesMapping = "single"
    matched_series: int = 0
    excluded: int = 0
    """Pairs formed but left out: an invalid extracted x, or a y that is not a number."""

    def add(self, pairs: Sequence[tuple[_Point, _Point]]) -> None:
        """Keep the pairs whose both points can be scored; count the others as excluded."""
        for pred, true in pairs:
            if pred.valid and true.valid:
                assert pred.y is not None and true.y is not None
                self.pairs.append((pred.y, true.y))
            else:
                self.excluded += 1


def greedy_nearest(n_left: int, n_right: int, distance: Distance) -> list[tuple[int, int]]:
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


def hungarian(n_left: int, n_right: int, distance: Distance) -> list[tuple[int, int]]:
    """The most allowed one-to-one pairs, and among those the least total distance (Kuhn)."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment

    if not n_left or not n_right:
        return []
    allowed = np.zeros((n_left, n_right), dtype=bool)
    cost = np.zeros((n_left, n_right))
    for i in range(n_left):
        for j in range(n_right):
            d = distance(i, j)
            if d is not None:
                allowed[i, j], cost[i, j] = True, d
    # a forbidden pair costs more than every allowed distance together, so the optimum first
    # maximises the number of allowed pairs, then minimises their total distance
    cost[~allowed] = cost[allowed].sum() + 1.0
    rows, cols = linear_sum_assignment(cost)
    return sorted((int(i), int(j)) for i, j in zip(rows, cols, strict=True) if allowed[i, j])


ASSIGN: dict[Matching, Callable[[int, int, Distance], list[tuple[int, int]]]] = {
    "greedy": greedy_nearest,
    "hungarian": hungarian,
}


def map_series(
    predicted: Sequence[str], truth: Sequence[str], matching: Matching = "greedy"
) -> list[tuple[int, int]] | None:
    """Index pairs (extracted, ground truth) by name, or None when no reliable mapping exists."""
    if len(predicted) == 1 and len(truth) == 1:
        return [(0, 0)]
    left = [normalise_label(s) for s in predicted]
    right = [normalise_label(s) for s in truth]

    def distance(i: int, j: int) -> float | None:
        d = Levenshtein.distance(left[i], right[j])
        return float(d) if d <= max(len(left[i]), len(right[j])) / 2 else None

    pairs = ASSIGN[matching](len(left), len(right), distance)
    return pairs if pairs and len(pairs) == min(len(left), len(right)) else None


def _by_series(rows: Sequence[Row]) -> dict[str, list[Row]]:
    groups: dict[str, list[Row]] = {}
    for row in rows:
        groups.setdefault(normalise_label(row.series), []).append(row)
    return groups


def _match_numeric(
    pred: list[_Point], true: list[_Point], tolerance: float, matching: Matching
) -> list[tuple[_Point, _Point]]:
    """Pairs by x distance; only points whose x is a number can be placed on the x axis."""
    left = [p for p in pred if p.x_value is not None]
    right = [t for t in true if t.x_value is not None]

    def distance(i: int, j: int) -> float | None:
        a, b = left[i].x_value, right[j].x_value
        assert a is not None and b is not None
        d = abs(a - b)
        return d if d <= tolerance else None

    return [(left[i], right[j]) for i, j in ASSIGN[matching](len(left), len(right), distance)]


def _match_categorical(pred: list[_Point], true: list[_Point]) -> list[tuple[_Point, _Point]]:
    pairs: list[tuple[_Point, _Point]] = []
    free = list(range(len(true)))
    left = []
    for point in pred:
        label = normalise_label(point.x)
        j = next((j for j in free if normalise_label(true[j].x) == label), None)
        if j is None:
            left.append(point)
        else:
            free.remove(j)
            pairs.append((point, true[j]))
    pairs += [(point, true[j]) for point, j in zip(left, free, strict=False)]
    return pairs


def x_tolerance_of(truth: ChartTable, x_tolerance: float) -> float:
    """The absolute x tolerance on a numeric chart: a fraction of its ground-truth x range."""
    values = [v for r in truth.rows if (v := cell_number(r.x)) is not None]
    span = max(values) - min(values) if values else 0.0
    return x_tolerance * (span if span > 0 else max(1.0, abs(values[0]) if values else 1.0))


def match_chart(
    predicted: Sequence[Row],
    truth: ChartTable,
    *,
    x_tolerance: float = X_TOLERANCE,
    matching: Matching = "greedy",
) -> ChartMatch:
    """Match a predicted table against the ground truth of the chart it was aligned with."""
    kind = truth.x_kind
    pred_groups, true_groups = _by_series(predicted), _by_series(truth.rows)
    pred_names, true_names = list(pred_groups), list(true_groups)
    mapping = map_series(pred_names, true_names, matching)
    if mapping is None:
        match = ChartMatch(mapping="row_order")
        match.add(list(zip(_points(predicted, kind), _points(truth.rows, kind), strict=False)))
        return match
    tolerance = x_tolerance_of(truth, x_tolerance) if kind == "numeric" else 0.0
    match = ChartMatch(mapping="single" if len(true_names) == 1 == len(pred_names) else "names")
    for i, j in mapping:
        pred = _points(pred_groups[pred_names[i]], kind)
        true = _points(true_groups[true_names[j]], kind)
        match.add(
            _match_numeric(pred, true, tolerance, matching)
            if kind == "numeric"
            else _match_categorical(pred, true)
        )
        match.matched_series += 1
    return match


def valid_truth_points(truth: ChartTable) -> int:
    """Ground-truth points that can be matched: a valid x and a numeric y."""
    return sum(point.valid for point in _points(truth.rows, truth.x_kind))
