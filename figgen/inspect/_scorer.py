"""figgen's scoring as an inspect_ai scorer, with per-level accuracy and per-family metrics."""

from __future__ import annotations

from collections import defaultdict

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

from figgen.eval.parse import parse_reply
from figgen.eval.scoring import score_answer
from figgen.vqa.item import QAItem


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


def _family_values(scores: list[SampleScore]) -> dict[str, list[tuple[str, float]]]:
    values: dict[str, list[tuple[str, float]]] = defaultdict(list)
    for sample_score in scores:
        meta = sample_score.score.metadata or {}
        if meta.get("value") is not None:
            values[meta["family"]].append((meta["metric"], float(meta["value"])))
    return values


@metric
def family_metrics() -> Metric:
    """Each family's mean by its own metric, over the replies that were not rejected.

    Keys are ``family/accuracy`` (exact and relaxed metrics), ``family/cer`` (mean CER), and
    ``family/abs_ssmape`` with ``family/ssmape_bias`` (mean |sSMAPE| and mean signed sSMAPE).
    """

    def means(scores: list[SampleScore]) -> dict[str, float]:
        out: dict[str, float] = {}
        for family, pairs in sorted(_family_values(scores).items()):
            kind, values = pairs[0][0], [v for _, v in pairs]
            mean = sum(values) / len(values)
            if kind == "ssmape":
                out[f"{family}/abs_ssmape"] = sum(abs(v) for v in values) / len(values)
                out[f"{family}/ssmape_bias"] = mean
            elif kind in ("cer", "cer_list"):
                out[f"{family}/cer"] = mean
            else:
                out[f"{family}/accuracy"] = mean
        return out

    return means


@scorer(
    metrics=[
        accuracy(),
        stderr(),
        grouped(accuracy(), "level", name_template="level_{group_name}", all=False),
        rejected(),
        family_metrics(),
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
                "rejected": result.rejected,
                "parsed": None if parsed.rejected else parsed.value,
            },
        )

    return score
