"""Pair then exclude, and the two assignment rules; expected values worked out by hand or by
brute force over every assignment."""

from __future__ import annotations

import itertools
import random

import pytest

from figgen.density.match import Distance, greedy_nearest, hungarian, map_series, match_chart
from figgen.density.metrics import score_chart

from .helpers import rows, table


def test_one_unreadable_value_drops_its_own_pair_and_shifts_nothing() -> None:
    # the reproduction: 2 series x 3 points; the reply renames the first series (no
    # reliable mapping: "zzz" is 5 edits from "alpha", so rows pair in order) and writes N/A
    # for its first y. Pairing all 6 rows in order, then excluding the N/A pair, leaves 5
    # exact pairs: MAE 0. Filtering first would pair 5 replies against the first 5 truths.
    truth = table(
        [("alpha", x, y) for x, y in ((1, 10), (2, 20), (3, 30))]
        + [("beta", x, y) for x, y in ((1, 40), (2, 50), (3, 60))]
    )
    reply = rows(
        ("zzz", 1, "N/A"),
        ("zzz", 2, 20),
        ("zzz", 3, 30),
        ("beta", 1, 40),
        ("beta", 2, 50),
        ("beta", 3, 60),
    )
    match = match_chart(reply, truth)
    assert match.mapping == "row_order" and match.excluded == 1
    assert match.pairs == [(20.0, 20.0), (30.0, 30.0), (40.0, 40.0), (50.0, 50.0), (60.0, 60.0)]
    score = score_chart(reply, truth)
    assert (score.mae, score.rmse, score.point_coverage) == (0, 0, pytest.approx(5 / 6))
    assert score.completeness == 1  # six x entries were extracted for six


def test_within_a_series_an_unreadable_value_keeps_its_x_slot() -> None:
    truth = table([("a", x, x) for x in (0, 10, 20, 30)])  # tolerance 5% of 30 = 1.5
    # x = 10 is paired with its "?" (then excluded); 10.5 would be the next nearest for the
    # true 10, but a true point is used once, so it stays unmatched
    reply = rows(("a", 0, 0), ("a", 10, "?"), ("a", 10.5, 99), ("a", 20, 20), ("a", 30, 30))
    match = match_chart(reply, truth)
    assert sorted(match.pairs) == [(0.0, 0.0), (20.0, 20.0), (30.0, 30.0)]
    assert match.excluded == 1


def test_an_invalid_extracted_x_excludes_its_pair_in_row_order() -> None:
    truth = table(
        [("a", "Mon", 1), ("a", "Tue", 2), ("b", "Mon", 3), ("b", "Tue", 4)], "categorical"
    )
    reply = rows(("x", "", 1), ("x", "Tue", 2), ("y", "Mon", 3), ("y", "Tue", 4))
    match = match_chart(reply, truth)  # "x", "y" map to nothing: row order
    assert match.mapping == "row_order" and match.excluded == 1
    assert match.pairs == [(2.0, 2.0), (3.0, 3.0), (4.0, 4.0)]


def test_hungarian_finds_the_pairs_the_greedy_rule_gives_away() -> None:
    truth = table([("a", 0, 0), ("a", 10, 10)])  # x tolerance 1.0 x range 10 = 10
    reply = rows(("a", 6, 0), ("a", 11, 10))
    # greedy: 6 proposes 10 (4 < 6), 11 proposes 10 (1); 11 wins, 6 is left out
    assert match_chart(reply, truth, x_tolerance=1.0).pairs == [(10.0, 10.0)]
    # Hungarian: 6 -> 0 (6) and 11 -> 10 (1), two pairs within the tolerance
    both = match_chart(reply, truth, x_tolerance=1.0, matching="hungarian")
    assert sorted(both.pairs) == [(0.0, 0.0), (10.0, 10.0)]
    # series: d(cat, car) = d(cat, cab) = 1 = d(car, cab), d(car, car) = 0; greedy gives cat
    # and car both the proposal "car" -> one pair of two: not reliable; Hungarian pairs both
    assert map_series(["cat", "car"], ["car", "cab"]) is None
    assert map_series(["cat", "car"], ["car", "cab"], "hungarian") == [(0, 1), (1, 0)]


def _brute_force(n: int, m: int, dist: dict[tuple[int, int], float]) -> tuple[int, float]:
    """The most allowed pairs and their least total distance, over every assignment."""
    best = (0, 0.0)
    for size in range(min(n, m), 0, -1):
        costs = [
            sum(dist[p] for p in zip(left, right, strict=True))
            for left in itertools.combinations(range(n), size)
            for right in itertools.permutations(range(m), size)
            if all(p in dist for p in zip(left, right, strict=True))
        ]
        if costs:
            return size, min(costs)
    return best


def _lookup(dist: dict[tuple[int, int], float]) -> Distance:
    return lambda i, j: dist.get((i, j))


def test_hungarian_against_every_assignment_and_greedy_never_better() -> None:
    rng = random.Random(11)
    for _ in range(150):
        n, m = rng.randint(1, 4), rng.randint(1, 4)
        dist = {
            (i, j): float(rng.randint(0, 9))
            for i in range(n)
            for j in range(m)
            if rng.random() < 0.7
        }
        size, total = _brute_force(n, m, dist)
        found = hungarian(n, m, _lookup(dist))
        assert len(found) == size and sum(dist[p] for p in found) == pytest.approx(total)
        greedy = greedy_nearest(n, m, _lookup(dist))
        assert len({j for _, j in greedy}) == len(greedy) <= size
