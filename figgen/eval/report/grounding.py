"""The grounding and pointing part of a report: location scores, and accuracy vs plain prompts.

Accuracy here is over all questions asked (a rejected answer or a failed call counts as
wrong), compared on the questions both runs asked, so a change is the prompt's doing and not
a change of question set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from figgen._util.markdown import markdown_table
from figgen.eval.grounding.evidence import evidence_target
from figgen.eval.grounding.grounding import LocationScore, PromptMode, score_location
from figgen.eval.grounding.set_grounding import score_set_location
from figgen.eval.report.aggregate import ScoredAnswer
from figgen.eval.run.dataset import EvalDataset

_METRIC = {"grounded": "mean_diou", "pointed": "mean_chamfer"}


def _mode(answers: list[ScoredAnswer]) -> PromptMode:
    return answers[0].row.get("prompt", "plain") if answers else "plain"


def _correct(answer: ScoredAnswer) -> bool:
    return answer.outcome == "correct"


def _mean(values: Iterable[float]) -> float | None:
    listed = list(values)
    return sum(listed) / len(listed) if listed else None


def location_scores(
    dataset: EvalDataset, answers: list[ScoredAnswer]
) -> list[tuple[ScoredAnswer, LocationScore]]:
    """Each replied answer of a grounded or pointed run with its location score."""
    mode = _mode(answers)
    out = []
    for answer in answers:
        if answer.row.get("error") is not None:
            continue
        set_target = dataset.set_targets.get(answer.item.qid)
        if set_target is not None:  # a multi-chart question: evidence in several images
            out.append((answer, score_set_location(mode, answer.row, set_target)))
            continue
        record = dataset.record(answer.item.figure_id)
        target = None if record is None else evidence_target(record, answer.item)
        out.append((answer, score_location(mode, answer.row, target)))
    return out


def _location_summary(
    mode: PromptMode, scores: list[tuple[ScoredAnswer, LocationScore]]
) -> dict[str, Any]:
    eligible = [(a, s) for a, s in scores if s.eligible]
    located = [(a, s) for a, s in eligible if s.value is not None]
    by_level: dict[str, list[float]] = {}
    for answer, score in located:
        by_level.setdefault(str(answer.item.level), []).append(float(score.value or 0.0))
    return {
        "mode": mode,
        "replies": len(scores),
        "eligible": len(eligible),
        "located": len(located),
        "rejected": len(eligible) - len(located),
        _METRIC[mode]: _mean(float(s.value or 0.0) for _, s in located),
        "by_level": {level: _mean(values) for level, values in sorted(by_level.items())},
        "frames": dict(Counter(str(s.frame) for _, s in located)),
    }


def _accuracy_change(plain: list[ScoredAnswer], other: list[ScoredAnswer]) -> dict[str, Any]:
    base = {a.item.qid: a for a in plain}
    pairs = [(base[a.item.qid], a) for a in other if a.item.qid in base]
    levels: dict[str, list[tuple[ScoredAnswer, ScoredAnswer]]] = {}
    for pair in pairs:
        levels.setdefault(str(pair[0].item.level), []).append(pair)

    def compare(group: list[tuple[ScoredAnswer, ScoredAnswer]]) -> dict[str, Any]:
        before = _mean(float(_correct(p)) for p, _ in group)
        after = _mean(float(_correct(o)) for _, o in group)
        change = None if before is None or after is None else after - before
        return {"paired": len(group), "plain": before, "accuracy": after, "change": change}

    return {**compare(pairs), "by_level": {k: compare(v) for k, v in sorted(levels.items())}}


def grounding_metrics(
    dataset: EvalDataset, scored: dict[str, list[ScoredAnswer]]
) -> dict[str, Any] | None:
    """Location scores of every grounded or pointed run, and its accuracy change against the
    plain run of the same model; None when every run was plain."""
    runs = {label: answers for label, answers in scored.items() if _mode(answers) != "plain"}
    if not runs:
        return None
    plain_runs = {
        str(answers[0].row.get("model")): answers
        for answers in scored.values()
        if answers and _mode(answers) == "plain"
    }
    section: dict[str, Any] = {"runs": {}}
    for label, answers in runs.items():
        mode = _mode(answers)
        entry = _location_summary(mode, location_scores(dataset, answers))
        plain = plain_runs.get(str(answers[0].row.get("model")))
        entry["vs_plain"] = None if plain is None else _accuracy_change(plain, answers)
        section["runs"][label] = entry
    return section


def grounding_markdown(section: dict[str, Any]) -> str:
    """The report's "Grounding and pointing" section."""
    runs = section["runs"].items()
    overview = [
        [
            label,
            run["replies"],
            run["eligible"],
            run["located"],
            run["rejected"],
            run.get("mean_diou"),
            run.get("mean_chamfer"),
            ", ".join(f"{k} {v}" for k, v in sorted(run["frames"].items())) or None,
            *(
                (run["vs_plain"] or {}).get(key)
                for key in ("paired", "plain", "accuracy", "change")
            ),
        ]
        for label, run in runs
    ]
    levels = []
    for label, run in runs:
        by_level = (run["vs_plain"] or {}).get("by_level", {})
        for level in sorted(set(run["by_level"]) | set(by_level)):
            vs = by_level.get(level, {})
            levels.append(
                [
                    label,
                    level,
                    run["by_level"].get(level),
                    *(vs.get(key) for key in ("paired", "plain", "accuracy", "change")),
                ]
            )
    lines = [
        "## Grounding and pointing",
        "",
        "mDIoU: distance-IoU of the reply's boxes against the evidence regions, paired one to "
        "one (an unpaired box scores -1), in (-1, 1], 1 is exact. Chamfer: bidirectional "
        "Chamfer distance of the reply's points to the evidence points over the image "
        "diagonal, 0 is exact. Accuracy change: accuracy over all asked questions minus the "
        "same model's plain-prompt accuracy on the same questions.",
        "",
        *markdown_table(
            [
                "run",
                "replies",
                "locatable",
                "located",
                "rejected",
                "mDIoU",
                "Chamfer",
                "frames",
                "paired",
                "plain acc.",
                "acc.",
                "change",
            ],
            overview,
            float_format=".3f",
        ),
        "",
        *markdown_table(
            ["run", "level", "location score", "paired", "plain acc.", "acc.", "change"],
            levels,
            float_format=".3f",
        ),
    ]
    return "\n".join(lines) + "\n"
