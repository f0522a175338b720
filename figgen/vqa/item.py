"""One question/answer item, and the shared vocabulary of answer types and metrics.

``figgen.vqa`` writes these to ``qa.jsonl``; ``figgen.eval`` reads them, parses a model's reply
by ``answer_type`` and scores it by ``metric``. Both sides import the names from here.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Level = Literal[1, 2, 3]
Scope = Literal["figure", "panel", "cross-panel"]

AnswerType = Literal[
    "integer",  # 7
    "number",  # 3.25
    "boolean",  # true / false
    "choice",  # one of ``choices`` (a string)
    "string",  # free text, e.g. a title
    "string_list",  # ["title a", "title b"]
    "choice_list",  # several of ``choices``, order irrelevant
    "integer_pair",  # [rows, cols]
    "number_pair",  # [low, high]
    "number_list",  # [1.0, 2.5, 4.0], order irrelevant
]

Metric = Literal[
    "exact",  # equality after normalisation (case-insensitive strings, ints, lists in order)
    "exact_set",  # the same set of values, order irrelevant
    "relaxed_5pct",  # |pred - gt| <= 5% of |gt| (per element for pairs)
    "relative_1pct",  # |pred - gt| <= 1% of |gt| (LongChart's numeric criterion)
    "ssmape",  # signed SMAPE 2(pred-gt)/(|pred|+|gt|); reported as mean |.| and bias
    "cer",  # character error rate of one string (LaTeX-normalised)
    "cer_list",  # CER of two lists aligned by minimum total edit distance
]


@dataclass
class QAItem:
    """A question about one figure, its correct answer and how to score a reply."""

    qid: str
    figure_id: str
    level: Level
    scope: Scope
    panel: int | None
    location: str | None
    family: str
    question: str
    answer: Any
    answer_type: AnswerType
    answer_key: str
    metric: Metric
    choices: list[str] | None = None
    evidence: list[int] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> QAItem:
        return cls(**values)
