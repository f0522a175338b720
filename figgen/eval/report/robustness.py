"""Accuracy under perturbation: per-perturbation deltas against the clean set, paired by qid.

A perturbed dataset keeps the clean set's questions (``figgen perturb``), so every answer to a
perturbed image pairs with the same model's answer to the clean image. Accuracy is over the
paired questions (a rejected answer or a failed call counts as wrong); each delta comes with
its flips (right on clean and wrong perturbed, and the reverse) and an exact McNemar test on
them, per level and per family. ``paired.jsonl`` lists every pair: the per-question view.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figgen._util.markdown import markdown_table
from figgen.errors import FiggenError
from figgen.eval.report.aggregate import ScoredAnswer, run_label, score_rows
from figgen.eval.run.dataset import EvalDataset
from figgen.schema.answers import read_answers
from figgen.store.storage import atomic_write_text


@dataclass(frozen=True)
class Pair:
    """One question answered on the clean and on the perturbed image."""

    clean: ScoredAnswer
    perturbed: ScoredAnswer

    @staticmethod
    def correct(answer: ScoredAnswer) -> bool:
        return answer.outcome == "correct"


def mcnemar_p(lost: int, gained: int) -> float:
    """Two-sided exact McNemar p-value: a binomial test of the discordant pairs at 1/2."""
    from scipy.stats import binomtest

    n = lost + gained
    return 1.0 if n == 0 else float(binomtest(lost, n, 0.5).pvalue)


def compare(pairs: Sequence[Pair]) -> dict[str, Any]:
    """Paired accuracy on clean and perturbed images, the delta and the flips."""
    clean = [Pair.correct(p.clean) for p in pairs]
    perturbed = [Pair.correct(p.perturbed) for p in pairs]
    n = len(pairs)
    lost = sum(c and not q for c, q in zip(clean, perturbed, strict=True))
    gained = sum(q and not c for c, q in zip(clean, perturbed, strict=True))
    clean_acc = sum(clean) / n if n else None
    perturbed_acc = sum(perturbed) / n if n else None
    return {
        "paired": n,
        "clean": clean_acc,
        "perturbed": perturbed_acc,
        "delta": None if not n else (sum(perturbed) - sum(clean)) / n,
        "lost": lost,
        "gained": gained,
        "mcnemar_p": mcnemar_p(lost, gained),
    }


def _grouped(pairs: Sequence[Pair], key: Callable[[Pair], Any]) -> dict[str, Any]:
    groups: dict[str, list[Pair]] = {}
    for pair in pairs:
        groups.setdefault(str(key(pair)), []).append(pair)
    return {name: compare(groups[name]) for name in sorted(groups)}


def _by_run(dataset: EvalDataset, path: str | Path) -> dict[str, dict[str, ScoredAnswer]]:
    if not Path(path).is_file():
        raise FiggenError(f"answers file {path} does not exist; run figgen eval run first")
    rows: dict[str, list[dict[str, Any]]] = {}
    for row in read_answers(path):
        rows.setdefault(run_label(row), []).append(row)
    return {
        label: {a.item.qid: a for a in score_rows(dataset, group)} for label, group in rows.items()
    }


def robustness_metrics(
    dataset: EvalDataset, clean: str | Path, perturbed: dict[str, str | Path]
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """Deltas per model and perturbation (overall, by level, by family) and the paired rows."""
    clean_runs = _by_run(dataset, clean)
    metrics: dict[str, Any] = {"models": {}}
    paired_rows: list[dict[str, Any]] = []
    for name, path in perturbed.items():
        for model, answers in _by_run(dataset, path).items():
            base = clean_runs.get(model)
            if base is None:
                raise FiggenError(
                    f"{path} holds answers of {model}, which the clean answers {clean} lack; "
                    "run that model on the clean set too"
                )
            pairs = [Pair(base[q], a) for q, a in answers.items() if q in base]
            entry = compare(pairs)
            entry["by_level"] = _grouped(pairs, lambda p: p.clean.item.level)
            entry["by_family"] = _grouped(pairs, lambda p: p.clean.item.family)
            metrics["models"].setdefault(model, {})[name] = entry
            paired_rows += [
                {
                    "model": model,
                    "perturbation": name,
                    "qid": p.clean.item.qid,
                    "level": p.clean.item.level,
                    "family": p.clean.item.family,
                    "clean_correct": Pair.correct(p.clean),
                    "perturbed_correct": Pair.correct(p.perturbed),
                    "clean_answer": p.clean.parsed,
                    "perturbed_answer": p.perturbed.parsed,
                }
                for p in pairs
            ]
    return metrics, paired_rows


def robustness_markdown(metrics: dict[str, Any]) -> str:
    cols = ["paired", "clean", "perturbed", "delta", "lost", "gained", "mcnemar_p"]

    def rows(group: str | None) -> list[list[Any]]:
        out = []
        for model, runs in metrics["models"].items():
            for name, entry in runs.items():
                if group is None:
                    out.append([model, name, *(entry[c] for c in cols)])
                    continue
                for key, sub in entry[group].items():
                    out.append([model, name, key, *(sub[c] for c in cols)])
        return out

    head = ["paired", "clean acc.", "perturbed acc.", "delta", "lost", "gained", "McNemar p"]
    lines = [
        "# figgen robustness report",
        "",
        "Each perturbed answer is paired with the same model's answer to the clean image of "
        "the same question. Accuracy is over the paired questions (rejected answers and "
        "failed calls count as wrong); delta = perturbed - clean; lost: right on clean and "
        "wrong perturbed; gained: the reverse; McNemar p: exact two-sided test on lost vs "
        "gained. Every pair is in paired.jsonl.",
        "",
        "## By perturbation",
        "",
        *markdown_table(["model", "perturbation", *head], rows(None), float_format=".3f"),
        "",
        "## By level",
        "",
        *markdown_table(
            ["model", "perturbation", "level", *head], rows("by_level"), float_format=".3f"
        ),
        "",
        "## By family",
        "",
        *markdown_table(
            ["model", "perturbation", "family", *head], rows("by_family"), float_format=".3f"
        ),
    ]
    return "\n".join(lines) + "\n"


def write_robustness(
    dataset: EvalDataset,
    clean: str | Path,
    perturbed: dict[str, str | Path],
    out_dir: str | Path,
) -> dict[str, Any]:
    """Write robustness.json, robustness.md and paired.jsonl; return the metrics."""
    metrics, paired = robustness_metrics(dataset, clean, perturbed)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / "robustness.json", json.dumps(metrics, indent=2) + "\n")
    atomic_write_text(out / "robustness.md", robustness_markdown(metrics))
    atomic_write_text(
        out / "paired.jsonl", "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in paired)
    )
    return metrics
