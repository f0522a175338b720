"""What the page asks per answer type (read from its declaration), and a person's input."""

from __future__ import annotations

from typing import Any

import pytest

from figgen.human.inputs import InvalidAnswer, answer_value, page_question
from figgen.schema.qa_item import QAItem


def _item(answer_type: str, choices: list[str] | None = None) -> QAItem:
    values: dict[str, Any] = {
        "qid": "fig-000000-x-0-0",
        "figure_id": "fig-000000",
        "level": 1,
        "scope": "figure",
        "panel": None,
        "location": None,
        "family": "x",
        "question": 'Give [rows, columns]. Answer with a JSON object {"x": <v>} and nothing else.',
        "answer": None,
        "answer_type": answer_type,
        "answer_key": "x",
        "metric": "exact",
        "choices": choices,
    }
    return QAItem(**values)


@pytest.mark.parametrize(
    ("answer_type", "extra"),
    [
        ("integer", {"input": "number", "integer": True}),
        ("number", {"input": "number", "integer": False}),
        ("integer_pair", {"input": "pair", "integer": True, "labels": ["rows", "columns"]}),
        ("number_pair", {"input": "pair", "integer": False, "labels": ["rows", "columns"]}),
        (
            "boolean",
            {
                "input": "choice",
                "integer": False,
                "choices": [{"label": "true", "value": True}, {"label": "false", "value": False}],
            },
        ),
        (
            "choice",
            {"input": "choice", "integer": False, "choices": [{"label": "a", "value": "a"}]},
        ),
        (
            "choice_list",
            {"input": "choices", "integer": False, "choices": [{"label": "a", "value": "a"}]},
        ),
        ("string_list", {"input": "list", "integer": False, "numbers": False}),
        ("number_list", {"input": "list", "integer": False, "numbers": True}),
        ("string", {"input": "text", "integer": False}),
    ],
)
def test_the_page_question_of_each_type(answer_type: str, extra: dict[str, Any]) -> None:
    choices = ["a"] if answer_type in ("choice", "choice_list") else None
    question = page_question(_item(answer_type, choices))
    assert question == {"qid": "fig-000000-x-0-0", "text": "Give [rows, columns].", **extra}


def test_a_boolean_is_true_or_false_and_nothing_that_equals_them() -> None:
    item = _item("boolean")
    assert answer_value(item, False) is False
    for value in (1, 0, 1.0, "true"):
        with pytest.raises(InvalidAnswer, match="choose true or false"):
            answer_value(item, value)


def test_list_entries_are_numbers_only_for_a_number_list() -> None:
    assert answer_value(_item("number_list"), [" 2.5 ", "", "3"]) == ["2.5", "3"]
    assert answer_value(_item("string_list"), [" a ", "b"]) == ["a", "b"]
    with pytest.raises(InvalidAnswer, match="is not a number"):
        answer_value(_item("number_list"), ["two"])
