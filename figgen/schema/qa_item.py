"""One question/answer item, and the shared vocabulary of answer types and metrics.

``figgen.vqa`` writes these to ``qa.jsonl``; ``figgen.eval`` reads them, parses a model's reply
by ``answer_type`` and scores it by ``metric``. Both sides import the names from here.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from figgen._util.plain import as_plain_dict
from figgen.errors import FiggenError
from figgen.schema.answer_types import ANSWER_TYPES
from figgen.schema.answer_types import AnswerType as AnswerType  # re-exported beside QAItem

Level = Literal[1, 2, 3]
Scope = Literal["figure", "panel", "cross-panel"]

Metric = str
"""The name of a metric declared in :data:`figgen.schema.metrics.METRIC_DECLS` (``exact``,
``exact_set``, ``relaxed_5pct``, ``relative_1pct``, ``cer``, ``cer_list``, ``ssmape``,
``axis_2pct``, and any metric declared since) with its tolerance class, which the question side
reads; ``figgen.eval`` scores by its spec in :data:`figgen.eval.scoring.scoring.METRICS`."""


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
    axis_span: float | None = None
    """The span of the values drawn along the axis the answer is read on (data units: the axis
    shows it plus its margins), for a metric that scores an error as a share of it
    (``axis_2pct``); None, and left out of ``qa.jsonl``, for every other item."""

    def to_dict(self) -> dict[str, Any]:
        values = as_plain_dict(self)
        if self.axis_span is None:
            del values["axis_span"]
        return values

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> QAItem:
        """An item from its ``qa.jsonl`` form; a TypeError names the first field that does not
        fit (readers turn it into a one-line error naming the line)."""
        if not isinstance(values, dict):
            raise TypeError("not a JSON object")
        item = cls(**values)
        problem = item._problem()
        if problem:
            raise TypeError(problem)
        return item

    def _problem(self) -> str | None:
        for name in ("qid", "figure_id", "family", "question", "answer_key", "metric"):
            if not isinstance(getattr(self, name), str):
                return f"{name} must be a string"
        for name, allowed in (
            ("level", get_args(Level)),
            ("scope", get_args(Scope)),
            ("answer_type", tuple(ANSWER_TYPES)),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, str | int) or value not in allowed:
                return f"{name} must be one of {', '.join(map(str, allowed))}"
        if self.panel is not None and (isinstance(self.panel, bool) or not _is_int(self.panel)):
            return "panel must be an integer or null"
        if self.location is not None and not isinstance(self.location, str):
            return "location must be a string or null"
        if self.choices is not None and not (
            isinstance(self.choices, list) and all(isinstance(c, str) for c in self.choices)
        ):
            return "choices must be a list of strings or null"
        if not (isinstance(self.evidence, list) and all(_is_int(e) for e in self.evidence)):
            return "evidence must be a list of element ids"
        if self.axis_span is not None and not _positive(self.axis_span):
            return "axis_span must be a positive number or absent"
        return None


def read_items(path: Path) -> Iterator[QAItem]:
    """The items of a ``qa.jsonl`` file in order; a line that is not an item (damaged, cut
    short, not UTF-8) is a one-line FiggenError naming it."""
    with path.open("rb") as lines:
        for number, line in enumerate(lines, start=1):
            if not line.strip():
                continue
            try:
                yield QAItem.from_dict(json.loads(line))
            except (ValueError, TypeError) as exc:  # JSON and UTF-8 errors are ValueErrors
                raise FiggenError(
                    f"{path}:{number} is not a question item ({_short(exc)}); "
                    f"rewrite the file with `figgen qa {path.parent}`"
                ) from None


def _short(exc: Exception) -> str:
    return " ".join(str(exc).split())[:120]


def _positive(value: Any) -> bool:
    real = isinstance(value, int | float) and not isinstance(value, bool)
    return real and math.isfinite(value) and value > 0


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)
