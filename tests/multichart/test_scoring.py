"""The 1% criterion (LongChart appendix F.1) and the paper's reply format, parsed and scored."""

from __future__ import annotations

import json

import pytest

from figgen.eval.scoring.parse import parse_reply
from figgen.eval.scoring.scoring import score_answer, score_value
from figgen.multichart.prompt import ANSWER_KEY, qa_item
from figgen.multichart.questions import Ask, Target


@pytest.mark.parametrize(
    ("prediction", "truth"),
    [(101.0, 100.0), (99.0, 100.0), (101.01, 100.0), (-2.0, -2.03), (0.0, 0.0), (0.001, 0.0)],
)
def test_relative_1pct_is_the_papers_rule(prediction, truth):
    expected = abs(prediction - truth) <= 0.01 * abs(truth) + 1e-12  # |a - a*| / |a*| <= 1%
    assert score_value("relative_1pct", prediction, truth).correct is expected


def _item(answer, answer_type, options=None):
    ask = Ask("compare", "greater", "Is it?", [Target("a", (1, 2))], answer, answer_type, options)
    return qa_item(ask, qid="q", figure_id="f", number=1)


@pytest.mark.parametrize(
    ("answer", "answer_type", "options", "reply", "correct"),
    [
        (12.5, "number", None, "12.6", True),
        (12.5, "number", None, "13", False),
        (True, "boolean", None, "True", True),
        (False, "boolean", None, "True", False),
        ("C", "choice", ["x", "y", "z", "w"], "C", True),
        ("C", "choice", ["x", "y", "z", "w"], "B", False),
        ("A", "choice", ["2021", "2019", "2020", "2018"], "A. 2021", True),
        ("A", "choice", ["2021", "2019", "2020", "2018"], "(A) 2021", True),
        ("A", "choice", ["2021", "2019", "2020", "2018"], "B: 2019", False),
    ],
)
def test_replies_in_the_papers_json_are_scored(answer, answer_type, options, reply, correct):
    item = _item(answer, answer_type, options)
    assert item.answer_key == ANSWER_KEY and "JSON" in item.question
    text = json.dumps({"LLM_answer_initial": "?", "reasoning": "r", ANSWER_KEY: reply})
    parsed = parse_reply(text, item)
    assert not parsed.rejected
    assert score_answer(item, parsed).correct is correct
    if options:
        listed = " ".join(f"{letter}. {o}" for letter, o in zip("ABCD", options, strict=True))
        assert listed in item.question
