"""Scoring into metrics.json and report.md: shape, hand-computed values, plots with alt text."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.eval.report.aggregate import ScoredAnswer, _family
from figgen.eval.scoring.scoring import Score
from figgen.schema.answers import AnswerRow
from figgen.schema.qa_item import QAItem
from tests.eval.fixtures import items


def _write(path: Path, rows: list[AnswerRow]) -> Path:
    path.write_text("".join(json.dumps(r.to_dict()) + "\n" for r in rows))
    return path


def _row(
    item: QAItem, raw: str | None, tokens: tuple[int, int] = (100, 10), **kw: object
) -> AnswerRow:
    return AnswerRow(
        item.qid, "mock:m", raw, usage={"input_tokens": tokens[0], "output_tokens": tokens[1]}, **kw
    )  # type: ignore[arg-type]


def _answer(item: QAItem, value: object) -> str:
    return json.dumps({item.answer_key: value})


def _levenshtein(a: str, b: str) -> int:
    """Edit distance by the textbook dynamic programme (independent of rapidfuzz)."""
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i]
        for j, cb in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb)))
        previous = current
    return previous[-1]


def _score(dataset_dir: Path, tmp_path: Path, rows: list[AnswerRow]) -> dict[str, object]:
    answers_file = _write(tmp_path / "a.jsonl", rows)
    prices = tmp_path / "p.toml"
    prices.write_text('[models."mock:m"]\ninput = 3.0\noutput = 15.0\n')
    out = tmp_path / "report"
    result = CliRunner().invoke(
        app,
        [
            "eval",
            "score",
            "--data",
            str(dataset_dir),
            "--answers",
            str(answers_file),
            "--prices",
            str(prices),
            "--out",
            str(out),
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    return json.loads((out / "metrics.json").read_text())["models"]["mock:m"]  # type: ignore[no-any-return]


def test_metrics_match_hand_computed_values(dataset_dir: Path, tmp_path: Path) -> None:
    by_qid = {item.qid: item for item in items()}
    answers = {
        "q000": 1,
        "q001": 3,
        "q002": 4,  # panel_count: 2 of 3 exact
        "q004": "linea",  # in the requested format, not a choice: wrong, not rejected
        "q006": ["Flux of α_1", "Energy"],  # titles: the LaTeX written out as Unicode
        "q011": 12.5 * 1.1,  # mean_y: 10% too high ...
        "q012": -3.0e-4 * 1.1,  # ... and 10% too far below zero: signed errors cancel
        "q014": 1290.0,  # max_y: within 5%
    }
    rows = [_row(by_qid[q], _answer(by_qid[q], v)) for q, v in answers.items()]
    rows.append(_row(by_qid["q007"], "no idea"))  # rejected: no answer to read
    rows.append(_row(by_qid["q008"], None, (0, 0), error="RateLimitError: gave up"))
    model = _score(dataset_dir, tmp_path, rows)
    assert (model["n"], model["answered"], model["rejected"], model["errors"]) == (10, 9, 1, 1)
    assert model["input_tokens"] == 900 and model["output_tokens"] == 90
    assert model["cost_usd"] == pytest.approx((900 * 3 + 90 * 15) / 1e6)
    assert model["cost_per_1000_questions"] == pytest.approx(1000 * model["cost_usd"] / 10)
    # correct: q000, q002, q014. Headline accuracy over all 10 asked; beside it the share
    # of the 8 readable answers and of the 9 replies that were rejected
    assert model["accuracy"] == pytest.approx(3 / 10, abs=1e-6)
    assert model["accuracy_answered"] == pytest.approx(3 / 8, abs=1e-6)
    assert model["rejection_rate"] == pytest.approx(1 / 9, abs=1e-6)
    family = model["by_family"]
    assert family["plot_type"]["rejected"] == 0 and family["plot_type"]["accuracy"] == 0.0
    assert family["panel_count"]["accuracy"] == pytest.approx(2 / 3, abs=1e-6)
    # raw CER counts the LaTeX source the model did not write; normalised CER forgives it
    refs = by_qid["q006"].answer
    raw = _levenshtein(refs[0], answers["q006"][0]) / (len(refs[0]) + len(refs[1]))
    assert raw > 0.2
    assert family["titles"]["cer"] == pytest.approx(raw, abs=1e-6)
    assert family["titles"]["cer_normalized"] == 0.0
    # mean |sSMAPE| is the error; the signed mean (bias) is ~0 and rounded to exactly 0
    up = 2 * (12.5 * 1.1 - 12.5) / (12.5 * 1.1 + 12.5)
    assert family["mean_y"]["ssmape_abs"] == pytest.approx(up, abs=1e-6)
    assert family["mean_y"]["ssmape_bias"] == 0.0
    assert family["mean_y"]["accuracy"] == 0.0
    assert family["xlabel"]["rejected"] == 1 and family["xlabel"]["cer"] is None
    assert family["xlabel"]["accuracy"] == 0.0 and family["xlabel"]["rejection_rate"] == 1.0
    assert family["errorbars"]["errors"] == 1 and family["errorbars"]["accuracy"] == 0.0
    assert model["by_level"]["1"]["accuracy"] == pytest.approx(2 / 7, abs=1e-6)
    assert model["by_level"]["2"]["accuracy"] == pytest.approx(1 / 3, abs=1e-6)
    level_cost = (600 * 3 + 60 * 15) / 1e6  # 6 of the 7 level-1 rows billed (100, 10)
    assert model["by_level"]["1"]["cost_per_question"] == pytest.approx(level_cost / 7)
    region = model["count_distributions"]["panel_count"]["region"]
    assert region == {"1": [1.0, 1.0], "2": [3.0, 3.0], "4": [4.0, 4.0]}


def test_report_has_tables_and_plots_with_alt_text(dataset_dir: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    files = []
    for model in ("oracle", "chance"):
        out = tmp_path / f"{model}.jsonl"
        runner.invoke(
            app,
            [
                "eval",
                "run",
                "--data",
                str(dataset_dir),
                "--model",
                model,
                "--out",
                str(out),
                "--no-progress",
            ],
            catch_exceptions=False,
        )
        files += ["--answers", str(out)]
    report = tmp_path / "report"
    result = runner.invoke(
        app,
        ["eval", "score", "--data", str(dataset_dir), *files, "--out", str(report)],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    metrics = json.loads((report / "metrics.json").read_text())
    assert set(metrics["models"]) == {"oracle", "chance"}
    text = (report / "report.md").read_text()
    for heading in (
        "## Models",
        "## By description level",
        "## By question family",
        "## By plot kind",
        "## By panel count",
    ):
        assert heading in text
    images = re.findall(r"!\[([^\]]*)\]\(([^)]+)\)", text)
    names = {name for _, name in images}
    assert {
        "panel_count_estimates.png",
        "n_bars_estimates.png",
        "cer_by_panel_count.png",
        "plot_type_by_panel_count.png",
        "ssmape_by_kind.png",
        "cost_vs_accuracy.png",
    } <= names
    for alt, name in images:
        assert len(alt) > 40, name
        assert (report / name).read_bytes().startswith(b"\x89PNG")


def _ssmape_answers(values: list[float]) -> list[ScoredAnswer]:
    item = QAItem(
        "q",
        "fig-000000",
        2,
        "panel",
        0,
        "the only panel",
        "mean_y",
        "?",
        10.0,
        "number",
        "mean_y",
        "ssmape",
    )
    return [
        ScoredAnswer(item, {}, Score("ssmape", v, abs(v) <= 0.05), None, 1, "scatter")
        for v in values
    ]


def test_ssmape_family_has_mean_abs_and_bias_as_named_columns() -> None:
    entry = _family(_ssmape_answers([0.5, -0.25, -0.75]))
    assert entry["ssmape_abs"] == pytest.approx(1.5 / 3, abs=1e-6)
    assert entry["ssmape_bias"] == pytest.approx(-0.5 / 3, abs=1e-6)
    assert "mean" not in entry


@given(
    st.lists(
        st.one_of(st.none(), st.just("rejected"), st.floats(-2, 2, allow_nan=False)),
        min_size=1,
        max_size=30,
    )
)
def test_accuracy_views_agree_with_a_direct_count(outcomes: list[object]) -> None:
    """None: no reply; "rejected": no readable answer; a number: the answer's sSMAPE."""
    answers = []
    (template,) = _ssmape_answers([0.0])
    for outcome in outcomes:
        answer = template
        if outcome is None:
            answer = replace(answer, score=None)
        elif outcome == "rejected":
            answer = replace(answer, score=Score.rejected_answer("ssmape", "no number"))
        else:
            assert isinstance(outcome, float)
            answer = replace(answer, score=Score("ssmape", outcome, abs(outcome) <= 0.05))
        answers.append(answer)
    values = [o for o in outcomes if isinstance(o, float)]
    replies = [o for o in outcomes if o is not None]
    correct = sum(abs(v) <= 0.05 for v in values)
    entry = _family(answers)
    assert entry["accuracy"] == pytest.approx(correct / len(outcomes), abs=1e-6)
    if values:
        assert entry["accuracy_answered"] == pytest.approx(correct / len(values), abs=1e-6)
        assert entry["ssmape_abs"] == pytest.approx(
            sum(abs(v) for v in values) / len(values), abs=1e-6
        )
    else:
        assert entry["accuracy_answered"] is None and entry["ssmape_abs"] is None
    if replies:
        rejected = sum(o == "rejected" for o in replies)
        assert entry["rejection_rate"] == pytest.approx(rejected / len(replies), abs=1e-6)


def test_ssmape_bins_show_a_ten_percent_error_as_one_peak() -> None:
    import numpy as np

    from figgen.eval.scoring.plots import ssmape_bins

    bins = ssmape_bins()
    high = 2 * (110 - 100) / 210  # every answer 10% too high
    low = 2 * (90 - 100) / 190  # every answer 10% too low
    counts, _ = np.histogram([high] * 7 + [low] * 5 + [0.0] * 3, bins)
    assert sorted(counts[counts > 0].tolist()) == [3, 5, 7]
    centres = (bins[:-1] + bins[1:]) / 2
    assert centres[counts == 7][0] == pytest.approx(0.1)
    assert centres[counts == 5][0] == pytest.approx(-0.1)
    assert centres[counts == 3][0] == pytest.approx(0.0)


def test_report_explains_families_with_nothing_scored(dataset_dir: Path, tmp_path: Path) -> None:
    by_qid = {item.qid: item for item in items()}
    rows = [_row(by_qid[q], "I cannot read it.") for q in ("q006", "q007")]  # titles, xlabel
    rows.append(_row(by_qid["q004"], _answer(by_qid["q004"], "line")))
    _score(dataset_dir, tmp_path, rows)
    text = (tmp_path / "report" / "report.md").read_text()
    assert "titles (mock:m: all 1 answers rejected)" in text
    assert "xlabel (mock:m: all 1 answers rejected)" in text
    alt = re.search(r"!\[([^\]]*)\]\(cer_by_panel_count.png\)", text)
    assert alt is not None and "titles, mock:m: no scored answers (all 1 answers" in alt.group(1)
