"""Score one parsed answer against its QA item by the item's metric."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from figgen.eval.metrics import (
    cer,
    cer_list,
    exact_match,
    exact_set_match,
    relaxed_match,
    ssmape,
)
from figgen.eval.parse import ParsedAnswer
from figgen.vqa.item import Metric, QAItem

SSMAPE_CORRECT = 0.05
"""An sSMAPE answer counts as correct (for accuracy tables) when |sSMAPE| <= this."""


@dataclass(frozen=True)
class Score:
    """One item's score; ``value`` is the metric's own number, ``correct`` a pass/fail view.

    ``value`` is 1/0 for exact and relaxed metrics, the raw-string CER for ``cer`` and
    ``cer_list`` (``normalized_cer`` beside it compares the LaTeX-normalised text), and the
    signed sSMAPE for ``ssmape``. A rejected answer has no value and is never correct.
    """

    metric: Metric
    value: float | None
    correct: bool | None
    rejected: bool = False
    reason: str | None = None
    normalized_cer: float | None = None

    @classmethod
    def rejected_answer(cls, metric: Metric, reason: str | None) -> Score:
        return cls(metric, None, None, rejected=True, reason=reason)


def _numbers(value: Any) -> list[float]:
    return [float(v) for v in value] if isinstance(value, list) else [float(value)]


def _ssmape(prediction: Any, truth: Any) -> float:
    preds, truths = _numbers(prediction), _numbers(truth)
    if len(preds) != len(truths):
        return 2.0
    values = [ssmape(p, t) for p, t in zip(preds, truths, strict=True)]
    return sum(values) / len(values)


def _relaxed(prediction: Any, truth: Any) -> bool:
    preds, truths = _numbers(prediction), _numbers(truth)
    return len(preds) == len(truths) and all(
        relaxed_match(p, t) for p, t in zip(preds, truths, strict=True)
    )


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def score_value(metric: Metric, prediction: Any, truth: Any) -> Score:
    """Score an accepted prediction."""
    if metric == "exact":
        ok = exact_match(prediction, truth)
        return Score(metric, float(ok), ok)
    if metric == "exact_set":
        ok = exact_set_match(_as_list(prediction), _as_list(truth))
        return Score(metric, float(ok), ok)
    if metric == "relaxed_5pct":
        ok = _relaxed(prediction, truth)
        return Score(metric, float(ok), ok)
    if metric == "ssmape":
        value = _ssmape(prediction, truth)
        return Score(metric, value, abs(value) <= SSMAPE_CORRECT)
    if metric == "cer":
        ref, hyp = _text(truth), _text(prediction)
        value = cer(ref, hyp)
        return Score(metric, value, value == 0.0, normalized_cer=cer(ref, hyp, normalize=True))
    if metric == "cer_list":
        refs = [_text(t) for t in _as_list(truth)]
        hyps = [_text(p) for p in _as_list(prediction)]
        value = cer_list(refs, hyps)
        normalized = cer_list(refs, hyps, normalize=True)
        return Score(metric, value, value == 0.0, normalized_cer=normalized)
    raise ValueError(f"unknown metric {metric!r}")


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def score_answer(item: QAItem, parsed: ParsedAnswer) -> Score:
    """Score a parsed reply to ``item``; a rejected reply is kept apart (and never correct)."""
    if parsed.rejected:
        return Score.rejected_answer(item.metric, parsed.reason)
    return score_value(item.metric, parsed.value, item.answer)
