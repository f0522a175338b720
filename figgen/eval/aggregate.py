"""Reduce scored answers to the numbers in metrics.json: counts, means, tokens and cost."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from figgen.eval.answers import latest_rows
from figgen.eval.dataset import EvalDataset
from figgen.eval.metrics import containment_region
from figgen.eval.parse import parse_reply
from figgen.eval.prices import PriceTable
from figgen.eval.scoring import Score, score_answer
from figgen.vqa.item import QAItem

logger = logging.getLogger(__name__)

COUNT_REGION_LEVEL = 0.9


@dataclass(frozen=True)
class ScoredAnswer:
    """One question's row joined with its item, figure facts and score (None: no reply)."""

    item: QAItem
    row: dict[str, Any]
    score: Score | None
    parsed: Any
    n_panels: int | None
    kind: str

    @property
    def scored(self) -> bool:
        return self.score is not None and not self.score.rejected


def score_rows(dataset: EvalDataset, rows: Iterable[dict[str, Any]]) -> list[ScoredAnswer]:
    """Score one model's rows (the last per qid), re-parsing each raw reply."""
    items = {item.qid: item for item in dataset.items}
    out: list[ScoredAnswer] = []
    unknown = 0
    for qid, row in latest_rows(list(rows)).items():
        item = items.get(qid)
        if item is None:
            unknown += 1
            continue
        parsed = None if row.get("error") is not None else parse_reply(row.get("raw"), item)
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


def _counts(group: list[ScoredAnswer]) -> dict[str, Any]:
    """n, answered, rejected and accuracy (share correct of the scored answers)."""
    answered = [a for a in group if a.score is not None]
    scored = [a for a in answered if a.scored]
    correct = [a for a in scored if a.score is not None and a.score.correct]
    return {
        "n": len(group),
        "answered": len(answered),
        "rejected": len(answered) - len(scored),
        "accuracy": len(correct) / len(scored) if scored else None,
    }


def _group(answers: list[ScoredAnswer], key: Callable[[ScoredAnswer], Any]) -> dict[str, Any]:
    groups: dict[Any, list[ScoredAnswer]] = {}
    for answer in answers:
        groups.setdefault(key(answer), []).append(answer)

    def order(key: Any) -> tuple[int, float, str]:  # numbers numerically, then names
        number = isinstance(key, int | float) and not isinstance(key, bool)
        return (0, float(key), "") if number else (1, 0.0, str(key))

    return {str(k): _counts(groups[k]) for k in sorted(groups, key=order)}


def _family(group: list[ScoredAnswer]) -> tuple[dict[str, Any], dict[str, Any]]:
    """The issue's by_family entry and the extra details kept beside it."""
    metric = group[0].item.metric
    values = [a.score.value for a in group if a.scored and a.score and a.score.value is not None]
    counts = _counts(group)
    # The mean of the metric's own per-answer values; for sSMAPE that is signed (a bias),
    # so the typical size of the error is kept beside it as mean_abs.
    mean = _mean(values)
    entry = {"n": counts["n"], "rejected": counts["rejected"], "metric": metric, "mean": mean}
    details = {
        "level": group[0].item.level,
        "answered": counts["answered"],
        "errors": counts["n"] - counts["answered"],
        "accuracy": counts["accuracy"],
    }
    if metric == "ssmape":
        details["mean_abs"] = _mean([abs(v) for v in values])
    return entry, details


def error_kind(error: str) -> str:
    """The exception name an error row starts with ("RateLimitError: ..."), else "error"."""
    head = error.split(":", 1)[0].strip()
    return head if head.isidentifier() else "error"


def _errors_by_kind(answers: list[ScoredAnswer]) -> dict[str, int]:
    kinds = Counter(error_kind(str(a.row["error"])) for a in answers if a.row.get("error"))
    return dict(sorted(kinds.items()))


def _is_count(family: str) -> bool:
    """Families that ask how many of something (panel_count, n_bars, ...)."""
    return "count" in family or family.startswith("n_")


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
    input_tokens = sum(int(a.row.get("usage", {}).get("input_tokens", 0)) for a in answers)
    output_tokens = sum(int(a.row.get("usage", {}).get("output_tokens", 0)) for a in answers)
    price = prices.lookup(model)
    if price is not None:
        cost = price.cost(input_tokens, output_tokens)
    else:  # unpriced here: keep what the run recorded
        cost = sum(float(a.row.get("cost_usd") or 0.0) for a in answers)
    families: dict[str, list[ScoredAnswer]] = {}
    for answer in answers:
        families.setdefault(answer.item.family, []).append(answer)
    by_family, details = {}, {}
    for name in sorted(families):
        by_family[name], details[name] = _family(families[name])
    by_level = _group(answers, lambda a: a.item.level)
    for level, entry in by_level.items():
        level_rows = [a.row for a in answers if str(a.item.level) == level]
        tokens_in = sum(int(r.get("usage", {}).get("input_tokens", 0)) for r in level_rows)
        tokens_out = sum(int(r.get("usage", {}).get("output_tokens", 0)) for r in level_rows)
        entry["cost_usd"] = (
            price.cost(tokens_in, tokens_out)
            if price is not None
            else sum(float(r.get("cost_usd") or 0.0) for r in level_rows)
        )
    distributions = {}
    for name, group in sorted(families.items()):
        if group[0].item.answer_type == "integer" and _is_count(name):
            distribution = _count_distribution(group)
            if distribution is not None:
                distributions[name] = distribution
    accuracy = counts["accuracy"]
    latencies = [float(a.row["latency_s"]) for a in answers if a.row.get("latency_s") is not None]
    return {
        "n": counts["n"],
        "answered": counts["answered"],
        "rejected": counts["rejected"],
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "cost_usd": cost,
        "by_level": by_level,
        "by_family": by_family,
        "errors": counts["n"] - counts["answered"],
        "errors_by_kind": _errors_by_kind(answers),
        "accuracy": accuracy,
        "priced": price is not None,
        "cost_per_1000_questions": 1000 * cost / counts["n"] if counts["n"] else None,
        "accuracy_per_usd": accuracy / cost if accuracy is not None and cost > 0 else None,
        "mean_latency_s": _mean(latencies),
        "image_scaled": sum(1 for a in answers if float(a.row.get("image_scale", 1.0)) < 1.0),
        "family_details": details,
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
        by_model.setdefault(str(row.get("model")), []).append(row)
    scored = {model: score_rows(dataset, model_rows) for model, model_rows in by_model.items()}
    metrics = {
        "models": {
            model: model_metrics(answers, model, prices) for model, answers in scored.items()
        },
        "price_table_as_of": prices.as_of,
    }
    return metrics, scored
