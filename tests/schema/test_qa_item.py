"""Every item states how to answer, and its stored answer fits that format."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

from figgen.schema.answer_types import answer_instruction
from figgen.vqa import QAItem, questions_for_record
from tests.vqa.records import line_panel, make_record, mixed_record

pytestmark = pytest.mark.usefixtures("unbalanced")  # rules, not balancing: see test_balance.py


def fits(item: QAItem) -> bool:
    """Does the stored answer have the shape the question asks for?"""
    value: Any = item.answer
    number = (int, float)
    match item.answer_type:
        case "integer":
            return isinstance(value, int) and not isinstance(value, bool)
        case "number":
            return isinstance(value, number) and not isinstance(value, bool)
        case "boolean":
            return isinstance(value, bool)
        case "choice":
            return value in (item.choices or [])
        case "choice_list":
            return isinstance(value, list) and set(value) <= set(item.choices or [])
        case "string":
            return isinstance(value, str) and value != ""
        case "string_list":
            return isinstance(value, list) and all(isinstance(v, str) for v in value)
        case "integer_pair":
            return (
                isinstance(value, list)
                and len(value) == 2
                and all(isinstance(v, int) for v in value)
            )
        case "number_pair":
            return isinstance(value, list) and len(value) == 2 and value[0] <= value[1]
        case "number_list":
            return isinstance(value, list) and all(isinstance(v, number) for v in value)
    return False


@pytest.fixture(scope="module")
def items() -> list[QAItem]:
    return [i for seed in range(3) for i in questions_for_record(mixed_record(seed, seed))]


def test_questions_end_with_the_json_instruction(items: list[QAItem]) -> None:
    for item in items:
        instruction = answer_instruction(item.answer_key, item.answer_type, item.choices)
        assert item.question.endswith(instruction)
        assert f'{{"{item.answer_key}": ' in item.question
        if item.choices:
            for choice in item.choices:
                assert json.dumps(choice) in item.question


def test_answers_fit_their_format(items: list[QAItem]) -> None:
    bad = [(i.qid, i.answer_type, i.answer) for i in items if not fits(i)]
    assert bad == []


def test_a_perfect_reply_parses_back_to_the_answer(items: list[QAItem]) -> None:
    for item in items:
        reply = json.dumps({item.answer_key: item.answer})
        assert json.loads(reply)[item.answer_key] == item.answer


def test_items_are_deterministic_and_qids_unique() -> None:
    first = [i.to_dict() for i in questions_for_record(mixed_record(4, 4))]
    second = [i.to_dict() for i in questions_for_record(mixed_record(4, 4))]
    assert first == second
    assert len({i["qid"] for i in first}) == len(first)
    assert all(i["qid"].startswith("fig-000004-") for i in first)


def test_all_levels_and_scopes_present(items: list[QAItem]) -> None:
    assert {i.level for i in items} == {1, 2, 3}
    assert {i.scope for i in items} == {"figure", "panel", "cross-panel"}
    for item in items:
        assert (item.panel is None) == (item.scope != "panel")
        assert (item.location is None) == (item.panel is None)


def test_single_panel_figure_has_no_cross_panel_items_and_says_only_panel() -> None:
    rng = np.random.default_rng(0)
    items = questions_for_record(make_record([line_panel(rng)], 1, 1))
    assert {i.scope for i in items} == {"figure", "panel"}
    assert {i.location for i in items if i.scope == "panel"} == {"the only panel"}
    assert len(items) >= 30  # two named lines give many value questions


def test_items_round_trip_through_json(items: list[QAItem]) -> None:
    for item in items[:50]:
        assert QAItem.from_dict(json.loads(json.dumps(item.to_dict()))) == item


def test_the_eval_oracle_scores_every_item_correct(items: list[QAItem]) -> None:
    from figgen.eval.providers import oracle_reply
    from figgen.eval.scoring.parse import parse_reply
    from figgen.eval.scoring.scoring import score_answer

    scores = [score_answer(i, parse_reply(oracle_reply(i), i)) for i in items]
    assert [(i.qid, s) for i, s in zip(items, scores, strict=True) if not s.correct] == []
