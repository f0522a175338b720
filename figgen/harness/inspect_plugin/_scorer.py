"""figgen's scoring as an inspect_ai scorer, with per-level accuracy and per-family metrics."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from inspect_ai.scorer import (
    CORRECT,
    INCORRECT,
    Metric,
    SampleScore,
    Score,
    Scorer,
    Target,
    accuracy,
    grouped,
    metric,
    scorer,
    stderr,
)
from inspect_ai.solver import TaskState

from figgen.eval.blind.compare import correct
from figgen.eval.scoring.parse import parse_reply
from figgen.eval.scoring.scores import Score as FiggenScore
from figgen.eval.scoring.scoring import METRICS, score_answer
from figgen.schema.qa_item import QAItem


@metric
def rejected() -> Metric:
    """The share of replies that did not fit the requested answer format."""

    def share(scores: list[SampleScore]) -> float:
        if not scores:
            return 0.0
        return sum(bool(s.score.metadata and s.score.metadata["rejected"]) for s in scores) / len(
            scores
        )

    return share


def _mean(values: list[float]) -> float:
    return sum(values) / len(values)


def _answered(scores: list[SampleScore]) -> dict[str, list[dict[str, Any]]]:
    """Each family's score metadata, for the replies that were not rejected."""
    families: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for sample_score in scores:
        meta = sample_score.score.metadata or {}
        if meta.get("value") is not None:
            families[meta["family"]].append(meta)
    return families


def _figgen_score(meta: dict[str, Any]) -> FiggenScore:
    """The figgen score a sample's metadata holds."""
    details = meta.get("details") or {}
    return FiggenScore(meta["metric"], meta["value"], meta["correct"], details=details)


@metric
def family_metrics() -> Metric:
    """Each family's numbers by its own metric, over the replies that were not rejected.

    Named as in ``figgen eval score``'s metrics: the columns of the metric's table
    (``family/cer`` and ``family/cer_normalized``, ``family/ssmape_abs`` and
    ``family/ssmape_bias``; see :mod:`figgen.eval.scoring.scoring`), else ``family/accuracy``.
    """

    def means(scores: list[SampleScore]) -> dict[str, float]:
        out: dict[str, float] = {}
        for family, metas in sorted(_answered(scores).items()):
            table = METRICS.get_or_fail(metas[0]["metric"]).table
            if table is None:
                out[f"{family}/accuracy"] = _mean([float(bool(m["correct"])) for m in metas])
                continue
            answered = [_figgen_score(m) for m in metas]
            for column in table.columns:
                value = column.reduce(answered)
                if value is not None:
                    out[f"{family}/{column.name}"] = value
        return out

    return means


@metric
def blind_metrics() -> Metric:
    """Accuracy of the best blind baseline per family on the same samples, and the lift.

    ``blind_accuracy`` counts, in each family, the answers of the baseline that got most of
    them right (as ``figgen eval score`` does); ``lift_over_blind`` is accuracy minus it.
    """

    def values(scores: list[SampleScore]) -> dict[str, float]:
        right: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for sample_score in scores:
            meta = sample_score.score.metadata or {}
            for name, ok in (meta.get("blind_correct") or {}).items():
                right[meta.get("family", "")][name] += int(ok)
        if not scores:
            return {}
        blind = sum(max(names.values(), default=0) for names in right.values()) / len(scores)
        model = sum(sample_score.score.as_float() for sample_score in scores) / len(scores)
        return {"blind_accuracy": blind, "lift_over_blind": model - blind}

    return values


@scorer(
    metrics=[
        accuracy(),
        stderr(),
        grouped(accuracy(), "level", name_template="level_{group_name}", all=False),
        rejected(),
        family_metrics(),
        blind_metrics(),
    ]
)
def figgen_scorer() -> Scorer:
    """Parse the completion as ``figgen eval score`` does and score it by the item's metric.

    The sample is correct when figgen counts the answer correct; a rejected (unparseable)
    reply counts as incorrect, so accuracy is over all questions asked.
    """

    async def score(state: TaskState, target: Target) -> Score:
        item = QAItem.from_dict(state.metadata["item"])
        reply = state.output.completion
        parsed = parse_reply(reply, item)
        result = score_answer(item, parsed)
        return Score(
            value=CORRECT if result.correct else INCORRECT,
            answer=reply,
            explanation=result.reason,
            metadata={
                "family": item.family,
                "level": item.level,
                "metric": item.metric,
                "value": result.value,
                "correct": result.correct,
                "details": dict(result.details),
                "rejected": result.rejected,
                "parsed": None if parsed.rejected else parsed.value,
                "blind_correct": {
                    name: correct(item, value)
                    for name, value in (state.metadata.get("blind") or {}).items()
                },
            },
        )

    return score
