"""Scores of multi-chart answers: accuracy by hops, type, mode, chart kind and scenario; the
extended-vs-in-depth comparison; tokens, cost and time per mode; the cost-performance plot.

Answers are scored by ``figgen.eval`` (the same parser and metrics as every figgen run);
this module joins each scored answer with its question's facts in the set records.
Headline accuracy is over every question asked: no reply and a rejected reply count as wrong,
with the accuracy over answered questions and the rejection rate beside it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figgen._util.markdown import table_text
from figgen.errors import FiggenError
from figgen.eval.report.aggregate import ScoredAnswer, run_label, score_rows
from figgen.eval.run.dataset import EvalDataset, load_dataset
from figgen.eval.scoring.plots import Plot, plot_figure, save_plot
from figgen.multichart.conversation import retrieval_rows
from figgen.multichart.initial import Answer, initial_answer, initial_vs_final
from figgen.multichart.modes import MODES
from figgen.multichart.records import load_sets
from figgen.schema.answers import read_answers
from figgen.store.storage import atomic_write_text


@dataclass(frozen=True)
class Facts:
    """What the set records say about one (question, mode)."""

    mode: str
    hops: int
    type: str
    scenario: str
    kinds: tuple[str, ...]
    n_images: int


def question_facts(root: str | Path) -> dict[str, Facts]:
    out: dict[str, Facts] = {}
    for record in load_sets(root):
        kinds = record.kinds()
        for question in record.questions:
            for mode in MODES:
                facts = question.modes[mode]
                out[facts.qid] = Facts(
                    mode=mode,
                    hops=facts.hops,
                    type=question.ask.type,
                    scenario=record.scenario,
                    kinds=tuple(sorted({kinds[i] for i in facts.images})),
                    n_images=len(record.modes[mode]),
                )
    return out


@dataclass(frozen=True)
class Joined:
    answer: ScoredAnswer
    facts: Facts

    @property
    def correct(self) -> bool:
        score = self.answer.score
        return bool(score is not None and not score.rejected and score.correct)

    @property
    def final(self) -> Answer | None:
        score = self.answer.score
        if score is None or score.rejected:
            return None
        return Answer(self.answer.parsed, self.correct)

    @property
    def initial(self) -> Answer | None:
        return initial_answer(self.answer.item, self.answer.row)


def _accuracy(group: list[Joined]) -> dict[str, Any]:
    answered = [j for j in group if j.answer.score is not None]
    scored = [j for j in answered if not j.answer.score.rejected]  # type: ignore[union-attr]
    correct = sum(j.correct for j in group)
    return {
        "n": len(group),
        "accuracy": correct / len(group) if group else None,
        "answered_accuracy": correct / len(scored) if scored else None,
        "rejection_rate": (len(answered) - len(scored)) / len(group) if group else None,
    }


def _by(group: list[Joined], key: Callable[[Joined], Iterable[Any]]) -> dict[str, Any]:
    buckets: dict[Any, list[Joined]] = {}
    for joined in group:
        for value in key(joined):
            buckets.setdefault(value, []).append(joined)
    return {str(k): _accuracy(buckets[k]) for k in sorted(buckets)}


def _usage(group: list[Joined], extra: list[dict[str, Any]]) -> dict[str, Any]:
    """Tokens, cost and time per question; ``extra`` rows (a conversation's reconstruction
    turn) are paid for by the questions of their conversation."""
    n = len(group) or 1
    rows = [j.answer.row for j in group] + extra
    tokens_in = sum(int(r.get("usage", {}).get("input_tokens", 0)) for r in rows)
    tokens_out = sum(int(r.get("usage", {}).get("output_tokens", 0)) for r in rows)
    cost = sum(float(r.get("cost_usd") or 0.0) for r in rows)
    seconds = sum(float(r.get("latency_s") or 0.0) for r in rows)
    return {
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "tokens_per_question": (tokens_in + tokens_out) / n,
        "cost_usd": cost,
        "seconds": seconds,
        "seconds_per_question": seconds / n,
    }


def model_metrics(
    joined: list[Joined], retrieval: dict[str, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Metrics of one model (and protocol); ``retrieval`` holds a conversation run's
    reconstruction turns by figure id."""
    retrieval = retrieval or {}
    by_mode = {m: [j for j in joined if j.facts.mode == m] for m in MODES}
    out: dict[str, Any] = {"overall": _accuracy(joined), "modes": {}}
    for mode, group in by_mode.items():
        openings = [row for figure, row in retrieval.items() if figure.endswith(f"-{mode}")]
        out["modes"][mode] = {
            **_accuracy(group),
            "usage": _usage(group, openings),
            "initial_vs_final": initial_vs_final([(j.initial, j.final) for j in group]),
            "by_hops": _by(group, lambda j: [j.facts.hops]),
            "by_type": _by(group, lambda j: [j.facts.type]),
            "by_kind": _by(group, lambda j: j.facts.kinds),
            "by_scenario": _by(group, lambda j: [j.facts.scenario]),
        }
    ext, deep = (out["modes"][m]["accuracy"] for m in MODES)
    tokens = [out["modes"][m]["usage"]["tokens_per_question"] for m in MODES]
    out["comparison"] = {
        "accuracy_extended_minus_in_depth": None if ext is None or deep is None else ext - deep,
        "token_ratio_in_depth_to_extended": tokens[1] / tokens[0] if tokens[0] else None,
    }
    return out


def score_multichart(
    root: str | Path, answer_files: Iterable[str | Path]
) -> tuple[dict[str, Any], dict[str, list[Joined]]]:
    dataset: EvalDataset = load_dataset(root)
    facts = question_facts(root)
    if not facts:
        raise FiggenError(
            f"{root} holds no multichart sets; build them with figgen multichart build"
        )
    per_model: dict[str, list[Joined]] = {}
    openings: dict[str, dict[str, dict[str, Any]]] = {}
    for path in answer_files:
        rows = read_answers(path)
        if not rows:
            raise FiggenError(f"{path} holds no answers; run figgen eval run first")
        # one call per question and a conversation of the same model are two runs
        for label in sorted({run_label(row) for row in rows}):
            mine = [r for r in rows if run_label(r) == label]
            scored = score_rows(dataset, mine)
            per_model.setdefault(label, []).extend(
                Joined(a, facts[a.item.qid]) for a in scored if a.item.qid in facts
            )
            openings.setdefault(label, {}).update(retrieval_rows(mine))
    metrics = {"models": {m: model_metrics(j, openings.get(m)) for m, j in per_model.items()}}
    return metrics, per_model


def _hops_plot(metrics: dict[str, Any], out: Path) -> Plot:
    fig, (ax,) = plot_figure(1, width=5.5, height=3.8)
    sentences = []
    for model, values in metrics["models"].items():
        for mode, style in zip(MODES, ("-o", "--s"), strict=True):
            hops = values["modes"][mode]["by_hops"]
            xs = [int(h) for h in hops]
            ys = [hops[h]["accuracy"] for h in hops]
            ax.plot(xs, ys, style, label=f"{model} ({mode})")
            sentences.append(
                f"{model} {mode}: "
                + ", ".join(f"{x} hops {y:.0%}" for x, y in zip(xs, ys, strict=True))
            )
    ax.set(xlabel="hops", ylabel="accuracy", ylim=(-0.02, 1.02), title="Accuracy by hop count")
    ax.legend(fontsize=7)
    file = save_plot(fig, out, "accuracy_by_hops.png")
    return Plot(file, "Accuracy by hop count", "Accuracy by hops. " + "; ".join(sentences) + ".")


def _frontier_plot(metrics: dict[str, Any], out: Path) -> Plot:
    fig, axes = plot_figure(2, width=4.4, height=3.6)
    sentences = []
    markers = dict(zip(MODES, ("o", "s"), strict=True))
    for model, values in metrics["models"].items():
        # a mode nobody was asked in (answers of one mode only) has no point to draw
        modes = {m: values["modes"][m] for m in MODES if values["modes"][m]["n"]}
        acc = [m["accuracy"] for m in modes.values()]
        tokens = [m["usage"]["tokens_per_question"] for m in modes.values()]
        seconds = [m["usage"]["seconds_per_question"] for m in modes.values()]
        for ax, xs in zip(axes, (tokens, seconds), strict=True):
            ax.plot(xs, acc, "-", color="0.7", zorder=1)
            for x, y, mode in zip(xs, acc, modes, strict=True):
                ax.scatter([x], [y], marker=markers[mode], zorder=2, label=f"{model} ({mode})")
        points = [
            f"{mode} {a:.0%} at {t:.0f} tokens and {s:.2f} s per question"
            for mode, a, t, s in zip(modes, acc, tokens, seconds, strict=True)
        ]
        sentences.append(f"{model}: " + ", ".join(points))
    axes[0].set(xlabel="tokens per question", ylabel="accuracy", title="Accuracy vs tokens")
    axes[1].set(xlabel="seconds per question", ylabel="accuracy", title="Accuracy vs time")
    axes[0].legend(fontsize=7)
    file = save_plot(fig, out, "cost_performance.png")
    return Plot(
        file, "Cost-performance", "Cost-performance per mode. " + "; ".join(sentences) + "."
    )


def render_markdown(metrics: dict[str, Any], plots: list[Plot]) -> str:
    models = metrics["models"]
    lines = ["# Multi-chart evaluation", ""]
    rows = []
    for model, values in models.items():
        for mode in MODES:
            m = values["modes"][mode]
            u = m["usage"]
            rows.append(
                [
                    model,
                    mode,
                    m["n"],
                    m["accuracy"],
                    m["answered_accuracy"],
                    m["rejection_rate"],
                    u["tokens_per_question"],
                    u["cost_usd"],
                    u["seconds_per_question"],
                ]
            )
    lines += [
        "## Extended context vs in-depth",
        "",
        table_text(
            [
                "model",
                "mode",
                "n",
                "accuracy",
                "answered acc.",
                "rejected",
                "tokens/q",
                "cost $",
                "s/q",
            ],
            rows,
        ),
        "",
    ]
    change_rows = [
        [model, mode, c["n"], c["initial_accuracy"], c["final_accuracy"]]
        + [c["with_both"], c["changed"], c["fixed"], c["broken"]]
        for model, values in models.items()
        for mode in MODES
        for c in [values["modes"][mode]["initial_vs_final"]]
    ]
    lines += [
        "## Initial vs final answers",
        "",
        "Each reply's initial and final answers, parsed and scored alike; changed, fixed "
        "(wrong to right) and broken (right to wrong) count the replies with both readable.",
        "",
        table_text(
            ["model", "mode", "n", "initial acc.", "final acc.", "both read", "changed"]
            + ["fixed", "broken"],
            change_rows,
        ),
        "",
    ]
    for key, title in (
        ("by_hops", "hops"),
        ("by_type", "question type"),
        ("by_kind", "chart kind"),
        ("by_scenario", "scenario"),
    ):
        table_rows = [
            [model, mode, group, e["n"], e["accuracy"]]
            for model, values in models.items()
            for mode in MODES
            for group, e in values["modes"][mode][key].items()
        ]
        lines += [
            f"## Accuracy by {title}",
            "",
            table_text(["model", "mode", title, "n", "accuracy"], table_rows),
            "",
        ]
    for plot in plots:
        lines += [f"## {plot.title}", "", f"![{plot.alt}]({plot.file})", ""]
    return "\n".join(lines)


def write_report(
    root: str | Path, answer_files: Iterable[str | Path], out: str | Path
) -> dict[str, Any]:
    """Write ``metrics.json``, ``report.md`` and the plots to ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    metrics, _ = score_multichart(root, answer_files)
    plots = [_hops_plot(metrics, out), _frontier_plot(metrics, out)]
    atomic_write_text(out / "metrics.json", json.dumps(metrics, indent=1))
    atomic_write_text(out / "report.md", render_markdown(metrics, plots))
    return metrics
