"""What scoring gives back: one answer's :class:`Score`, and the :class:`ScoredAnswer` that
joins it with its question, reply row and figure facts (what aggregation, the report and the
plots read)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from figgen.schema.qa_item import Metric, QAItem


@dataclass(frozen=True)
class Score:
    """One item's score; ``value`` is the metric's own number, ``correct`` a pass/fail view.

    ``value`` is 1/0 for exact and relaxed metrics, the raw-string CER for ``cer`` and
    ``cer_list``, the signed sSMAPE for ``ssmape`` and the signed error in axis spans for
    ``axis_2pct``; ``details`` holds a metric's further numbers per answer
    (``cer_normalized``: the CER of the LaTeX-normalised text). A rejected answer has no value
    and is never correct.
    """

    metric: Metric
    value: float | None
    correct: bool | None
    rejected: bool = False
    reason: str | None = None
    details: Mapping[str, float] = field(default_factory=dict)

    @classmethod
    def rejected_answer(cls, metric: Metric, reason: str | None) -> Score:
        return cls(metric, None, None, rejected=True, reason=reason)


Outcome = Literal["correct", "wrong", "rejected", "error"]
"""What became of one question: scored right or wrong, a reply with no readable answer, or
no reply at all."""


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
    def outcome(self) -> Outcome:
        if self.score is None:
            return "error"
        if self.score.rejected:
            return "rejected"
        return "correct" if self.score.correct else "wrong"

    @property
    def scored(self) -> bool:
        """Whether a readable answer was scored (right or wrong)."""
        return self.outcome in ("correct", "wrong")
