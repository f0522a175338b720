"""``axis_2pct``: a length read as the difference of two axis readings, scored by its error as
a share of the axis span (of the values drawn along it); each number below is computed by hand."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from figgen.errors import FiggenError
from figgen.eval.run.dataset import load_dataset
from figgen.eval.scoring.parse import parse_reply
from figgen.eval.scoring.scoring import AXIS_TOLERANCE, METRICS, score_answer, score_value
from figgen.schema.metrics import METRIC_DECLS
from figgen.schema.qa_item import QAItem
from figgen.schema.record import Record
from figgen.vqa.api.context import FigureContext
from figgen.vqa.api.families import FAMILIES
from tests.eval.fixtures import _record, items, make_dataset, score_panel_counts

SPAN = 150.0
TRUTH = 12.5


def _item(**fields: Any) -> QAItem:
    values: dict[str, Any] = {
        "qid": "fig-000000-box_iqr-0-0",
        "figure_id": "fig-000000",
        "level": 2,
        "scope": "panel",
        "panel": 0,
        "location": "the panel",
        "family": "box_iqr",
        "question": 'What is the interquartile range of the group "a"?',
        "answer": TRUTH,
        "answer_type": "number",
        "answer_key": "iqr",
        "metric": "axis_2pct",
        "axis_span": SPAN,
    }
    return QAItem.from_dict(values | fields)


@pytest.mark.parametrize(
    ("prediction", "value", "correct"),
    [
        (12.5, 0.0, True),
        (14.9, 2.4 / 150, True),  # 1.6% of the span above
        (10.1, -2.4 / 150, True),  # 1.6% below
        (15.485, 2.985 / 150, True),  # 1.99%
        (15.515, 3.015 / 150, False),  # 2.01%
        (9.485, -3.015 / 150, False),
        (25.0, 12.5 / 150, False),  # twice the truth: 8.3% of the span
        (0.0, -12.5 / 150, False),  # "no length"
        (1000.0, 1.0, False),  # off the axis: capped at one span
        (-500.0, -1.0, False),
    ],
)
def test_error_is_a_share_of_the_axis_span(prediction: float, value: float, correct: bool) -> None:
    score = score_value("axis_2pct", prediction, TRUTH, SPAN)
    assert score.value == pytest.approx(value, abs=1e-12)
    assert score.correct is correct
    assert AXIS_TOLERANCE == 0.02


def test_the_same_reading_error_scores_alike_for_short_and_long_lengths() -> None:
    # two readings each 1% of the span off, in the same direction: 3.0 on a 150 span
    for truth in (3.0, 12.5, 90.0):
        score = score_value("axis_2pct", truth + 3.0, truth, SPAN)
        assert score.correct and score.value == pytest.approx(0.02)
    # sSMAPE would fail the short one: 2 * 3 / (6 + 3) = 0.67
    assert not score_value("ssmape", 6.0, 3.0).correct


@pytest.mark.parametrize(
    "prediction", ["12.5", None, True, [12.5], [12.5, 13.0], math.nan, math.inf]
)
def test_a_reply_that_is_not_one_finite_number_is_as_wrong_as_can_be(prediction: Any) -> None:
    score = score_value("axis_2pct", prediction, TRUTH, SPAN)
    assert (score.value, score.correct) == (1.0, False)


@pytest.mark.parametrize("span", [None, 0.0, -5.0, math.nan])
def test_scoring_without_a_positive_span_is_a_one_line_error(span: float | None) -> None:
    with pytest.raises(FiggenError) as info:
        score_value("axis_2pct", 12.0, TRUTH, span)
    assert "axis span" in str(info.value) and "\n" not in str(info.value)


def test_a_parsed_reply_is_scored_with_the_items_span() -> None:
    item = _item()
    good = score_answer(item, parse_reply('{"iqr": 14.9}', item))
    bad = score_answer(item, parse_reply('{"iqr": 16}', item))
    assert (good.correct, bad.correct) == (True, False)
    assert bad.value == pytest.approx(3.5 / 150)
    # the same reply against a span twice as long is within 2%
    wide = _item(axis_span=2 * SPAN)
    assert score_answer(wide, parse_reply('{"iqr": 16}', wide)).correct


def test_the_span_travels_in_qa_jsonl_and_only_where_it_is_given() -> None:
    line = _item().to_dict()
    assert line["axis_span"] == SPAN
    assert QAItem.from_dict(json.loads(json.dumps(line))) == _item()
    plain = items()[0].to_dict()
    assert "axis_span" not in plain  # every other item keeps its fields


@pytest.mark.parametrize("span", [0, 0.0, -1.0, "150", True, math.inf])
def test_an_item_with_no_positive_span_is_refused(span: Any) -> None:
    with pytest.raises(TypeError, match="axis_span must be a positive number"):
        _item(axis_span=span)


def test_a_question_file_without_the_span_is_refused_at_load(tmp_path: Path) -> None:
    data = make_dataset(tmp_path / "data")
    spanless = _item().to_dict()
    del spanless["axis_span"]
    with (data / "qa.jsonl").open("a") as qa:
        qa.write(json.dumps(spanless) + "\n")
    with pytest.raises(FiggenError) as info:
        load_dataset(data)
    message = str(info.value)
    assert "fig-000000-box_iqr-0-0" in message and "axis_span" in message
    assert "\n" not in message


def _figure() -> FigureContext:
    record = _record("fig-000000", {"size": (400, 300), "rows": 1, "cols": 1, "kinds": ["box"]})
    return FigureContext(Record.from_dict(record))


@pytest.mark.parametrize("span", [None, 0.0, -3.0, math.nan])
def test_a_question_is_refused_at_creation_without_a_positive_span(span: float | None) -> None:
    ctx = _figure()
    with pytest.raises(ValueError, match="scored against the axis span"):
        ctx.ask(FAMILIES["box_iqr"], ctx.record.panels[0], 4.0, axis_span=span, group="a")
    assert not ctx.items


def test_a_small_truth_is_asked_and_carries_its_span() -> None:
    ctx = _figure()
    # 4 of a 150 span: far below the 20% a relative metric needs, asked all the same
    ctx.ask(FAMILIES["box_iqr"], ctx.record.panels[0], 4.0, axis_span=SPAN, group="a")
    (item,) = ctx.items
    assert (item.metric, item.axis_span, item.answer) == ("axis_2pct", SPAN, 4.0)


def test_the_question_side_and_the_registry_agree_on_span_metrics() -> None:
    spanned = {name for name, spec in METRICS.items() if spec.tolerance == "axis_span"}
    declared = {name for name, decl in METRIC_DECLS.items() if decl.tolerance == "axis_span"}
    assert spanned == declared == {"axis_2pct"}
    assert {f.name for f in FAMILIES.values() if f.metric == "axis_2pct"} >= {
        "box_iqr",
        "range_bar_length",
    }


def test_the_metric_flows_through_aggregation_and_the_report(tmp_path: Path) -> None:
    data = make_dataset(tmp_path / "data")
    # the panel-count questions (truths 1, 2, 4) become lengths on a 50 span
    lines = []
    for item in items():
        if item.family == "panel_count":
            item.metric, item.axis_span = "axis_2pct", 50.0
        lines.append(json.dumps(item.to_dict()))
    (data / "qa.jsonl").write_text("\n".join(lines) + "\n")
    # off by 0.5, -1 and 1 on truths 1, 2 and 4: 1%, -2% and 2% of the span
    out = score_panel_counts(tmp_path, data, {"q000": 1.5, "q001": 1.0, "q002": 5.0})
    entry = json.loads((out / "metrics.json").read_text())["models"]["mock:m"]["by_family"][
        "panel_count"
    ]
    assert entry["metric"] == "axis_2pct"
    assert (entry["n"], entry["correct"]) == (3, 3)
    assert entry["axis_error_abs"] == pytest.approx((0.01 + 0.02 + 0.02) / 3, abs=1e-6)
    assert entry["axis_error_bias"] == pytest.approx((0.01 - 0.02 + 0.02) / 3, abs=1e-6)
    report = (out / "report.md").read_text()
    assert "within 2% of the axis span" in report
    assert "### Length families: error as a share of the axis span" in report
    assert (out / "axis_error_by_panel_count.png").read_bytes().startswith(b"\x89PNG")
