"""``figgen eval score``: metrics.json and report.md (tables and plots with alt text)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from figgen._util.markdown import table_text
from figgen.errors import FiggenError
from figgen.eval.cost.prices import PriceTable
from figgen.eval.report.aggregate import ScoredAnswer, build_metrics
from figgen.eval.report.blind import add_blind_metrics, blind_markdown
from figgen.eval.report.grounding import grounding_markdown, grounding_metrics
from figgen.eval.report.human import human_markdown, human_metrics
from figgen.eval.run.dataset import EvalDataset
from figgen.eval.scoring.plots import Plot, cost_accuracy_plot, count_plot, per_panel_plot
from figgen.eval.scoring.scoring import METRICS, metrics_sharing
from figgen.schema.answers import read_answers
from figgen.schema.fingerprint import build_fingerprint, check_answers_build
from figgen.store.storage import atomic_write_text
from figgen.vqa.api.families import PLOT_TYPE, PLOT_TYPES


def _fixed(value: float | None) -> str:
    """Four decimals, so a bias of -1e-17 reads 0.0000 and columns line up."""
    return "–" if value is None else f"{value + 0.0:.4f}"


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{100 * value:.1f}%"


_ACCURACY_HEADER = [
    "n",
    "answered",
    "rejected",
    "accuracy",
    "accuracy (answered)",
    "rejection rate",
]


def _accuracy_cells(entry: dict[str, Any]) -> list[Any]:
    return [
        entry["n"],
        entry["answered"],
        entry["rejected"],
        _fixed(entry["accuracy"]),
        _fixed(entry["accuracy_answered"]),
        _pct(entry["rejection_rate"]),
    ]


def _grouped_table(metrics: dict[str, Any], key: str, label: str) -> str:
    rows = [
        [model, group, *_accuracy_cells(e)]
        for model, values in metrics.items()
        for group, e in values[key].items()
    ]
    return table_text(["model", label, *_ACCURACY_HEADER], rows)


def _cost_table(models: dict[str, Any]) -> str:
    """Per model: the cache and batch token classes, cost, list cost and the saving."""

    def share(v: dict[str, Any]) -> str:
        listed, saved = v.get("list_cost_usd"), v.get("saving_usd")
        return f"{saved / listed:.0%}" if listed and saved is not None else "–"

    return table_text(
        [
            "model",
            "input tokens",
            "cached read",
            "cache written",
            "batch questions",
            "cost (USD)",
            "at list price (USD)",
            "saving (USD)",
            "saving",
        ],
        [
            [
                m,
                v["input_tokens"],
                v.get("cached_input_tokens", 0),
                v.get("cache_write_tokens", 0),
                v.get("batch_questions", 0),
                v["cost_usd"],
                v.get("list_cost_usd"),
                v.get("saving_usd"),
                share(v),
            ]
            for m, v in models.items()
        ],
    )


def _metric_table(models: dict[str, Any], metrics: Sequence[str], columns: list[str]) -> str:
    """One row per family scored by one of ``metrics``, with the named metric columns."""
    rows = [
        [m, f, e["level"], e["n"], e["scored"], *(_fixed(e.get(c)) for c in columns)]
        for m, v in models.items()
        for f, e in v["by_family"].items()
        if e["metric"] in metrics
    ]
    return table_text(["model", "family", "level", "n", "scored", *columns], rows) if rows else ""


def _plots(
    metrics: dict[str, Any], scored: dict[str, list[ScoredAnswer]], out_dir: Path
) -> list[Plot]:
    families = {a.item.family: a.item for answers in scored.values() for a in answers}
    count_families = sorted(
        {f for values in metrics.values() for f in values["count_distributions"]}
    )
    # the families that ask for a plot kind (count_kind asks for a count; it is not one)
    type_families = sorted(f for f in families if f in (PLOT_TYPE.name, PLOT_TYPES.name))
    plots: list[Plot | None] = [count_plot(f, metrics, out_dir) for f in count_families]
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
    for plot, names in metrics_sharing(lambda spec: spec.plot):
        plots.append(
            plot(sorted(f for f, i in families.items() if i.metric in names), scored, out_dir)
        )
    plots.append(cost_accuracy_plot(metrics, out_dir))
    return [p for p in plots if p is not None]


def _metric_sections(models: dict[str, Any]) -> list[str]:
    """A section per metric table with rows (the text families' CER, the value families'
    sSMAPE), in the order the metrics were registered."""
    parts: list[str] = []
    for table, names in metrics_sharing(lambda spec: spec.table):
        text = _metric_table(models, names, [c.name for c in table.columns])
        if text:
            parts += [f"### {table.title}", "", table.note, "", text, ""]
    return parts


def _correct_rules(models: dict[str, Any]) -> str:
    """What counts as correct under each metric the report's families use ("exact match,
    CER 0 or |sSMAPE| <= 0.05")."""
    used = {e["metric"] for v in models.values() for e in v["by_family"].values()}
    rules = list(dict.fromkeys(spec.rule for name, spec in METRICS.items() if name in used))
    if len(rules) < 2:
        return rules[0] if rules else "by each family's metric"
    return ", ".join(rules[:-1]) + " or " + rules[-1]


def _no_score_reason(entry: dict[str, Any]) -> str:
    if entry["rejected"] == entry["n"]:
        return f"all {entry['n']} answers rejected"
    return f"{entry['rejected']} rejected, {entry['errors']} without a reply"


def render_markdown(metrics: dict[str, Any], plots: list[Plot]) -> str:
    """The report: tables per model, level, family, plot kind and panel count, then plots."""
    models = metrics["models"]
    overview = table_text(
        [
            "model",
            *_ACCURACY_HEADER,
            "errors",
            "input tokens",
            "output tokens",
            "cost (USD)",
            "USD / question",
            "accuracy / USD",
        ],
        [
            [
                m,
                *_accuracy_cells(v),
                v["errors"],
                v["input_tokens"],
                v["output_tokens"],
                v["cost_usd"],
                v["cost_per_question"],
                v["accuracy_per_usd"],
            ]
            for m, v in models.items()
        ],
    )
    cost_table = _cost_table(models)
    levels = table_text(
        ["model", "level", *_ACCURACY_HEADER, "cost (USD)", "USD / question"],
        [
            [m, lv, *_accuracy_cells(e), e["cost_usd"], e["cost_per_question"]]
            for m, v in models.items()
            for lv, e in v["by_level"].items()
        ],
    )
    families = table_text(
        ["model", "family", "level", "metric", *_ACCURACY_HEADER],
        [
            [m, f, e["level"], e["metric"], *_accuracy_cells(e)]
            for m, v in models.items()
            for f, e in v["by_family"].items()
        ],
    )
    errors = table_text(
        ["model", "error", "questions"],
        [
            [m, kind, n]
            for m, v in models.items()
            for kind, n in v.get("errors_by_kind", {}).items()
        ],
    )
    parts = [
        "# figgen evaluation report",
        "",
        f"Prices: figgen's table as of {metrics.get('price_table_as_of') or 'unknown'} "
        "plus any --prices overrides (USD per million tokens).",
        "",
        "**accuracy** is the share of all questions asked that were answered correctly "
        f"({_correct_rules(models)}): a rejected answer (a reply "
        "with no readable answer) and a question without a reply count as wrong. "
        "**accuracy (answered)** is over the answers that could be read, and **rejection "
        "rate** the share of replies with no readable answer. A readable answer that cannot "
        "be right (a choice not offered) is wrong, not rejected.",
        "",
        "## Models",
        "",
        overview,
        "",
        "## Cost",
        "",
        "Input tokens read from the prompt cache and written to it, questions answered "
        "through a batch API, and the saving against the same tokens at list price with "
        "no cache.",
        "",
        cost_table,
        "",
        *blind_markdown(metrics),
        *(
            ["## Errors", "", "Questions that got no reply after every retry.", "", errors, ""]
            if any(v.get("errors_by_kind") for v in models.values())
            else []
        ),
        "## By description level",
        "",
        levels,
        "",
        "## By question family",
        "",
        families,
        "",
    ]
    parts += _metric_sections(models)
    parts += [
        "## By plot kind",
        "",
        _grouped_table(models, "by_kind", "plot kind"),
        "",
        "## By panel count",
        "",
        _grouped_table(models, "by_panel_count", "panels"),
        "",
    ]
    unscored = [
        f"{f} ({m}: {_no_score_reason(e)})"
        for m, v in models.items()
        for f, e in v["by_family"].items()
        if e["scored"] == 0
    ]
    if plots or unscored:
        parts += ["## Plots", ""]
    if unscored:
        parts += [
            "Families with no scored answer, so absent from the plots: "
            + "; ".join(unscored)
            + ".",
            "",
        ]
    if plots:
        for plot in plots:
            alt = plot.alt.replace("[", "(").replace("]", ")").replace("\n", " ")
            parts += [f"### {plot.title}", "", f"![{alt}]({plot.file})", ""]
    return "\n".join(parts)


def write_report(
    dataset: EvalDataset,
    answer_files: Sequence[str | Path],
    prices: PriceTable,
    out_dir: str | Path,
    *,
    hourly_rate: float | None = None,
    allow_other_build: bool = False,
) -> dict[str, Any]:
    """Score the answer files, write ``metrics.json``, ``report.md`` and plots; return metrics.

    People's answers (``human:NAME``) get a section of their own; ``hourly_rate`` prices
    their time in USD. Answers to another build (their fingerprint differs from the
    dataset's) are refused unless ``allow_other_build``.
    """
    rows: list[dict[str, Any]] = []
    fingerprint = build_fingerprint(dataset.root)
    for path in answer_files:
        if not Path(path).is_file():
            raise FiggenError(f"answers file {path} does not exist; run figgen eval run first")
        file_rows = read_answers(path)
        check_answers_build(fingerprint, file_rows, path, allow_other_build=allow_other_build)
        rows += file_rows
    if not rows:
        raise FiggenError("the answers files hold no answers; run figgen eval run first")
    metrics, scored = build_metrics(dataset, rows, prices)
    add_blind_metrics(metrics, dataset, scored)
    grounding = grounding_metrics(dataset, scored)
    if grounding is not None:
        metrics["grounding"] = grounding
    humans = human_metrics(metrics["models"], scored, hourly_rate)
    if humans is not None:
        metrics["humans"] = humans
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    plots = _plots(metrics["models"], scored, out)
    atomic_write_text(
        out / "metrics.json", json.dumps(metrics, indent=2, ensure_ascii=False) + "\n"
    )
    markdown = render_markdown(metrics, plots)
    if grounding is not None:
        markdown += "\n" + grounding_markdown(grounding)
    if humans is not None:
        markdown += "\n" + human_markdown(humans)
    atomic_write_text(out / "report.md", markdown)
    return metrics
