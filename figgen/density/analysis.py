"""The paper's analysis: Table S1, 1 -> 9 deltas, paired per-chart deltas, per-model density
slopes and the mixed-effects model of Table S2.

Everything reads the chart-level rows of :func:`chart_rows`: one per aligned chart, with the
model, density, compound and source chart it came from.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from figgen.density.metrics import ChartScore, aggregate
from figgen.density.score import ModelScores

Metric = str  # "mae" or "rmse"
ERROR_METRICS: tuple[Metric, ...] = ("mae", "rmse")


def _num(value: Any) -> float | None:
    """A finite float, or None (statsmodels gives NaN where a statistic is undefined)."""
    number = float(value)
    return number if np.isfinite(number) else None


def table_s1(scores: dict[str, ModelScores]) -> dict[str, dict[int, dict[str, Any]]]:
    """Every A.1 metric per model and density, over the processed compounds."""
    table: dict[str, dict[int, dict[str, Any]]] = {}
    for model, result in scores.items():
        densities = sorted({c.density for c in result.compounds})
        table[model] = {
            k: aggregate([c for c in result.compounds if c.density == k]) for k in densities
        }
    return table


@dataclass(frozen=True)
class ChartRow:
    """One aligned chart of one model's reply: where it was shown and how it scored."""

    model: str
    density: int
    compound: str
    source: str
    score: ChartScore

    def error(self, metric: Metric) -> float | None:
        """The chart's MAE or RMSE (None: unparseable)."""
        value: float | None = getattr(self.score, metric)
        return value

    def to_dict(self) -> dict[str, Any]:
        """The row of ``metrics.json``'s ``charts``."""
        where = {"model": self.model, "density": self.density, "compound": self.compound}
        return {**where, "source": self.source, **self.score.to_dict()}


def chart_rows(scores: dict[str, ModelScores]) -> list[ChartRow]:
    """One row per aligned chart: model, density, compound, source and its scores."""
    return [
        ChartRow(model, compound.density, compound.compound, source, chart)
        for model, result in scores.items()
        for compound in result.compounds
        for source, chart in zip(compound.sources, compound.charts, strict=False)
    ]


def density_deltas(
    table: dict[str, dict[int, dict[str, Any]]], low: int, high: int
) -> dict[str, dict[Metric, dict[str, float | None]]]:
    """Absolute and relative change of MAE and RMSE from density ``low`` to ``high``."""
    out: dict[str, dict[Metric, dict[str, float | None]]] = {}
    for model, by_density in table.items():
        out[model] = {}
        for metric in ERROR_METRICS:
            a = by_density.get(low, {}).get(metric)
            b = by_density.get(high, {}).get(metric)
            delta = None if a is None or b is None else b - a
            relative = None if delta is None or not a else delta / a
            out[model][metric] = {"low": a, "high": b, "delta": delta, "relative": relative}
    return out


def paired_deltas(
    rows: Sequence[ChartRow], low: int, high: int, metric: Metric
) -> dict[str, dict[str, Any]]:
    """Per model, the same source chart's error at ``low`` and ``high`` (both parseable)."""
    out: dict[str, dict[str, Any]] = {}
    for model in sorted({r.model for r in rows}):
        at: dict[int, dict[str, float]] = {low: {}, high: {}}
        for r in rows:
            error = r.error(metric)
            if r.model == model and r.density in at and error is not None:
                at[r.density][r.source] = error
        common = sorted(set(at[low]) & set(at[high]))
        pairs = [(at[low][s], at[high][s]) for s in common]
        deltas = [b - a for a, b in pairs]
        out[model] = {
            "n": len(pairs),
            "sources": common,
            "low": [a for a, _ in pairs],
            "high": [b for _, b in pairs],
            "mean_delta": float(np.mean(deltas)) if deltas else None,
            "median_delta": float(np.median(deltas)) if deltas else None,
            "share_higher": float(np.mean([d > 0 for d in deltas])) if deltas else None,
        }
    return out


def density_slopes(rows: Sequence[ChartRow], metric: Metric) -> dict[str, dict[str, Any]]:
    """Per model, OLS ``metric = alpha + beta * density`` over parseable charts."""
    import statsmodels.api as sm

    out: dict[str, dict[str, Any]] = {}
    for model in sorted({r.model for r in rows}):
        points = [
            (r.density, r.error(metric))
            for r in rows
            if r.model == model and r.error(metric) is not None
        ]
        x = np.array([d for d, _ in points], dtype=float)
        y = np.array([v for _, v in points], dtype=float)
        if len(points) < 3 or len(set(x)) < 2:
            out[model] = {"n": len(points), "beta": None}
            continue
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            fit = sm.OLS(y, sm.add_constant(x)).fit()
            low, high = fit.conf_int(0.05)[1]
            out[model] = {
                "n": len(points),
                "alpha": _num(fit.params[0]),
                "beta": _num(fit.params[1]),
                "se": _num(fit.bse[1]),
                "ci_low": _num(low),
                "ci_high": _num(high),
                "p": _num(fit.pvalues[1]),
                "r2": _num(fit.rsquared),
            }
    return out


def _term_name(raw: str, models: dict[str, str]) -> str:
    """``C(code, ...)[T.m2]:C(density, ...)[T.9]`` -> ``glm × 9`` (``models``: code -> name)."""
    if raw == "Intercept":
        return raw
    levels = re.findall(r"\[T\.([^\]]+)\]", raw)
    if len(levels) == 2:
        return f"{models[levels[0]]} × {levels[1]}"
    return models[levels[0]] if raw.startswith("C(code") else f"density = {levels[0]}"


def mixed_effects(
    rows: Sequence[ChartRow], metric: Metric, *, reference_model: str | None = None
) -> dict[str, Any]:
    """Linear mixed model ``metric ~ model * density + (1 | source chart)`` (REML).

    Model and density are categorical with ``reference_model`` (default: the first model by
    name) and the lowest density as references, as in Table S2. With one model the model
    terms are left out.
    """
    import pandas as pd
    import statsmodels.formula.api as smf

    data = pd.DataFrame(
        [
            {"y": r.error(metric), "model": r.model, "density": r.density, "chart": r.source}
            for r in rows
            if r.error(metric) is not None
        ]
    )
    if data.empty or data["density"].nunique() < 2 or data["chart"].nunique() < 2:
        return {"error": "needs parseable charts at two densities or more, from two charts"}
    if data["y"].nunique() < 2:
        return {"error": f"every chart {metric.upper()} is {data['y'].iloc[0]:g}; nothing varies"}
    names = sorted(data["model"].unique())
    reference = reference_model if reference_model in names else names[0]
    # model names become plain codes in the formula, so any name (quotes, colons) is safe
    codes = {
        name: f"m{i}" for i, name in enumerate([reference, *(n for n in names if n != reference)])
    }
    data["code"] = data["model"].map(codes)
    low = int(data["density"].min())
    density_term = f"C(density, Treatment({low}))"
    formula = (
        f"y ~ C(code, Treatment('m0')) * {density_term}"
        if len(names) > 1
        else f"y ~ {density_term}"
    )
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            fit = smf.mixedlm(formula, data, groups=data["chart"]).fit(reml=True)
    except (np.linalg.LinAlgError, ValueError) as exc:
        return {"error": f"the mixed model could not be fitted ({exc})"}
    ci = fit.conf_int(0.05)
    terms = [
        {
            "term": _term_name(name, {code: name for name, code in codes.items()}),
            "coef": _num(fit.params[name]),
            "se": _num(fit.bse[name]),
            "z": _num(fit.tvalues[name]),
            "p": _num(fit.pvalues[name]),
            "ci_low": _num(ci.loc[name, 0]),
            "ci_high": _num(ci.loc[name, 1]),
        }
        for name in fit.fe_params.index
    ]
    return {
        "metric": metric,
        "formula": f"{metric} ~ model * density + (1 | chart)"
        if len(names) > 1
        else f"{metric} ~ density + (1 | chart)",
        "reference_model": reference,
        "reference_density": low,
        "n": int(len(data)),
        "charts": int(data["chart"].nunique()),
        "converged": bool(fit.converged),
        "group_variance": _num(fit.cov_re.iloc[0, 0]),
        "warnings": sorted({str(w.message).splitlines()[0] for w in caught}),
        "terms": terms,
    }
