"""Every answer type is one declaration in ANSWER_TYPES, and what varies by type is read from it."""

from __future__ import annotations

from typing import get_args

import pytest

from figgen.errors import FiggenError
from figgen.schema.answer_types import (
    ANSWER_TYPES,
    AnswerType,
    AnswerTypeSpec,
    answer_instruction,
    answer_spec,
    declare_answer_type,
)


def test_the_registry_declares_the_literal_s_types_in_its_order() -> None:
    assert tuple(ANSWER_TYPES) == get_args(AnswerType)
    assert all(spec.name == name for name, spec in ANSWER_TYPES.items())


def test_a_type_declared_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="answer type 'number' is registered twice"):
        declare_answer_type(AnswerTypeSpec("number", "<number>", "a number", "number"))


def test_an_unknown_type_is_one_line_naming_the_known_ones() -> None:
    with pytest.raises(FiggenError, match=r"unknown answer type 'float'; known: integer, number"):
        answer_spec("float")


@pytest.mark.parametrize(
    ("answer_type", "value"),
    [
        ("integer", "<integer>"),
        ("number", "<number>"),
        ("boolean", "<true or false>"),
        ("choice", '<one of "a", "b c">'),
        ("string", "<string>"),
        ("string_list", "<list of strings>"),
        ("choice_list", '<list of any of "a", "b c">'),
        ("integer_pair", "[<integer>, <integer>]"),
        ("number_pair", "[<number>, <number>]"),
        ("number_list", "<list of numbers>"),
    ],
)
def test_the_instruction_states_each_type_s_value(answer_type: AnswerType, value: str) -> None:
    instruction = answer_instruction("key", answer_type, ["a", "b c"])
    assert instruction == f'Answer with a JSON object {{"key": {value}}} and nothing else.'


@pytest.mark.parametrize("answer_type", ["choice", "choice_list"])
def test_a_type_picked_from_the_choices_needs_them(answer_type: AnswerType) -> None:
    with pytest.raises(ValueError, match=f"a {answer_type} answer needs choices"):
        answer_instruction("key", answer_type, None)


def test_the_declarations_agree_with_themselves() -> None:
    for name, spec in ANSWER_TYPES.items():
        assert ("{choices}" in spec.placeholder) == (spec.choices is not None), name
        assert (spec.page_input == "pair") == spec.placeholder.startswith("["), name
        assert not (spec.integers or spec.continuous) or spec.numbers, name
        assert not (spec.integers and spec.continuous), name
        assert not (spec.fixed_choices and spec.choices), name


def test_what_blind_baselines_chance_and_people_read() -> None:
    def named(test: object) -> set[str]:
        return {name for name, spec in ANSWER_TYPES.items() if test(spec)}  # type: ignore[operator]

    assert named(lambda s: s.continuous) == {"number", "number_pair"}
    assert named(lambda s: s.few_classes) == {
        "choice",
        "choice_list",
        "integer",
        "integer_pair",
        "boolean",
    }
    assert named(lambda s: s.integers) == {"integer", "integer_pair"}
    assert named(lambda s: s.agreement == "categorical") == {"choice", "boolean", "choice_list"}
    assert named(lambda s: s.agreement == "numeric") == {
        "integer",
        "number",
        "integer_pair",
        "number_pair",
        "number_list",
    }
    assert named(lambda s: s.agreement is None) == {"string", "string_list"}
