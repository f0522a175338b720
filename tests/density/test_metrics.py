"""Appendix A.1 on hand-made tables; expected values are worked out by hand in the comments."""

from __future__ import annotations

import math
import random

import pytest

from figgen.density.match import map_series, match_chart
from figgen.density.metrics import aggregate, point_errors, score_chart, score_compound

from .helpers import rows, table

# two series over x = 0, 10, 20, 30; y spans 0..30, so normalised errors are 100 * |dy| / 30
TRUTH = table(
    [("alpha", x, x) for x in (0, 10, 20, 30)] + [("beta", x, 30 - x) for x in (0, 10, 20, 30)]
)


def truth_rows() -> list:
    return list(TRUTH.rows)


def test_perfect_reconstruction_scores_perfectly() -> None:
    score = score_chart(truth_rows(), TRUTH)
    assert (score.completeness, score.point_coverage, score.mae, score.rmse) == (1, 1, 0, 0)
    assert score.parseable and score.error_method == "normalized"
    assert (score.rms_f1, score.rnss) == (1, 1)


def test_shuffled_rows_match_by_series_and_x() -> None:
    shuffled = truth_rows()
    random.Random(3).shuffle(shuffled)
    score = score_chart(shuffled, TRUTH)
    assert score.series_mapping == "names"
    assert (score.point_coverage, score.mae, score.rmse) == (1, 0, 0)


def test_scaled_values_give_the_range_normalised_error() -> None:
    # alpha y * 1.1 -> |dy| = 0, 1, 2, 3 -> errors 0, 10/3, 20/3, 10; beta exact (4 zeros)
    predicted = rows(*[("alpha", x, x * 1.1) for x in (0, 10, 20, 30)]) + list(TRUTH.rows[4:])
    score = score_chart(predicted, TRUTH)
    errors = [0, 10 / 3, 20 / 3, 10, 0, 0, 0, 0]
    assert score.mae == pytest.approx(sum(errors) / 8)  # 2.5
    assert score.mae == pytest.approx(2.5)
    assert score.rmse == pytest.approx(math.sqrt(sum(e * e for e in errors) / 8))  # 4.409586
    assert score.rmse == pytest.approx(4.409585518)


def test_series_names_are_case_folded_stripped_and_edit_distance_bounded() -> None:
    assert map_series([" ALPHA ", "Beta"], ["alpha", "beta"]) == [(0, 0), (1, 1)]
    # "betas" is 1 edit from "beta" (<= 5/2); swapped order still maps by name
    assert sorted(map_series(["betas", "alpha"], ["alpha", "beta"]) or []) == [(0, 1), (1, 0)]
    # "gamma" is 4 edits from "beta" (> 5/2): no reliable mapping
    assert map_series(["alpha", "gamma"], ["alpha", "beta"]) is None


def test_renamed_series_fall_back_to_row_order() -> None:
    renamed = [r if r.series == "alpha" else type(r)("gamma", r.x, r.y) for r in TRUTH.rows]
    score = score_chart(renamed, TRUTH)
    assert score.series_mapping == "row_order"
    assert (score.point_coverage, score.mae) == (1, 0)
    # row order with beta's rows first pairs alpha's truth with beta's values:
    # |y - (30 - y)| over y = 0..30 -> 30, 10, 10, 30 (twice) -> normalised 100, 33.3, 33.3, 100
    backwards = [
        type(r)(("gamma" if r.series == "beta" else r.series), r.x, r.y)
        for r in list(TRUTH.rows[4:]) + list(TRUTH.rows[:4])
    ]
    score = score_chart(backwards, TRUTH)
    assert score.mae == pytest.approx((100 + 100 / 3) / 2)


def test_single_series_charts_pair_whatever_the_names() -> None:
    truth = table([("temperature", x, 2 * x) for x in range(5)])
    score = score_chart(rows(*[("Series 1", x, 2 * x) for x in range(5)]), truth)
    assert score.series_mapping == "single" and score.mae == 0


def test_missing_points_lower_completeness_and_coverage() -> None:
    predicted = [r for r in TRUTH.rows if r.x not in ("10", "20") or r.series == "beta"]
    score = score_chart(predicted, TRUTH)
    assert score.completeness == pytest.approx(6 / 8)
    assert score.point_coverage == pytest.approx(6 / 8)
    assert score.mae == 0


def test_extra_rows_push_completeness_above_one_but_not_coverage() -> None:
    predicted = truth_rows() + rows(("alpha", 40, 40), ("alpha", 50, 50))
    score = score_chart(predicted, TRUTH)
    assert score.completeness == pytest.approx(10 / 8)  # C_i is not clipped in A.1
    assert score.point_coverage == 1


def test_numeric_x_greedy_nearest_within_the_tolerance() -> None:
    truth = table([("a", x, x) for x in (0, 10, 20, 30, 40)])  # range 40, tolerance 5% = 2
    predicted = rows(("a", 1.5, 0), ("a", 12.5, 10), ("a", 19.0, 20), ("a", 19.5, 21))
    match = match_chart(predicted, truth)
    # 1.5 -> 0 (1.5 <= 2); 12.5 is 2.5 from 10 (out); 19.0 and 19.5 both propose 20: the
    # nearer (19.5, 0.5 away) wins, 19.0 stays unmatched
    assert sorted(match.pairs) == [(0.0, 0.0), (21.0, 20.0)]
    wider = match_chart(predicted, truth, x_tolerance=0.1)  # 4: 12.5 -> 10 as well
    assert sorted(wider.pairs) == [(0.0, 0.0), (10.0, 10.0), (21.0, 20.0)]


def test_categorical_x_match_by_label_then_order() -> None:
    truth = table([("a", "Mon", 1), ("a", "Tue", 2), ("a", "Wed", 3)], "categorical")
    predicted = rows(("a", "wed", 30), ("a", "Monday", 10), ("a", "TUE", 20))
    match = match_chart(predicted, truth)
    # wed and TUE by label; Monday is left and pairs with the remaining Mon
    assert sorted(match.pairs) == [(10.0, 1.0), (20.0, 2.0), (30.0, 3.0)]


def test_relative_then_absolute_fallbacks() -> None:
    # one matched point: no range to normalise by -> relative 100 * |11 - 10| / 10 = 10
    assert point_errors([(11.0, 10.0)]).errors == [pytest.approx(10.0)]
    # constant truth (range 0): relative errors, clipped at 100
    result = point_errors([(12.0, 10.0), (500.0, 10.0)])
    assert result.method == "relative" and result.errors == [pytest.approx(20.0), 100.0]
    # |y| <= 1e-6: bounded absolute error min(|dy|, 100)
    result = point_errors([(0.5, 0.0), (250.0, 0.0)])
    assert result.method == "absolute" and result.errors == [0.5, 100.0]
    assert point_errors([(0.5, 0.0), (11.0, 10.0)]).method == "normalized"  # range 10


def test_errors_above_100_make_a_chart_unparseable() -> None:
    truth = table([("a", 0, 0), ("a", 1, 1)])
    # range 1: errors 0 and 100 * 299 = 29900 -> MAE 14950 > 100 -> unparseable
    score = score_chart(rows(("a", 0, 0), ("a", 1, 300)), truth)
    assert not score.parseable and score.rmse is None and score.point_coverage == 1


def test_no_valid_match_is_unparseable() -> None:
    truth = table([("a", 0, 0), ("a", 1, 1)])
    score = score_chart(rows(("a", "zero", "n/a"), ("a", "one", "?")), truth)
    assert not score.parseable and score.completeness == 0 and score.point_coverage == 0


def test_wrong_chart_count_is_a_structural_mismatch() -> None:
    tables = {"s1": TRUTH, "s2": TRUTH, "s3": TRUTH}
    good = score_compound("c1", ["s1", "s2", "s3"], [truth_rows()] * 3, tables)
    bad = score_compound("c2", ["s1", "s2", "s3"], [truth_rows()] * 2, tables)
    assert good.valid and not bad.valid and bad.charts == []
    summary = aggregate([good, bad])
    # RFV = 1 - 1/2; CAR = 3 aligned / (2 compounds x 3) ; EC = CAR x ACR
    assert summary["rfv"] == 0.5 and summary["car"] == 0.5
    assert summary["ec"] == 0.5 * summary["acr"]


def test_aggregate_macro_averages_over_aligned_and_parseable_charts() -> None:
    half = [r for r in TRUTH.rows if r.x in ("0", "10")]  # C = P = 4/8
    unparseable = rows(("alpha", 0, 0), ("alpha", 30, 9000))  # MAE far above 100
    scaled = rows(*[("alpha", x, x * 1.1) for x in (0, 10, 20, 30)]) + list(TRUTH.rows[4:])
    tables = {"s": TRUTH}
    compounds = [
        score_compound(f"c{i}", ["s"], [chart], tables)
        for i, chart in enumerate([truth_rows(), half, unparseable, scaled])
    ]
    summary = aggregate(compounds)
    assert summary["aligned_charts"] == 4 and summary["parseable_charts"] == 3
    assert summary["pr"] == 0.75
    assert summary["acr"] == pytest.approx((1 + 0.5 + 2 / 8 + 1) / 4)
    assert summary["point_coverage"] == pytest.approx((1 + 0.5 + 2 / 8 + 1) / 4)
    assert summary["mae"] == pytest.approx((0 + 0 + 2.5) / 3)  # the unparseable chart is out
    assert summary["ec"] == pytest.approx(summary["car"] * summary["acr"])


def test_swapped_tables_lift_the_papers_ec_above_one_but_not_the_clipped_ec() -> None:
    small = table([("a", x, x) for x in range(4)])  # 4 x entries
    large = table([("a", x, x) for x in range(8)])  # 8 x entries
    tables = {"small": small, "large": large}
    swapped = score_compound("c", ["small", "large"], [list(large.rows), list(small.rows)], tables)
    summary = aggregate([swapped])
    # C = 8/4 = 2 and 4/8 = 0.5, CAR = 1: EC = (2 + 0.5) / 2 = 1.25; clipped (1 + 0.5) / 2
    assert summary["car"] == 1 and summary["ec"] == pytest.approx(1.25)
    assert summary["acr_clipped"] == pytest.approx(0.75)
    assert summary["ec_clipped"] == pytest.approx(0.75)
    # the clipped EC still carries CAR: one of two compounds mismatched -> CAR 1/2
    lost = score_compound("d", ["small", "large"], [list(small.rows)], tables)
    assert aggregate([swapped, lost])["ec_clipped"] == pytest.approx(0.5 * 0.75)
