"""Reply parsing: JSON in fences and prose, number formats, lists, and rejections."""

from __future__ import annotations

import pytest

from figgen.eval.providers import oracle_reply
from figgen.eval.scoring.parse import parse_number, parse_reply
from figgen.eval.scoring.scoring import score_answer
from figgen.schema.qa_item import QAItem
from tests.eval.fixtures import items

BY_TYPE: dict[str, QAItem] = {}
for _item in items():
    BY_TYPE.setdefault(_item.answer_type, _item)  # the first item of each answer type


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1,234.5", 1234.5),
        ("12,345,678", 12345678.0),
        ("3.2 km/s", 3.2),
        ("-1.5e-3", -0.0015),
        ("2.5 \\times 10^{4}", 25000.0),
        ("$3 \\times 10^{-2}$", 0.03),
        ("1.2×10^5", 120000.0),
        ("\u22124.5", -4.5),
        ("$\\frac{1}{4}$", 0.25),
        ("\\(7.25\\)", 7.25),
        ("10^{3}", 1000.0),
        ("approximately 42 counts", 42.0),
        ("1\\,000", 1000.0),
    ],
)
def test_parse_number_formats(text: str, expected: float) -> None:
    assert parse_number(text) == pytest.approx(expected)


def test_json_in_code_fence_and_prose() -> None:
    item = BY_TYPE["integer"]
    fenced = 'Here you go:\n```json\n{"n_panels": 4}\n```'
    prose = 'Looking at the figure, I count them. {"n_panels": "4 panels"} Hope that helps.'
    assert parse_reply(fenced, item).value == 4
    assert parse_reply(prose, item).value == 4
    assert parse_reply("4", item).value == 4
    assert parse_reply('{"N_Panels": 4.0}', item).value == 4


@pytest.mark.parametrize(
    ("answer_type", "reply", "expected"),
    [
        ("integer_pair", '{"layout": "2 x 3"}', [2, 3]),
        ("integer_pair", '{"layout": [2, 3]}', [2, 3]),
        ("number_pair", '{"x_range": ["-10", "2.5e2"]}', [-10.0, 250.0]),
        ("number_list", '{"ticks": "0, 0.5, 1"}', [0.0, 0.5, 1.0]),
        ("boolean", '{"errorbars": "yes"}', True),
        ("boolean", "false", False),
        ("choice", '{"plot_type": "Histogram."}', "histogram"),
        ("choice_list", '{"plot_types": ["Line", "contour"]}', ["line", "contour"]),
        ("string_list", '{"titles": ["a", null]}', ["a", ""]),
        ("string", '{"xlabel": "time $t$"}', "time $t$"),
    ],
)
def test_coercion_by_answer_type(answer_type: str, reply: str, expected: object) -> None:
    assert parse_reply(reply, BY_TYPE[answer_type]).value == expected


@pytest.mark.parametrize(
    ("answer_type", "reply"),
    [
        ("integer", "I think there are several panels."),
        ("integer", '{"n_panels": true}'),
        ("number", '{"mean_y": "unclear"}'),
        ("string", "The x label says time."),
        ("boolean", '{"errorbars": "maybe"}'),
        ("number", ""),
        ("number", '{"a": 1, "b": 2}'),
        ("integer", '{"answer": 4}'),
        ("integer", '{"n_panels": 4'),
        ("integer", '{"n_panels": "four"}'),
        ("choice", "It looks like some kind of chart to me."),
        ("choice", '{"plot_type": {"kind": "line"}}'),
    ],
)
def test_malformed_replies_are_rejected(answer_type: str, reply: str) -> None:
    parsed = parse_reply(reply, BY_TYPE[answer_type])
    assert parsed.rejected
    assert parsed.reason
    assert score_answer(BY_TYPE[answer_type], parsed).rejected


@pytest.mark.parametrize(
    ("answer_type", "reply", "value"),
    [
        ("choice", '{"plot_type": "linea"}', "linea"),
        ("choice", '{"plot_type": "bar chart"}', "bar chart"),
        ("choice", '"scatter plot"', "scatter plot"),
        ("choice_list", '{"plot_types": ["line", "pie"]}', ["line", "pie"]),
        ("integer", '{"n_panels": 2.5}', 2.5),
        ("integer_pair", '{"layout": [1, 2, 3]}', [1, 2, 3]),
        ("number_pair", '{"x_range": [3]}', [3.0]),
    ],
)
def test_readable_but_impossible_answers_are_wrong_not_rejected(
    answer_type: str, reply: str, value: object
) -> None:
    item = BY_TYPE[answer_type]
    parsed = parse_reply(reply, item)
    assert not parsed.rejected and parsed.value == value
    score = score_answer(item, parsed)
    assert not score.rejected and score.correct is False


def test_oracle_reply_round_trips_and_scores_perfectly() -> None:
    for item in items():
        score = score_answer(item, parse_reply(oracle_reply(item), item))
        assert not score.rejected
        assert score.correct, item.family


def test_prompt_appends_the_format_only_when_the_question_lacks_it() -> None:
    from dataclasses import replace

    from figgen.eval.run.prompt import prompt_text

    item = BY_TYPE["choice"]
    text = prompt_text(item)
    assert text.startswith(item.question)
    assert '{"plot_type": ANSWER}' in text and '"histogram"' in text
    stated = replace(item, question='Kind? Answer with a JSON object {"plot_type": <one of ...>}.')
    assert prompt_text(stated) == stated.question
