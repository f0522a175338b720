"""Initial against final answers (the paper's reply format holds both).

Each reply is parsed twice, under ``LLM_answer_initial`` and under ``LLM_answer_final``, with
the same parser and metric; the change between them is reported: how many replies changed
their answer, how many a change fixed (initial wrong, final right) and how many it broke.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from figgen.eval.scoring.parse import parse_reply
from figgen.eval.scoring.scoring import score_answer
from figgen.schema.qa_item import QAItem

INITIAL_KEY = "LLM_answer_initial"


@dataclass(frozen=True)
class Answer:
    """One readable answer and whether it is right."""

    value: Any
    correct: bool


def initial_answer(item: QAItem, row: dict[str, Any]) -> Answer | None:
    """The reply's initial answer, scored; None without a readable one."""
    if row.get("error") is not None or row.get("raw") is None:
        return None
    parsed = parse_reply(row["raw"], replace(item, answer_key=INITIAL_KEY))
    if parsed.rejected:
        return None
    return Answer(parsed.value, bool(score_answer(item, parsed).correct))


def initial_vs_final(pairs: list[tuple[Answer | None, Answer | None]]) -> dict[str, Any]:
    """Accuracy of the initial and final answers over the same questions, and the change.

    Both accuracies are over every question (a missing answer counts as wrong); the change is
    counted over the replies with both answers readable.
    """
    n = len(pairs)
    both = [(first, last) for first, last in pairs if first is not None and last is not None]
    return {
        "n": n,
        "initial_accuracy": sum(bool(f and f.correct) for f, _ in pairs) / n if n else None,
        "final_accuracy": sum(bool(last and last.correct) for _, last in pairs) / n if n else None,
        "with_both": len(both),
        "changed": sum(first.value != last.value for first, last in both),
        "fixed": sum(not first.correct and last.correct for first, last in both),
        "broken": sum(first.correct and not last.correct for first, last in both),
    }
