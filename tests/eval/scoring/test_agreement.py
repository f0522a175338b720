"""Agreement statistics against independent implementations and published values."""

from __future__ import annotations

import random

import numpy as np
import pytest
from sklearn.metrics import cohen_kappa_score
from statsmodels.stats.inter_rater import aggregate_raters
from statsmodels.stats.inter_rater import fleiss_kappa as statsmodels_fleiss

from figgen.eval.scoring.agreement import (
    cohen_kappa,
    fleiss_kappa,
    icc_2_1,
    mean_pairwise_kappa,
    mean_pairwise_ssmape,
    values_ssmape,
)


@pytest.mark.parametrize("seed", range(8))
def test_cohen_kappa_matches_sklearn(seed: int) -> None:
    rng = random.Random(seed)
    labels = ["line", "scatter", "histogram", "contour"][: rng.randint(2, 4)]
    first = [rng.choice(labels) for _ in range(rng.randint(5, 40))]
    # the second rater copies the first most of the time, so kappa is far from 0
    second = [a if rng.random() < 0.7 else rng.choice(labels) for a in first]
    expected = cohen_kappa_score(first, second)
    got = cohen_kappa(first, second)
    assert got == pytest.approx(expected, abs=1e-12)


def test_cohen_kappa_is_undefined_when_both_always_say_the_same() -> None:
    assert cohen_kappa(["a"] * 5, ["a"] * 5) is None
    assert cohen_kappa(["a", "b"], ["b", "a"]) == pytest.approx(
        cohen_kappa_score(["a", "b"], ["b", "a"])
    )


@pytest.mark.parametrize(("seed", "raters"), [(0, 3), (1, 4), (2, 5), (3, 3)])
def test_fleiss_kappa_matches_statsmodels(seed: int, raters: int) -> None:
    rng = random.Random(seed)
    labels = ["yes", "no", "both"]
    ratings = []
    for _ in range(rng.randint(6, 30)):
        truth = rng.choice(labels)
        ratings.append(
            [truth if rng.random() < 0.75 else rng.choice(labels) for _ in range(raters)]
        )
    table, _ = aggregate_raters(np.array(ratings, dtype=object))
    assert fleiss_kappa(ratings) == pytest.approx(statsmodels_fleiss(table), abs=1e-12)


def test_icc_matches_shrout_and_fleiss() -> None:
    # Shrout & Fleiss (1979), Table 2: six targets, four judges; ICC(2,1) = .29
    ratings = [[9, 2, 5, 8], [6, 1, 3, 2], [8, 4, 6, 8], [7, 1, 2, 6], [10, 5, 6, 9], [6, 2, 4, 7]]
    assert icc_2_1(ratings) == pytest.approx(0.29, abs=0.005)
    assert icc_2_1([[1.0, 1.0], [2.0, 2.0], [5.0, 5.0]]) == pytest.approx(1.0)
    assert icc_2_1([[1.0, 2.0]]) is None  # one item says nothing


def test_icc_matches_a_two_way_anova(  # the mean squares from statsmodels' OLS ANOVA
) -> None:
    import pandas as pd
    from statsmodels.formula.api import ols
    from statsmodels.stats.anova import anova_lm

    rng = np.random.default_rng(5)
    truth = rng.uniform(0, 10, 12)
    matrix = [[t + rng.normal(0, 1) + bias for bias in (0.0, 0.5, -0.3)] for t in truth]
    frame = pd.DataFrame(
        [(i, j, v) for i, row in enumerate(matrix) for j, v in enumerate(row)],
        columns=["item", "rater", "value"],
    )
    table = anova_lm(ols("value ~ C(item) + C(rater)", frame).fit())
    ms = table["sum_sq"] / table["df"]
    n, k = 12, 3
    msr, msc, mse = ms["C(item)"], ms["C(rater)"], ms["Residual"]
    expected = (msr - mse) / (msr + (k - 1) * mse + k * (msc - mse) / n)
    assert icc_2_1(matrix) == pytest.approx(expected, rel=1e-9)


def test_ssmape_between_people_by_hand() -> None:
    # |2(a-b)/(|a|+|b|)|: 10 vs 12 -> 4/22; 5 vs 5 -> 0; pairs averaged element by element
    assert values_ssmape([10.0], [12.0]) == pytest.approx(4 / 22)
    assert values_ssmape([10.0, 5.0], [12.0, 5.0]) == pytest.approx(2 / 22)
    assert values_ssmape([1.0], [1.0, 2.0]) == 2.0
    # three people on one item: pairs (10,12), (10,8), (12,8)
    expected = (4 / 22 + 4 / 18 + 8 / 20) / 3
    assert mean_pairwise_ssmape([[[10.0], [12.0], [8.0]]]) == pytest.approx(expected)


def test_pairwise_kappa_uses_the_items_each_pair_shares() -> None:
    labels = {
        "human:a": {"q1": "x", "q2": "y", "q3": "x", "q4": "y"},
        "human:b": {"q1": "x", "q2": "y", "q3": "y"},
        "human:c": {"q2": "y", "q3": "x", "q4": "x"},
    }
    pairs = [("human:a", "human:b"), ("human:a", "human:c"), ("human:b", "human:c")]
    expected = []
    for a, b in pairs:
        common = sorted(set(labels[a]) & set(labels[b]))
        expected.append(
            cohen_kappa_score([labels[a][q] for q in common], [labels[b][q] for q in common])
        )
    got, count = mean_pairwise_kappa(labels)
    assert count == 3 and got == pytest.approx(sum(expected) / 3)
