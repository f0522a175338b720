"""Answers know their build: eval run stamps the fingerprint, eval score refuses another build."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.errors import FiggenError
from figgen.schema.fingerprint import (
    BuildFingerprint,
    build_fingerprint,
    check_answers_build,
    config_hash,
)


def _manifest(root: Path, seed: int, config: dict[str, object]) -> None:
    manifest = {"seed": seed, "config": config, "figgen_version": "9.9.9"}
    (root / "manifest.json").write_text(json.dumps(manifest))


def test_fingerprint_names_seed_config_hash_and_version(tmp_path: Path) -> None:
    _manifest(tmp_path, 31, {"b": 1, "a": [1, 2]})
    print_ = build_fingerprint(tmp_path)
    assert print_ == BuildFingerprint(31, config_hash({"a": [1, 2], "b": 1}), "9.9.9")
    assert print_ is not None and print_.describe().startswith("seed 31, config ")
    assert config_hash({"a": 1}) != config_hash({"a": 2})
    assert build_fingerprint(tmp_path / "nothing") is None


def test_another_build_is_refused_in_one_line_naming_both() -> None:
    ours = BuildFingerprint(31, "aaaaaaaaaaaa", "0.1.0")
    theirs = BuildFingerprint(5, "bbbbbbbbbbbb", "0.1.0")
    rows = [{"qid": "q", "build": theirs.to_dict()}]
    with pytest.raises(FiggenError) as error:
        check_answers_build(ours, rows, "B.jsonl")
    message = str(error.value)
    assert "\n" not in message and "B.jsonl" in message and "--allow-other-build" in message
    assert "seed 5, config bbbbbbbbbbbb" in message and "seed 31, config aaaaaaaaaaaa" in message
    assert check_answers_build(ours, rows, "B.jsonl", allow_other_build=True) == 0
    assert check_answers_build(ours, [{"qid": "q", "build": ours.to_dict()}], "A.jsonl") == 0


def test_answers_without_a_fingerprint_are_scored_with_a_warning(
    caplog: pytest.LogCaptureFixture,
) -> None:
    ours = BuildFingerprint(31, "aaaaaaaaaaaa", "0.1.0")
    with caplog.at_level(logging.WARNING):
        assert check_answers_build(ours, [{"qid": "a"}, {"qid": "b"}], "old.jsonl") == 2
    assert "2 answers carry no build fingerprint" in caplog.text


@pytest.mark.slow
def test_eval_run_stamps_rows_and_score_refuses_another_build(
    small_build: Path, tmp_path: Path
) -> None:
    data = tmp_path / "a"
    shutil.copytree(small_build, data)
    other = tmp_path / "b"
    shutil.copytree(small_build, other)
    manifest = json.loads((other / "manifest.json").read_text())
    manifest["seed"] += 1  # the same questions, another build: qids coincide
    (other / "manifest.json").write_text(json.dumps(manifest))
    runner = CliRunner()
    answers = tmp_path / "oracle.jsonl"
    run = ["eval", "run", "--data", str(other), "--model", "oracle", "--out", str(answers),
           "--no-progress", "--limit", "20"]  # fmt: skip
    assert runner.invoke(app, run, catch_exceptions=False).exit_code == 0
    rows = [json.loads(line) for line in answers.read_text().splitlines()]
    expected = build_fingerprint(other)
    assert expected is not None and all(r["build"] == expected.to_dict() for r in rows)

    score = ["eval", "score", "--data", str(data), "--answers", str(answers)]
    refused = runner.invoke(app, [*score, "--out", str(tmp_path / "r1")])
    assert refused.exit_code != 0
    assert isinstance(refused.exception, FiggenError)
    assert "--allow-other-build" in str(refused.exception)
    allowed = runner.invoke(app, [*score, "--out", str(tmp_path / "r2"), "--allow-other-build"])
    assert allowed.exit_code == 0, allowed.output
    own = runner.invoke(
        app,
        [
            "eval",
            "score",
            "--data",
            str(other),
            "--answers",
            str(answers),
            "--out",
            str(tmp_path / "r3"),
        ],  # fmt: skip
    )
    assert own.exit_code == 0, own.output
    # an old file without fingerprints is scored
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps({k: v for k, v in r.items() if k != "build"}) + "\n"
                           for r in rows))  # fmt: skip
    legacy = runner.invoke(
        app,
        [
            "eval",
            "score",
            "--data",
            str(data),
            "--answers",
            str(old),
            "--out",
            str(tmp_path / "r4"),
        ],  # fmt: skip
    )
    assert legacy.exit_code == 0, legacy.output


@pytest.mark.slow
def test_blind_baseline_runs_on_the_non_train_splits_and_reports_lift(
    small_build: Path, tmp_path: Path
) -> None:
    from figgen.eval.blind.fit import figure_splits
    from figgen.eval.run.dataset import load_dataset

    runner = CliRunner()
    answers, report = tmp_path / "blind.jsonl", tmp_path / "report"
    run = ["eval", "run", "--data", str(small_build), "--model", "blind:majority",
           "--out", str(answers), "--no-progress"]  # fmt: skip
    result = runner.invoke(app, run, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    items = load_dataset(small_build).items
    split = figure_splits(items)
    rows = [json.loads(line) for line in answers.read_text().splitlines()]
    asked = {r["qid"] for r in rows}
    assert asked == {i.qid for i in items if split[i.figure_id] != "train"}
    oracle = tmp_path / "oracle.jsonl"
    run_oracle = ["eval", "run", "--data", str(small_build), "--model", "oracle",
                  "--out", str(oracle), "--no-progress"]  # fmt: skip
    assert runner.invoke(app, run_oracle, catch_exceptions=False).exit_code == 0
    score = ["eval", "score", "--data", str(small_build), "--answers", str(answers),
             "--answers", str(oracle), "--out", str(report)]  # fmt: skip
    result = runner.invoke(app, score, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    assert "lift over blind" in result.output
    metrics = json.loads((report / "metrics.json").read_text())["models"]
    # the blind run scored as a model equals the report's majority baseline on its questions
    blind = metrics["blind:majority"]
    assert blind["blind"]["by_family"]
    for family, entry in blind["by_family"].items():
        compared = blind["blind"]["by_family"][family]
        if compared["best_blind"] == "majority":
            assert compared["blind_accuracy"] == pytest.approx(entry["accuracy"])
        assert compared["blind_accuracy"] >= entry["accuracy"] - 1e-9
    oracle_blind = metrics["oracle"]["blind"]
    assert oracle_blind["accuracy"] == 1.0
    assert oracle_blind["lift"] == pytest.approx(1.0 - oracle_blind["blind_accuracy"])
    assert "## Against blind baselines" in (report / "report.md").read_text()
