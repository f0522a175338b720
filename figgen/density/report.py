"""``figgen density score``: metrics.json, report.md and the plots of the paper's analysis."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from figgen._util.markdown import table_text
from figgen.density.analysis import (
    ERROR_METRICS,
    chart_rows,
    density_deltas,
    density_slopes,
    mixed_effects,
    paired_deltas,
    table_s1,
)
from figgen.density.manifest import load_manifest
from figgen.density.match import MATCHINGS, X_TOLERANCE, Matching
from figgen.density.metrics import aggregate
from figgen.density.plots import coverage_and_error, error_by_density, paired_plot
from figgen.density.score import read_answer_files, score_rows
from figgen.eval.cost.usage import Usage
from figgen.eval.scoring.plots import Plot
from figgen.store.storage import atomic_write_text


def build_metrics(
    data: str | Path,
    answer_files: Sequence[str | Path],
    *,
    x_tolerance: float = X_TOLERANCE,
    matching: Matching = "greedy",
    reference_model: str | None = None,
) -> dict[str, Any]:
    """Every number of the report, as written to metrics.json."""
    manifest = load_manifest(data)
    answers = read_answer_files(answer_files)
    scores = score_rows(manifest, answers, x_tolerance=x_tolerance, matching=matching)
    other: Matching = next(m for m in MATCHINGS if m != matching)
    other_table = table_s1(score_rows(manifest, answers, x_tolerance=x_tolerance, matching=other))
    table = table_s1(scores)
    rows = chart_rows(scores)
    densities = sorted({k for by_density in table.values() for k in by_density})
    low, high = (densities[0], densities[-1]) if densities else (1, 9)
    return {
        "settings": {
            "mode": manifest.mode,
            "seed": manifest.seed,
            "densities": manifest.densities,
            "sources": len(manifest.tables),
            "x_tolerance": x_tolerance,
            "matching": matching,
            "ec_headline": "ec_clipped",
            "low": low,
            "high": high,
        },
        "models": {
            model: {
                "by_density": {
                    str(k): {**v, **result.usage_by_density.get(k, Usage()).to_dict()}
                    for k, v in table[model].items()
                },
                "overall": aggregate(result.compounds),
                "unanswered": len(result.unanswered),
                **result.usage.to_dict(),
            }
            for model, result in scores.items()
        },
        "other_matching": {
            "matching": other,
            "models": {
                model: {str(k): {key: v[key] for key in SENSITIVE} for k, v in by_density.items()}
                for model, by_density in other_table.items()
            },
        },
        "deltas": density_deltas(table, low, high),
        "paired": {m: paired_deltas(rows, low, high, m) for m in ERROR_METRICS},
        "slopes": {m: density_slopes(rows, m) for m in ERROR_METRICS},
        "mixed_effects": {
            m: mixed_effects(rows, m, reference_model=reference_model) for m in ERROR_METRICS
        },
        "charts": [row.to_dict() for row in rows],
    }


MATCHING_NAMES = {
    "greedy": "greedy nearest-neighbour rule of A.1 (proposals in ascending distance)",
    "hungarian": "Hungarian assignment (most pairs within the tolerance, least total distance)",
}
SENSITIVE = ("pr", "point_coverage", "mae", "rmse")
"""The metrics that depend on the matching rule, reported under the other rule as well."""


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.2f}%"


def _p(value: float | None) -> str:
    if value is None:
        return "–"
    return "<0.0001" if value < 1e-4 else f"{value:.4f}"


def render_markdown(metrics: dict[str, Any], plots: list[Plot]) -> str:
    settings = metrics["settings"]
    low, high = settings["low"], settings["high"]
    models = metrics["models"]
    s1 = table_text(
        [
            "model",
            "charts",
            "compounds",
            "RFV",
            "CAR",
            "EC clipped",
            "EC (A.1)",
            "PR",
            "ACR",
            "point coverage",
            "MAE",
            "RMSE",
            "RMS F1",
            "RNSS",
        ],
        [
            [
                m,
                k,
                e["compounds"],
                e["rfv"],
                e["car"],
                e["ec_clipped"],
                e["ec"],
                e["pr"],
                e["acr"],
                e["point_coverage"],
                e["mae"],
                e["rmse"],
                e["rms_f1"],
                e["rnss"],
            ]
            for m, v in models.items()
            for k, e in [*v["by_density"].items(), ("all", v["overall"])]
        ],
    )
    deltas = table_text(
        ["model", "MAE Δ", "MAE rel. Δ", "RMSE Δ", "RMSE rel. Δ"],
        [
            [
                m,
                d["mae"]["delta"],
                _pct(d["mae"]["relative"]),
                d["rmse"]["delta"],
                _pct(d["rmse"]["relative"]),
            ]
            for m, d in metrics["deltas"].items()
        ],
    )
    slopes = table_text(
        ["model", "metric", "n", "β", "std. error", "95% CI", "p", "R²"],
        [
            [
                m,
                metric.upper(),
                s["n"],
                s["beta"],
                s.get("se"),
                "–" if s.get("ci_low") is None else f"[{s['ci_low']:.3f}, {s['ci_high']:.3f}]",
                _p(s.get("p")),
                s.get("r2"),
            ]
            for metric in ERROR_METRICS
            for m, s in metrics["slopes"][metric].items()
        ],
    )
    paired = table_text(
        ["model", "metric", "charts", "mean Δ", "median Δ", "share worse"],
        [
            [m, metric.upper(), p["n"], p["mean_delta"], p["median_delta"], _pct(p["share_higher"])]
            for metric in ERROR_METRICS
            for m, p in metrics["paired"][metric].items()
        ],
    )
    costs = table_text(
        [
            "model",
            "charts",
            "compounds",
            "input tokens",
            "output tokens",
            "cost (USD)",
            "USD per chart",
        ],
        [
            [
                m,
                k,
                e["compounds"],
                e["input_tokens"],
                e["output_tokens"],
                e["cost_usd"],
                e["cost_usd"] / e["expected_charts"] if e["expected_charts"] else None,
            ]
            for m, v in models.items()
            for k, e in v["by_density"].items()
        ]
        + [
            [m, "all", "", v["input_tokens"], v["output_tokens"], v["cost_usd"], None]
            for m, v in models.items()
        ],
    )
    other = table_text(
        ["model", "charts", "PR", "point coverage", "MAE", "RMSE"],
        [
            [m, k, *(e[key] for key in SENSITIVE)]
            for m, by_density in metrics["other_matching"]["models"].items()
            for k, e in by_density.items()
        ],
    )
    unanswered = {m: v["unanswered"] for m, v in models.items() if v["unanswered"]}
    parts = [
        "# figgen density report (ChartDensity-Bench)",
        "",
        f"Mode {settings['mode']}, seed {settings['seed']}, {settings['sources']} source "
        f"charts, densities {settings['densities']}. Series and numeric x matched by the "
        f"{MATCHING_NAMES[settings['matching']]}, numeric x within "
        f"{settings['x_tolerance']:g} of each chart's ground-truth x range "
        f"(`--x-tolerance`). Metrics follow appendix A.1 of "
        "the paper: MAE and RMSE are on a 0-100 scale (lower is better) over parseable "
        "charts; ACR, point coverage, RMS F1 and RNSS average over aligned charts. The row "
        "'all' pools every density, so each aligned chart weighs the same (A.1's aggregation).",
        "",
        "The headline EC is **EC clipped** = CAR x mean(min(C_i, 1)): A.1 does not clip C_i, "
        "so its EC (the column EC (A.1), comparable with the paper's Table S1) rewards a reply "
        "that lists more x entries than the chart has, e.g. another chart's table.",
        "",
        "## Table S1: reconstruction by model and density",
        "",
        s1,
        "",
        f"Under the {MATCHING_NAMES[metrics['other_matching']['matching']]} instead:",
        "",
        other,
        "",
        f"## Table 1: degradation from {low} to {high} charts",
        "",
        deltas,
        "",
        "## Paired per-chart changes",
        "",
        paired,
        "",
        "## Table 2: density slope of chart error (OLS, descriptive)",
        "",
        slopes,
        "",
    ]
    for metric in ERROR_METRICS:
        fit = metrics["mixed_effects"][metric]
        parts += [f"## Table S2: mixed-effects model of chart {metric.upper()}", ""]
        if "error" in fit:
            parts += [f"Not fitted: {fit['error']}.", ""]
            continue
        parts += [
            f"`{fit['formula']}`, REML, {fit['n']} chart observations of {fit['charts']} "
            f"source charts; references: model {fit['reference_model']}, density "
            f"{fit['reference_density']}; converged: {fit['converged']}.",
            "",
            table_text(
                ["term", "coef.", "std. error", "z", "p", "CI low", "CI high"],
                [
                    [t["term"], t["coef"], t["se"], t["z"], _p(t["p"]), t["ci_low"], t["ci_high"]]
                    for t in fit["terms"]
                ],
            ),
            "",
        ]
    parts += ["## Usage and cost", "", costs, ""]
    if unanswered:
        parts += [
            "Compounds with no reply (every attempt failed; run again to resume): "
            + ", ".join(f"{m} {n}" for m, n in unanswered.items()),
            "",
        ]
    if plots:
        parts += ["## Plots", ""]
        for plot in plots:
            alt = plot.alt.replace("[", "(").replace("]", ")").replace("\n", " ")
            parts += [f"### {plot.title}", "", f"![{alt}]({plot.file})", ""]
    return "\n".join(parts)


def write_report(
    data: str | Path,
    answer_files: Sequence[str | Path],
    out: str | Path,
    *,
    x_tolerance: float = X_TOLERANCE,
    matching: Matching = "greedy",
    reference_model: str | None = None,
) -> dict[str, Any]:
    """Score, analyse and write ``metrics.json``, ``report.md`` and the plots; return metrics."""
    metrics = build_metrics(
        data,
        answer_files,
        x_tolerance=x_tolerance,
        matching=matching,
        reference_model=reference_model,
    )
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    table = {
        m: {int(k): e for k, e in v["by_density"].items()} for m, v in metrics["models"].items()
    }
    low, high = metrics["settings"]["low"], metrics["settings"]["high"]
    plots = [
        error_by_density(table, out),
        coverage_and_error(table, out),
    ]
    if high > low:
        plots += [paired_plot(metrics["paired"][m], m, low, high, out) for m in ERROR_METRICS]
    kept = [p for p in plots if p is not None]
    atomic_write_text(out / "metrics.json", json.dumps(metrics, indent=1, ensure_ascii=False))
    atomic_write_text(out / "report.md", render_markdown(metrics, kept))
    return metrics
