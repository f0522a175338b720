"""``figgen.run_eval`` and ``figgen.score_answers``: the commands' work, called from Python."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import figgen
from figgen._cli.main import app
from figgen.errors import FiggenError


def _rows(path: Path) -> list[dict[str, object]]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    for row in rows:
        row.pop("latency_s")
    return sorted(rows, key=lambda row: str(row["qid"]))


def test_run_eval_writes_what_the_command_writes(small_build: Path, tmp_path: Path) -> None:
    said: list[str] = []
    summary = figgen.run_eval(
        small_build, "oracle", tmp_path / "api.jsonl", levels=[1, 2], announce=said.append
    )
    done = CliRunner().invoke(
        app,
        ["eval", "run", "--data", str(small_build), "--model", "oracle", "--levels", "1,2"]
        + ["--out", str(tmp_path / "cli.jsonl"), "--no-progress"],
    )
    assert done.exit_code == 0, done.output
    api, cli = _rows(tmp_path / "api.jsonl"), _rows(tmp_path / "cli.jsonl")
    assert api == cli and len(api) == summary.answered > 0
    assert {row["model"] for row in api} == {"oracle"}
    assert [line for line in said if line.startswith("estimate for ")], said  # not to stdout


def test_score_answers_returns_the_metrics_it_writes(small_build: Path, tmp_path: Path) -> None:
    answers = tmp_path / "oracle.jsonl"
    figgen.run_eval(small_build, "oracle", answers, limit=40)
    metrics = figgen.score_answers(small_build, [answers], tmp_path / "report")
    oracle = metrics["models"]["oracle"]
    assert oracle["n"] == 40 and oracle["accuracy"] == 1.0
    stored = json.loads((tmp_path / "report" / "metrics.json").read_text(encoding="utf-8"))
    assert stored["models"]["oracle"]["accuracy"] == 1.0
    assert (tmp_path / "report" / "report.md").is_file()


def test_bad_options_are_one_line_errors_before_any_work(small_build: Path, tmp_path: Path) -> None:
    out = tmp_path / "a.jsonl"
    with pytest.raises(FiggenError, match="--image-format 'gif'"):
        figgen.run_eval(small_build, "oracle", out, image_format="gif")
    with pytest.raises(FiggenError, match="unknown provider"):
        figgen.run_eval(small_build, "nobody:x", out)
    with pytest.raises(FiggenError, match="--hourly-rate"):
        figgen.score_answers(small_build, [out], tmp_path / "r", hourly_rate=-1.0)
    assert not out.exists()


def test_the_package_root_exports_the_verbs_without_loading_them() -> None:
    for name in ("run_eval", "score_answers", "build_dataset", "open_record"):
        assert name in figgen.__all__
    assert figgen.questions_for_record.__module__ == "figgen.vqa.questions.builder"
