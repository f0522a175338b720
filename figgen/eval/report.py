"""``figgen eval score``: metrics.json and report.md (tables and plots with alt text)."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from figgen.errors import FiggenError
from figgen.eval.aggregate import ScoredAnswer, build_metrics
from figgen.eval.answers import read_answers
from figgen.eval.dataset import EvalDataset
from figgen.eval.plots import Plot, cost_accuracy_plot, count_plot, per_panel_plot, ssmape_plot
from figgen.eval.prices import PriceTable
from figgen.storage import atomic_write_text


def _cell(value: Any) -> str:
    if value is None:
        return "–"
    if isinstance(value, float):
        return f"{value:.4g}"
    return str(value)


def _table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_cell(v) for v in row) + " |" for row in rows]
    return "\n".join(lines)


def _grouped_table(metrics: dict[str, Any], key: str, label: str) -> str:
    rows = [
        [model, group, e["n"], e["answered"], e["rejected"], e["accuracy"]]
        for model, values in metrics.items()
        for group, e in values[key].items()
    ]
    return _table(["model", label, "n", "answered", "rejected", "accuracy"], rows)


def _plots(
    metrics: dict[str, Any], scored: dict[str, list[ScoredAnswer]], out_dir: Path
) -> list[Plot]:
    families = {a.item.family: a.item for answers in scored.values() for a in answers}
    count_families = sorted(
        {f for values in metrics.values() for f in values["count_distributions"]}
    )
    cer_families = sorted(f for f, item in families.items() if item.metric in ("cer", "cer_list"))
    type_families = sorted(f for f in families if "plot_type" in f or "kind" in f)
    plots: list[Plot | None] = [count_plot(f, metrics, out_dir) for f in count_families]
    plots.append(
        per_panel_plot(
            cer_families,
            scored,
            out_dir,
            file="cer_by_panel_count.png",
            ylabel="mean CER",
            value=lambda a: a.score.value if a.scored and a.score else None,
            what="mean character error rate",
        )
    )
    plots.append(
        per_panel_plot(
            type_families,
            scored,
            out_dir,
            file="plot_type_by_panel_count.png",
            ylabel="accuracy",
            value=lambda a: float(bool(a.score.correct)) if a.scored and a.score else None,
            what="plot-type accuracy",
        )
    )
    plots.append(ssmape_plot(scored, out_dir))
    plots.append(cost_accuracy_plot(metrics, out_dir))
    return [p for p in plots if p is not None]


def render_markdown(metrics: dict[str, Any], plots: list[Plot]) -> str:
    """The report: tables per model, level, family, plot kind and panel count, then plots."""
    models = metrics["models"]
    overview = _table(
        [
            "model",
            "n",
            "answered",
            "rejected",
            "errors",
            "accuracy",
            "input tokens",
            "output tokens",
            "cost (USD)",
            "USD / 1000 q",
            "accuracy / USD",
        ],
        [
            [
                m,
                v["n"],
                v["answered"],
                v["rejected"],
                v["errors"],
                v["accuracy"],
                v["input_tokens"],
                v["output_tokens"],
                v["cost_usd"],
                v["cost_per_1000_questions"],
                v["accuracy_per_usd"],
            ]
            for m, v in models.items()
        ],
    )
    levels = _table(
        ["model", "level", "n", "answered", "rejected", "accuracy", "cost (USD)"],
        [
            [m, lv, e["n"], e["answered"], e["rejected"], e["accuracy"], e["cost_usd"]]
            for m, v in models.items()
            for lv, e in v["by_level"].items()
        ],
    )
    families = _table(
        ["model", "family", "level", "metric", "n", "rejected", "mean", "mean abs", "accuracy"],
        [
            [
                m,
                f,
                v["family_details"][f]["level"],
                e["metric"],
                e["n"],
                e["rejected"],
                e["mean"],
                v["family_details"][f].get("mean_abs"),
                v["family_details"][f]["accuracy"],
            ]
            for m, v in models.items()
            for f, e in v["by_family"].items()
        ],
    )
    parts = [
        "# figgen evaluation report",
        "",
        f"Prices: figgen's table as of {metrics.get('price_table_as_of') or 'unknown'} "
        "plus any --prices overrides (USD per million tokens). Rejected answers did not fit "
        "the requested format; they are counted, never scored as wrong. Accuracy is the share "
        "correct among scored answers (exact/relaxed match, CER 0, or |sSMAPE| <= 0.05). "
        "For CER the mean is the character error rate (lower is better); for sSMAPE it is "
        "the signed mean (bias) and mean abs the mean |sSMAPE|.",
        "",
        "## Models",
        "",
        overview,
        "",
        "## By description level",
        "",
        levels,
        "",
        "## By question family",
        "",
        families,
        "",
        "## By plot kind",
        "",
        _grouped_table(models, "by_kind", "plot kind"),
        "",
        "## By panel count",
        "",
        _grouped_table(models, "by_panel_count", "panels"),
        "",
    ]
    if plots:
        parts += ["## Plots", ""]
        for plot in plots:
            alt = plot.alt.replace("[", "(").replace("]", ")").replace("\n", " ")
            parts += [f"### {plot.title}", "", f"![{alt}]({plot.file})", ""]
    return "\n".join(parts)


def write_report(
    dataset: EvalDataset,
    answer_files: Sequence[str | Path],
    prices: PriceTable,
    out_dir: str | Path,
) -> dict[str, Any]:
    """Score the answer files, write ``metrics.json``, ``report.md`` and plots; return metrics."""
    rows: list[dict[str, Any]] = []
    for path in answer_files:
        if not Path(path).is_file():
            raise FiggenError(f"answers file {path} does not exist; run figgen eval run first")
        rows += read_answers(path)
    if not rows:
        raise FiggenError("the answers files hold no answers; run figgen eval run first")
    metrics, scored = build_metrics(dataset, rows, prices)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    plots = _plots(metrics["models"], scored, out)
    atomic_write_text(
        out / "metrics.json", json.dumps(metrics, indent=2, ensure_ascii=False) + "\n"
    )
    atomic_write_text(out / "report.md", render_markdown(metrics, plots))
    return metrics
