"""Reduce scored answers to the numbers in metrics.json: counts, means, tokens and cost."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

from figgen.eval.cost.prices import PriceTable
from figgen.eval.run.billing import CACHE_AND_BATCH_KEYS, rows_cost
from figgen.eval.run.dataset import EvalDataset
from figgen.eval.scoring.metrics import containment_region
from figgen.eval.scoring.parse import ParsedAnswer, parse_reply
from figgen.eval.scoring.scores import ScoredAnswer as ScoredAnswer  # its home before scores.py
from figgen.eval.scoring.scoring import METRICS, score_answer
from figgen.schema.answers import latest_rows
from figgen.vqa.questions.family_table import is_count

logger = logging.getLogger(__name__)

COUNT_REGION_LEVEL = 0.9


def score_rows(dataset: EvalDataset, rows: Iterable[dict[str, Any]]) -> list[ScoredAnswer]:
    """Score one model's rows (the last per qid), re-parsing each raw reply."""
    items = {item.qid: item for item in dataset.items}
    out: list[ScoredAnswer] = []
    unknown = 0
    # the same reply to the same kind of question parses the same way (and replies such as
    # {"n_panels": 4} recur thousands of times in a large run)
    parses: dict[tuple[Any, ...], ParsedAnswer] = {}
    for qid, row in latest_rows(list(rows)).items():
        item = items.get(qid)
        if item is None:
            unknown += 1
            continue
        parsed = None
        if row.get("error") is None:
            key = (row.get("raw"), item.answer_key, item.answer_type, tuple(item.choices or ()))
            parsed = parses.get(key)
            if parsed is None:
                parsed = parses[key] = parse_reply(row.get("raw"), item)
        score = None if parsed is None else score_answer(item, parsed)
        out.append(
            ScoredAnswer(
                item,
                row,
                score,
                None if parsed is None else parsed.value,
                dataset.n_panels(item.figure_id),
                dataset.plot_kind(item),
            )
        )
    if unknown:
        logger.warning("%d answered qids are not in the dataset and were ignored", unknown)
    return out


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


RATE_DIGITS = 6
"""Rates and means in metrics.json are rounded to this many decimals (no 1e-17 "biases")."""


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, RATE_DIGITS) + 0.0  # + 0.0: no -0.0


def _ratio(part: int, whole: int) -> float | None:
    return _rounded(part / whole) if whole else None


def _counts(group: list[ScoredAnswer]) -> dict[str, Any]:
    """Counts and the three accuracy views of a group of questions.

    ``accuracy`` is over every question asked: a rejected answer, or a question that got no
    reply, counts as wrong. ``accuracy_answered`` is over the answers that could be read
    (``scored``), and ``rejection_rate`` the share of replies that held no readable answer.
    """
    outcomes = Counter(a.outcome for a in group)
    n, correct, rejected = len(group), outcomes["correct"], outcomes["rejected"]
    scored = correct + outcomes["wrong"]
    replies = scored + rejected
    return {
        "n": n,
        "answered": replies,
        "rejected": rejected,
        "errors": outcomes["error"],
        "scored": scored,
        "correct": correct,
        "accuracy": _ratio(correct, n),
        "accuracy_answered": _ratio(correct, scored),
        "rejection_rate": _ratio(rejected, replies),
    }


def _group(answers: list[ScoredAnswer], key: Callable[[ScoredAnswer], Any]) -> dict[str, Any]:
    groups: dict[Any, list[ScoredAnswer]] = {}
    for answer in answers:
        groups.setdefault(key(answer), []).append(answer)

    def order(key: Any) -> tuple[int, float, str]:  # numbers numerically, then names
        number = isinstance(key, int | float) and not isinstance(key, bool)
        return (0, float(key), "") if number else (1, 0.0, str(key))

    return {str(k): _counts(groups[k]) for k in sorted(groups, key=order)}


def _family(group: list[ScoredAnswer]) -> dict[str, Any]:
    """A family's counts and accuracy views, plus the columns its metric's table names
    (``ssmape_abs`` and ``ssmape_bias``, ``cer`` and ``cer_normalized``: see
    :mod:`figgen.eval.scoring.scoring`), reduced over the scored answers."""
    metric = group[0].item.metric
    entry: dict[str, Any] = {"level": group[0].item.level, "metric": metric, **_counts(group)}
    table = METRICS.get_or_fail(metric).table
    if table is not None:
        scores = [a.score for a in group if a.scored and a.score is not None]
        for column in table.columns:
            entry[column.name] = _rounded(column.reduce(scores))
    return entry


def error_kind(error: str) -> str:
    """The exception name an error row starts with ("RateLimitError: ..."), else "error"."""
    head = error.split(":", 1)[0].strip()
    return head if head.isidentifier() else "error"


def _errors_by_kind(answers: list[ScoredAnswer]) -> dict[str, int]:
    kinds = Counter(error_kind(str(a.row["error"])) for a in answers if a.row.get("error"))
    return dict(sorted(kinds.items()))


def _count_distribution(group: list[ScoredAnswer]) -> dict[str, Any] | None:
    """Estimate-vs-truth pairs and the 90% containment region for an integer family."""
    pairs: list[tuple[float, float]] = []
    for answer in group:
        truth, estimate = answer.item.answer, answer.parsed
        if not answer.scored or isinstance(truth, bool) or not isinstance(truth, int | float):
            continue
        if isinstance(estimate, int | float):
            pairs.append((float(truth), float(estimate)))
    if not pairs:
        return None
    truths, estimates = [p[0] for p in pairs], [p[1] for p in pairs]
    region = containment_region(truths, estimates, COUNT_REGION_LEVEL)
    return {
        "truth": truths,
        "estimate": estimates,
        "region_level": COUNT_REGION_LEVEL,
        "region": {f"{k:g}": list(v) for k, v in region.items()},
    }


def model_metrics(answers: list[ScoredAnswer], model: str, prices: PriceTable) -> dict[str, Any]:
    """The metrics.json entry of one model."""
    counts = _counts(answers)
    price = prices.lookup(model)
    # priced row by row per token class (unpriced here: what the run recorded)
    billing = rows_cost([a.row for a in answers], price)
    input_tokens, output_tokens = billing["input_tokens"], billing["output_tokens"]
    cost = billing["cost_usd"]
    families: dict[str, list[ScoredAnswer]] = {}
    for answer in answers:
        families.setdefault(answer.item.family, []).append(answer)
    by_family = {name: _family(families[name]) for name in sorted(families)}
    by_level = _group(answers, lambda a: a.item.level)
    level_rows: dict[str, list[dict[str, Any]]] = {}
    for answer in answers:
        level_rows.setdefault(str(answer.item.level), []).append(answer.row)
    for level, entry in by_level.items():
        entry["cost_usd"] = rows_cost(level_rows[level], price)["cost_usd"]
        entry["cost_per_question"] = entry["cost_usd"] / entry["n"] if entry["n"] else None
    distributions = {}
    for name, group in sorted(families.items()):
        if group[0].item.answer_type == "integer" and is_count(name):
            distribution = _count_distribution(group)
            if distribution is not None:
                distributions[name] = distribution
    accuracy = counts["accuracy"]
    latencies = [float(a.row["latency_s"]) for a in answers if a.row.get("latency_s") is not None]
    return {
        **counts,
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cost_usd": cost,
        **{key: billing[key] for key in CACHE_AND_BATCH_KEYS},
        "by_level": by_level,
        "by_family": by_family,
        "errors_by_kind": _errors_by_kind(answers),
        "priced": price is not None,
        "cost_per_1000_questions": 1000 * cost / counts["n"] if counts["n"] else None,
        "accuracy_per_usd": accuracy / cost if accuracy is not None and cost > 0 else None,
        "cost_per_question": cost / counts["n"] if counts["n"] else None,
        "mean_latency_s": _mean(latencies),
        "image_scaled": sum(1 for a in answers if float(a.row.get("image_scale", 1.0)) < 1.0),
        "by_kind": _group(answers, lambda a: a.kind),
        "by_panel_count": _group(answers, lambda a: a.n_panels if a.n_panels is not None else "?"),
        "count_distributions": distributions,
    }


def build_metrics(
    dataset: EvalDataset, rows: Iterable[dict[str, Any]], prices: PriceTable
) -> tuple[dict[str, Any], dict[str, list[ScoredAnswer]]]:
    """metrics.json for every model in ``rows``, and the scored answers behind it."""
    by_model: dict[str, list[dict[str, Any]]] = {}
    for row in rows:
        by_model.setdefault(run_label(row), []).append(row)
    scored = {model: score_rows(dataset, model_rows) for model, model_rows in by_model.items()}
    metrics = {
        "models": {
            label: model_metrics(answers, str(by_model[label][0].get("model")), prices)
            for label, answers in scored.items()
        },
        "price_table_as_of": prices.as_of,
    }
    return metrics, scored


def run_label(row: dict[str, Any]) -> str:
    """The model, with the prompt mode beside it when that is not plain: "oracle [grounded]"."""
    mode = row.get("prompt", "plain")
    return str(row.get("model")) if mode == "plain" else f"{row.get('model')} [{mode}]"
