"""The metrics of appendix A.1: RFV, CAR, PR, C_i, ACR, point coverage, EC, MAE and RMSE.

A compound is structurally valid when the reply holds exactly k charts; its i-th predicted
table is then aligned with its i-th source chart (the manifest's order). Aligned charts are
scored one by one (:func:`score_chart`) and reduced per model and density
(:func:`aggregate`): ACR, point coverage and the peer metrics average over aligned charts, MAE
and RMSE over parseable ones.

C_i is not clipped in A.1, so a reply that lists more x entries than a chart has (another
chart's table, say) gets C_i > 1 and can lift EC above 1. ``ec`` is the paper's EC;
``ec_clipped`` = CAR x mean(min(C_i, 1)) beside it credits no entry beyond the chart's own.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any, Literal

from figgen.density.match import (
    X_TOLERANCE,
    Matching,
    match_chart,
    valid_truth_points,
    valid_x,
)
from figgen.density.peer import rms_f1, rnss
from figgen.density.tables import ChartTable, Row

RELATIVE_FLOOR = 1e-6
"""|y| above which a relative error is defined (eq. 19)."""
ERROR_CAP = 100.0
"""Relative and absolute fallback errors are clipped here; MAE or RMSE above it is
unparseable."""

ErrorMethod = Literal["normalized", "relative", "absolute"]


@dataclass(frozen=True)
class PointErrors:
    errors: list[float]
    method: ErrorMethod


def point_errors(pairs: Sequence[tuple[float, float]]) -> PointErrors:
    """Pointwise errors on [0, 100]: range-normalised, else relative, else bounded absolute.

    Normalisation (eqs. 14-16) needs two pairs and a positive range of the matched true
    values; otherwise each point takes a relative error clipped at 100 when |y| > 1e-6
    (eq. 19) and a bounded absolute error min(|y_hat - y|, 100) when not (eq. 20).
    """
    truths = [y for _, y in pairs]
    if len(pairs) >= 2 and max(truths) - min(truths) > 0:
        span = max(truths) - min(truths)
        return PointErrors([100 * abs(p - t) / span for p, t in pairs], "normalized")
    # here every matched true value is the same, so one fallback applies to all points
    if abs(truths[0]) > RELATIVE_FLOOR:
        return PointErrors(
            [min(ERROR_CAP, 100 * abs(p - t) / abs(t)) for p, t in pairs], "relative"
        )
    return PointErrors([min(abs(p - t), ERROR_CAP) for p, t in pairs], "absolute")


@dataclass
class ChartScore:
    """One aligned chart: completeness, coverage, errors (None when unparseable) and peers."""

    completeness: float
    point_coverage: float
    matched_points: int
    excluded_pairs: int
    mae: float | None
    rmse: float | None
    error_method: ErrorMethod | None
    series_mapping: str
    rms_precision: float
    rms_recall: float
    rms_f1: float
    rnss: float

    @property
    def parseable(self) -> bool:
        return self.mae is not None

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "parseable": self.parseable}


def score_chart(
    predicted: Sequence[Row],
    truth: ChartTable,
    *,
    x_tolerance: float = X_TOLERANCE,
    matching: Matching = "greedy",
) -> ChartScore:
    """Scores of one predicted table against the ground truth it is aligned with."""
    n_truth = sum(valid_x(r.x, truth.x_kind) for r in truth.rows)
    n_extracted = sum(valid_x(r.x, truth.x_kind) for r in predicted)
    match = match_chart(predicted, truth, x_tolerance=x_tolerance, matching=matching)
    n_points = valid_truth_points(truth)
    mae = rmse = None
    method: ErrorMethod | None = None
    if match.pairs:
        errors = point_errors(match.pairs)
        mae = sum(errors.errors) / len(errors.errors)
        rmse = math.sqrt(sum(e * e for e in errors.errors) / len(errors.errors))
        method = errors.method
        if mae > ERROR_CAP or rmse > ERROR_CAP:
            mae = rmse = None
    precision, recall, f1 = rms_f1(predicted, truth.rows)
    return ChartScore(
        completeness=n_extracted / n_truth if n_truth else 0.0,
        point_coverage=len(match.pairs) / n_points if n_points else 0.0,
        matched_points=len(match.pairs),
        excluded_pairs=match.excluded,
        mae=mae,
        rmse=rmse,
        error_method=method,
        series_mapping=match.mapping,
        rms_precision=precision,
        rms_recall=recall,
        rms_f1=f1,
        rnss=rnss(predicted, truth.rows),
    )


@dataclass
class CompoundScore:
    """A processed compound: how many charts the reply held, and its aligned chart scores."""

    compound: str
    density: int
    sources: list[str]
    n_predicted: int
    format_error: str | None
    charts: list[ChartScore]

    @property
    def valid(self) -> bool:
        return self.n_predicted == self.density


def score_compound(
    compound: str,
    sources: Sequence[str],
    predicted: Sequence[Sequence[Row]],
    tables: dict[str, ChartTable],
    *,
    format_error: str | None = None,
    x_tolerance: float = X_TOLERANCE,
    matching: Matching = "greedy",
) -> CompoundScore:
    """Align chart i with source i when the chart count is right; else a structural mismatch."""
    density = len(sources)
    charts = []
    if len(predicted) == density:
        charts = [
            score_chart(rows, tables[sid], x_tolerance=x_tolerance, matching=matching)
            for rows, sid in zip(predicted, sources, strict=True)
        ]
    return CompoundScore(compound, density, list(sources), len(predicted), format_error, charts)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _product(a: float | None, b: float | None) -> float | None:
    return None if a is None or b is None else a * b


def aggregate(compounds: Sequence[CompoundScore]) -> dict[str, Any]:
    """Table S1's numbers (and the rest of A.1) over the processed compounds of one density."""
    processed = len(compounds)
    mismatched = sum(not c.valid for c in compounds)
    expected = sum(c.density for c in compounds)
    aligned = [chart for c in compounds if c.valid for chart in c.charts]
    parseable = [chart for chart in aligned if chart.parseable]
    car = len(aligned) / expected if expected else None
    acr = _mean([c.completeness for c in aligned])
    acr_clipped = _mean([min(c.completeness, 1.0) for c in aligned])
    return {
        "compounds": processed,
        "mismatched": mismatched,
        "format_failures": sum(c.format_error is not None for c in compounds),
        "expected_charts": expected,
        "aligned_charts": len(aligned),
        "parseable_charts": len(parseable),
        "rfv": 1 - mismatched / processed if processed else None,
        "car": car,
        "pr": len(parseable) / len(aligned) if aligned else None,
        "acr": acr,
        "acr_clipped": acr_clipped,
        "point_coverage": _mean([c.point_coverage for c in aligned]),
        "ec": _product(car, acr),
        "ec_clipped": _product(car, acr_clipped),
        "mae": _mean([c.mae for c in parseable if c.mae is not None]),
        "rmse": _mean([c.rmse for c in parseable if c.rmse is not None]),
        "rms_precision": _mean([c.rms_precision for c in aligned]),
        "rms_recall": _mean([c.rms_recall for c in aligned]),
        "rms_f1": _mean([c.rms_f1 for c in aligned]),
        "rnss": _mean([c.rnss for c in aligned]),
    }
