"""DePlot's RMS F1 and RNSS on tables worked out by hand."""

from __future__ import annotations

import pytest

from figgen.density.peer import anls, relative_distance, rms_f1, rnss

from .helpers import rows

TRUTH = rows(("a", 1, 10), ("a", 2, 20))


def test_rms_matches_keys_and_scores_relative_error() -> None:
    # "a 1": 10 vs 10.5 -> 1 - 0.05; "a 2" exact -> 1; total 1.95 over 2 entries each side
    precision, recall, f1 = rms_f1(rows(("a", 1, 10.5), ("a", 2, 20)), TRUTH)
    assert (precision, recall, f1) == pytest.approx((0.975, 0.975, 0.975))


def test_rms_extra_entries_cost_precision_only() -> None:
    precision, recall, f1 = rms_f1(rows(("a", 1, 10.5), ("a", 2, 20), ("b", 3, 5)), TRUTH)
    assert precision == pytest.approx(1.95 / 3) and recall == pytest.approx(0.975)
    assert f1 == pytest.approx(2 * 0.65 * 0.975 / (0.65 + 0.975))


def test_rms_thresholds() -> None:
    # a 10% relative error reaches the threshold and scores 0; keys need NL < 0.5
    assert rms_f1(rows(("a", 1, 11), ("a", 2, 22)), TRUTH) == (0.0, 0.0, 0.0)
    assert anls("abcd", "abce") == pytest.approx(0.75) and anls("ab", "cd") == 0
    assert rms_f1([], TRUTH) == (1.0, 0.0, 0.0) and rms_f1(TRUTH, []) == (0.0, 1.0, 0.0)


def test_rnss_over_numeric_cells() -> None:
    # numbers 1, 10, 2, 20 vs 1, 10.5, 2, 20: one relative distance 0.05 -> 1 - 0.05 / 4
    assert rnss(rows(("a", 1, 10.5), ("a", 2, 20)), TRUTH) == pytest.approx(0.9875)
    # two extra numbers raise max(N, M) to 6
    assert rnss(rows(("a", 1, 10.5), ("a", 2, 20), ("b", 3, 5)), TRUTH) == pytest.approx(
        1 - 0.05 / 6
    )
    assert rnss([], TRUTH) == 0.0


def test_relative_distance_at_zero_needs_an_exact_answer() -> None:
    assert relative_distance(0.0, 0.0) == 0.0 and relative_distance(0.0, 1e-9) == 1.0
    assert relative_distance(10.0, 30.0) == 1.0 and relative_distance(10.0, 12.0) == 0.2
