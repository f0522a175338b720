"""Scoring into metrics.json and report.md: shape, hand-computed values, plots with alt text."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from figgen.cli import app
from figgen.eval.answers import AnswerRow
from figgen.vqa.item import QAItem

from .fixtures import items


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


def test_metrics_match_hand_computed_values(dataset_dir: Path, tmp_path: Path) -> None:
    by_qid = {item.qid: item for item in items()}
    answers = {
        "q000": 1,
        "q001": 3,
        "q002": 4,  # panel_count: 2 of 3 exact
        "q006": ["Flux of α_1", "Enrgy"],  # titles: 1 edit / 17 chars
        "q011": 15.0,  # mean_y: sSMAPE 2*2.5/27.5
        "q012": -3.0e-4,  # mean_y: 0
        "q014": 1290.0,  # max_y: within 5%
    }
    rows = [_row(by_qid[q], _answer(by_qid[q], v)) for q, v in answers.items()]
    rows.append(_row(by_qid["q007"], "no idea"))  # rejected
    rows.append(_row(by_qid["q008"], None, (0, 0), error="RateLimitError: gave up"))
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
    model = json.loads((out / "metrics.json").read_text())["models"]["mock:m"]
    assert (model["n"], model["answered"], model["rejected"], model["errors"]) == (9, 8, 1, 1)
    assert model["input_tokens"] == 800 and model["output_tokens"] == 80
    assert model["cost_usd"] == pytest.approx((800 * 3 + 80 * 15) / 1e6)
    assert model["cost_per_1000_questions"] == pytest.approx(1000 * model["cost_usd"] / 9)
    family = model["by_family"]
    assert family["panel_count"] == {"n": 3, "rejected": 0, "metric": "exact", "mean": 2 / 3}
    assert family["titles"]["mean"] == pytest.approx(1 / 17)
    assert family["mean_y"]["mean"] == pytest.approx((5 / 27.5 + 0) / 2)
    assert model["family_details"]["mean_y"]["mean_abs"] == pytest.approx((5 / 27.5) / 2)
    assert family["max_y"]["mean"] == 1.0
    assert family["xlabel"] == {"n": 1, "rejected": 1, "metric": "cer", "mean": None}
    assert set(family["errorbars"]) == {"n", "rejected", "metric", "mean"}
    # correct: 2 panel counts, mean_y q012, max_y -> 4 of the 7 scored
    assert model["accuracy"] == pytest.approx(4 / 7)
    assert model["by_level"]["2"]["accuracy"] == pytest.approx(2 / 3)
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


def test_ssmape_family_mean_is_signed_and_mean_abs_beside_it() -> None:
    from figgen.eval.aggregate import ScoredAnswer, _family
    from figgen.eval.scoring import Score
    from figgen.vqa.item import QAItem

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
    values = [0.5, -0.25, -0.75]
    answers = [
        ScoredAnswer(item, {}, Score("ssmape", v, abs(v) <= 0.05), None, 1, "scatter")
        for v in values
    ]
    entry, details = _family(answers)
    assert entry["mean"] == pytest.approx(-0.5 / 3)
    assert details["mean_abs"] == pytest.approx(1.5 / 3)
