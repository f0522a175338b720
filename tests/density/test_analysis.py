"""The analysis against independent computations: numpy least squares and planted effects."""

from __future__ import annotations

import numpy as np
import pytest

from figgen.density.analysis import ChartRow, density_slopes, mixed_effects, paired_deltas

from .helpers import chart_row

DENSITIES = (1, 3, 6, 9)


def planted_rows(seed: int = 0) -> list[ChartRow]:
    """40 charts x 2 models x 4 densities: chart intercepts, model B worse by 0.5 per chart."""
    rng = np.random.default_rng(seed)
    rows = []
    for c in range(40):
        base = rng.normal(8, 2)
        for model, slope in (("mock:a", 0.2), ("openai:b's", 0.7)):
            for d in DENSITIES:
                y = base + slope * d + rng.normal(0, 0.3)
                rows.append(chart_row(model, d, f"c{c}", y, y))
    return rows


def test_slopes_match_numpy_least_squares() -> None:
    rows = planted_rows()
    slopes = density_slopes(rows, "mae")
    for model in ("mock:a", "openai:b's"):
        x = np.array([r.density for r in rows if r.model == model], float)
        y = np.array([r.score.mae for r in rows if r.model == model])
        beta, alpha = np.polyfit(x, y, 1)
        residual = y - (alpha + beta * x)
        se = np.sqrt(residual @ residual / (len(x) - 2) / np.sum((x - x.mean()) ** 2))
        r2 = 1 - residual @ residual / np.sum((y - y.mean()) ** 2)
        fit = slopes[model]
        assert fit["beta"] == pytest.approx(beta) and fit["se"] == pytest.approx(se)
        assert fit["r2"] == pytest.approx(r2) and fit["ci_low"] < beta < fit["ci_high"]
    assert slopes["openai:b's"]["p"] < 1e-6


def test_paired_deltas_use_the_same_source_at_both_densities() -> None:
    rows = [
        chart_row("m", 1, "x", 2.0),
        chart_row("m", 9, "x", 5.0),
        chart_row("m", 1, "y", 4.0),
        chart_row("m", 9, "y", 3.0),
        chart_row("m", 9, "z", 9.0),  # never seen alone
        chart_row("m", 1, "w", None),  # unparseable
    ]
    paired = paired_deltas(rows, 1, 9, "mae")["m"]
    assert paired["sources"] == ["x", "y"] and paired["mean_delta"] == pytest.approx(1.0)
    assert paired["share_higher"] == 0.5


def test_mixed_model_recovers_planted_interactions() -> None:
    fit = mixed_effects(planted_rows(), "rmse", reference_model="mock:a")
    # names with colons and quotes (PROVIDER:MODEL) must survive the formula
    terms = {t["term"].replace("openai:b's", "b"): t for t in fit["terms"]}
    assert fit["converged"] and fit["reference_density"] == 1
    # model b's extra slope 0.5 per chart: its interaction at 9 charts is 0.5 * (9 - 1) = 4
    assert terms["b × 9"]["coef"] == pytest.approx(4.0, abs=0.3)
    assert terms["density = 9"]["coef"] == pytest.approx(0.2 * 8, abs=0.3)
    assert terms["b"]["coef"] == pytest.approx(0.5, abs=0.3)
    assert terms["b × 9"]["ci_low"] < 4.0 < terms["b × 9"]["ci_high"]
    assert set(terms) == {
        "Intercept",
        "b",
        "density = 3",
        "density = 6",
        "density = 9",
        "b × 3",
        "b × 6",
        "b × 9",
    }


def test_mixed_model_explains_what_it_cannot_fit() -> None:
    rows = [chart_row("m", 1, "x", None, 1.0)]
    assert "error" in mixed_effects(rows, "rmse")
