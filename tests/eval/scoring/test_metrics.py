"""Each metric against hand-computed values, plus hypothesis invariants."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from figgen.eval.scoring.metrics import (
    align_lists,
    cer,
    cer_list,
    containment_region,
    exact_match,
    exact_set_match,
    normalize_text,
    relaxed_match,
    ssmape,
)


def test_cer_hand_computed() -> None:
    # "kitten" -> "sitting": 3 edits over 6 reference characters
    assert cer("kitten", "sitting") == pytest.approx(3 / 6)
    assert cer("abc", "abc") == 0.0
    assert cer("abcd", "") == 1.0


def test_cer_empty_reference_is_guarded() -> None:
    assert cer("", "") == 0.0
    assert cer("", "abc") == 1.0  # not 3, the raw insertion count
    assert cer(None, None) == 0.0


def test_cer_compares_raw_strings_by_default() -> None:
    # "$\alpha^{2}$ flux" (17 characters) -> "α^2 flux": "$\alpha" becomes "α" (6 deletions
    # and a substitution... counted by hand below), "{2}$" loses 3 characters
    reference, prediction = r"$\alpha^{2}$ flux", "α^2 flux"
    # align: "$\alpha" (7) -> "α" (1): 6 deletions + 1 substitution; "^" kept;
    # "{2}$" (4) -> "2": 3 deletions; " flux" kept. 10 edits over 17 characters.
    assert cer(reference, prediction) == pytest.approx(10 / 17)
    assert cer(reference, reference) == 0.0


def test_latex_is_normalised_on_both_sides_when_asked() -> None:
    assert normalize_text(r"Flux of $\alpha_{1}$") == "Flux of α_1"
    assert cer(r"$\alpha^{2}$ flux", "α^2 flux", normalize=True) == 0.0
    assert cer(r"$\frac{a}{b}$", "a/b", normalize=True) == 0.0
    assert cer_list([r"$x_{i}$"], ["x_i"], normalize=True) == 0.0
    assert cer_list([r"$x_{i}$"], ["x_i"]) == pytest.approx(4 / 7)  # $, {, }, $ deleted
    # a bare percent sign is text, not a LaTeX comment
    assert normalize_text("50% of mass") == "50% of mass"


def test_cer_list_aligns_by_minimum_edit_distance() -> None:
    # swapped order costs nothing once aligned
    assert cer_list(["alpha", "beta"], ["beta", "alpha"]) == 0.0
    # refs "abc","xyz" (6 chars); hyps "xyy","abd": best pairing abc-abd (1) + xyz-xyy (1)
    assert cer_list(["abc", "xyz"], ["xyy", "abd"]) == pytest.approx(2 / 6)


def test_cer_list_counts_unmatched_entries_in_full() -> None:
    # a missing entry: "energy" (6 chars) deleted, "flux" exact -> 6 / 10
    assert cer_list(["flux", "energy"], ["flux"]) == pytest.approx(6 / 10)
    # an extra entry: "noise" (5 chars) inserted -> 5 / 4
    assert cer_list(["flux"], ["flux", "noise"]) == pytest.approx(5 / 4)
    assert cer_list([], []) == 0.0
    assert cer_list([], ["x"]) == 1.0
    assert cer_list([""], [""]) == 0.0


def test_align_lists_reports_pairs_and_leftovers() -> None:
    matched, lone_refs, lone_preds = align_lists(["aaa", "bbb", "ccc"], ["ccc", "aab"])
    assert sorted(matched) == [(0, 1), (2, 0)]
    assert lone_refs == [1]
    assert lone_preds == []


def _brute_force_cer_list(refs: list[str], hyps: list[str]) -> float:
    """Try every pairing: a second, independent computation of the aligned CER."""
    from itertools import permutations

    from rapidfuzz.distance import Levenshtein

    total = sum(map(len, refs))
    size = len(refs) + len(hyps)
    padded_refs = refs + [None] * len(hyps)
    best = math.inf
    for order in permutations(list(hyps) + [None] * len(refs), size):
        edits = 0
        for ref, hyp in zip(padded_refs, order, strict=True):
            if ref is None and hyp is None:
                continue
            if ref is None:
                edits += len(hyp)
            elif hyp is None:
                edits += len(ref)
            else:
                edits += Levenshtein.distance(ref, hyp)
        best = min(best, edits)
    if total == 0:
        return 0.0 if best == 0 else 1.0
    return best / total


words = st.text(alphabet="abcxy", min_size=0, max_size=5)


@given(st.lists(words, max_size=3), st.lists(words, max_size=2))
def test_cer_list_matches_brute_force(refs: list[str], hyps: list[str]) -> None:
    assert cer_list(refs, hyps, normalize=False) == pytest.approx(_brute_force_cer_list(refs, hyps))


@given(st.text(max_size=30))
def test_cer_is_zero_on_equal_strings(text: str) -> None:
    assert cer(text, text) == 0.0
    assert cer_list([text, text + "x"], [text + "x", text]) == 0.0


@given(
    st.floats(allow_nan=False, allow_infinity=False, width=32),
    st.floats(allow_nan=False, allow_infinity=False, width=32),
)
def test_ssmape_stays_in_bounds(prediction: float, truth: float) -> None:
    assert -2.0 <= ssmape(prediction, truth) <= 2.0


def test_ssmape_hand_computed() -> None:
    assert ssmape(110, 100) == pytest.approx(2 * 10 / 210)
    assert ssmape(90, 100) == pytest.approx(-2 * 10 / 190)
    assert ssmape(5, -5) == pytest.approx(2.0)
    assert ssmape(0, 7) == pytest.approx(-2.0)
    assert ssmape(0, 0) == 0.0


def test_relaxed_and_exact() -> None:
    assert relaxed_match(104.9, 100)
    assert relaxed_match(95.0, 100)
    assert not relaxed_match(105.2, 100)
    assert relaxed_match(0.0, 0.0) and not relaxed_match(0.001, 0.0)
    assert exact_match(3, 3.0)
    assert exact_match(" Line  Plot", "line plot")
    assert not exact_match([2, 3], [3, 2])
    assert exact_set_match(["b", "a"], ["A", "B"])
    assert not exact_set_match(["a", "a"], ["a"])
    assert not exact_match(True, 1.5)


def test_containment_region_hand_computed() -> None:
    truths = [2] * 11 + [5]
    estimates = list(range(11)) + [6]
    region = containment_region(truths, estimates, level=0.9)
    # 11 values 0..10: the 5% and 95% quantiles (linear) are 0.5 and 9.5
    assert region[2] == pytest.approx((0.5, 9.5))
    assert region[5] == (6.0, 6.0)
