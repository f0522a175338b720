"""Offline providers: the oracle scores perfectly, mock scripts drive retries, chance parses."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.errors import FiggenError
from figgen.eval.providers import MockError, MockProvider, Reply, oracle_reply
from figgen.eval.run.dataset import load_dataset
from figgen.eval.run.runner import RetryPolicy, RunSummary, run_questions
from figgen.schema.answers import read_answers
from tests.eval.fixtures import assert_perfect_family, items, offline_options

FAST = RetryPolicy(attempts=4, initial_wait=0.001, max_wait=0.01, jitter=0.001)


def invoke(*args: str) -> str:
    result = CliRunner().invoke(app, ["eval", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_oracle_scores_perfectly_on_every_family(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "oracle.jsonl"
    invoke(
        "run", "--data", str(dataset_dir), "--model", "oracle", "--out", str(out), "--no-progress"
    )
    invoke(
        "score",
        "--data",
        str(dataset_dir),
        "--answers",
        str(out),
        "--out",
        str(tmp_path / "report"),
    )
    metrics = json.loads((tmp_path / "report" / "metrics.json").read_text())["models"]["oracle"]
    families = {item.family for item in items()}
    assert set(metrics["by_family"]) == families
    assert metrics["rejected"] == 0 and metrics["answered"] == len(items())
    assert metrics["accuracy"] == 1.0
    for family, entry in metrics["by_family"].items():
        assert_perfect_family(entry, family)
    for entry in [
        *metrics["by_level"].values(),
        *metrics["by_kind"].values(),
        *metrics["by_panel_count"].values(),
    ]:
        assert entry["accuracy"] == 1.0
    assert metrics["cost_usd"] == 0.0


def test_chance_baseline_answers_in_format_and_is_deterministic(
    dataset_dir: Path, tmp_path: Path
) -> None:
    outs = [tmp_path / "a.jsonl", tmp_path / "b.jsonl"]
    for out in outs:
        invoke(
            "run",
            "--data",
            str(dataset_dir),
            "--model",
            "chance",
            "--out",
            str(out),
            "--no-progress",
        )
    first, second = (read_answers(out) for out in outs)
    # rows are written as answers arrive, so compare them by question
    assert {r["qid"]: r["raw"] for r in first} == {r["qid"]: r["raw"] for r in second}
    assert not any(r["rejected"] for r in first)


def _run(dataset_dir: Path, out: Path, provider: MockProvider, concurrency: int = 4) -> RunSummary:
    dataset = load_dataset(dataset_dir)
    options = offline_options("mock:scripted", out, FAST, concurrency)
    return asyncio.run(run_questions(dataset, dataset.items, provider, options))


def test_mock_script_drives_retry_and_overflow(dataset_dir: Path, tmp_path: Path) -> None:
    truth = {item.qid: item for item in items()}
    script = {
        "q000": [MockError("rate_limit"), MockError("server"), oracle_reply(truth["q000"])],
        "q002": [
            MockError("context_length"),
            MockError("context_length"),
            Reply(oracle_reply(truth["q002"]), 11, 3),
        ],
        "q005": ["not an answer"],
        "q006": [MockError("rate_limit")] * 10,
    }
    provider = MockProvider("scripted", script, answer=lambda p: oracle_reply(p.item))
    out = tmp_path / "answers.jsonl"
    summary = _run(dataset_dir, out, provider)
    rows = {r["qid"]: r for r in read_answers(out)}
    assert rows["q000"]["attempts"] == 3 and rows["q000"]["error"] is None
    assert rows["q002"]["image_scale"] == 0.25  # 900 px -> 450 -> 225
    assert rows["q002"]["usage"] == {"input_tokens": 11, "output_tokens": 3}
    assert rows["q005"]["rejected"]
    assert rows["q006"]["error"] and rows["q006"]["raw"] is None  # gave up after 4 attempts
    assert summary.errors == 1 and summary.rejected == 1  # type: ignore[attr-defined]
    # a resumed run asks only the question that failed
    provider2 = MockProvider("scripted", answer=lambda p: oracle_reply(p.item))
    _run(dataset_dir, out, provider2)
    assert provider2.asked == ["q006"]


def test_fatal_error_stops_the_run_without_a_row(dataset_dir: Path, tmp_path: Path) -> None:
    provider = MockProvider("scripted", [MockError("fatal")] * 100)
    out = tmp_path / "answers.jsonl"
    with pytest.raises(FiggenError, match="check the API key"):
        _run(dataset_dir, out, provider, concurrency=1)
    assert read_answers(out) == []


def test_answers_of_another_model_are_not_mixed(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "answers.jsonl"
    invoke(
        "run",
        "--data",
        str(dataset_dir),
        "--model",
        "oracle",
        "--out",
        str(out),
        "--no-progress",
        "--limit",
        "2",
    )
    with pytest.raises(FiggenError, match="use another --out"):
        CliRunner().invoke(
            app,
            ["eval", "run", "--data", str(dataset_dir), "--model", "chance", "--out", str(out)],
            catch_exceptions=False,
        )


def test_levels_families_and_limit_select_questions(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "answers.jsonl"
    invoke(
        "run",
        "--data",
        str(dataset_dir),
        "--model",
        "oracle",
        "--out",
        str(out),
        "--no-progress",
        "--levels",
        "2",
        "--families",
        "mean_y,x_range",
        "--limit",
        "2",
    )
    assert sorted(r["qid"] for r in read_answers(out)) == ["q011", "q012"]


def test_a_run_of_failures_stops_with_one_line(dataset_dir: Path, tmp_path: Path) -> None:
    provider = MockProvider("scripted", [MockError("server")] * 1000)
    out = tmp_path / "answers.jsonl"
    with pytest.raises(FiggenError, match="5 questions in a row failed") as info:
        _run(dataset_dir, out, provider, concurrency=1)
    assert "\n" not in str(info.value)
    rows = read_answers(out)
    assert len(rows) == 5 and all(r["error"] for r in rows)
    assert len(provider.asked) == 5 * FAST.attempts
