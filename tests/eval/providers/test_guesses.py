"""The chance provider guesses with one registered guesser per answer type."""

from __future__ import annotations

from typing import Any

from figgen.eval.providers.guesses import GUESSERS, chance_answer
from figgen.eval.scoring.parse import coerce
from figgen.schema.answer_types import ANSWER_TYPES
from figgen.schema.qa_item import QAItem


def _item(answer_type: str, qid: str = "fig-000000-x-0-0") -> QAItem:
    choices = ["A", "B", "C"] if ANSWER_TYPES[answer_type].choices else None
    values: dict[str, Any] = {
        "qid": qid,
        "figure_id": "fig-000000",
        "level": 1,
        "scope": "figure",
        "panel": None,
        "location": None,
        "family": "x",
        "question": "?",
        "answer": None,
        "answer_type": answer_type,
        "answer_key": "x",
        "metric": "exact",
        "choices": choices,
    }
    return QAItem(**values)


def test_every_answer_type_has_a_guesser_and_every_guesser_a_type() -> None:
    assert set(GUESSERS) == set(ANSWER_TYPES)


def test_a_guess_has_its_type_s_shape_and_depends_only_on_the_qid() -> None:
    for name in ANSWER_TYPES:
        item = _item(name)
        guess = chance_answer(item)
        assert coerce(guess, item.answer_type, item.choices) == guess, name
        assert chance_answer(_item(name)) == guess, name
        if item.choices and isinstance(guess, list):
            assert set(guess) <= set(item.choices), name
        elif item.choices:
            assert guess in item.choices, name
