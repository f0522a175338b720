"""Robustness deltas and flips against counts worked out from scripted answers."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from scipy.stats import binomtest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.eval.providers import oracle_reply
from figgen.eval.report.robustness import mcnemar_p
from tests.eval.fixtures import items


def invoke(*args: str) -> str:
    result = CliRunner().invoke(app, ["eval", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _run(data: Path, tmp: Path, name: str, wrong: set[str]) -> Path:
    """A mock model that answers right except on ``wrong`` (an empty, rejected reply)."""
    script = {i.qid: ("{}" if i.qid in wrong else oracle_reply(i)) for i in items()}
    (tmp / f"{name}.json").write_text(json.dumps(script))
    out = tmp / f"{name}.jsonl"
    invoke(
        "run",
        "--data",
        str(data),
        "--model",
        "mock:m",
        "--out",
        str(out),
        "--no-progress",
        "--option",
        f"script={tmp / f'{name}.json'}",
    )
    return out


def test_deltas_flips_and_pairs_match_the_scripts(dataset_dir: Path, tmp_path: Path) -> None:
    qids = [i.qid for i in items()]
    clean_wrong = set(qids[0:6:2])  # q000 q002 q004
    noisy_wrong = set(qids[0:8])  # q000..q007: loses 5, gains none
    blur_wrong = set(qids[4:5])  # q004: gains q000 and q002
    clean = _run(dataset_dir, tmp_path, "clean", clean_wrong)
    noise = _run(dataset_dir, tmp_path, "noise", noisy_wrong)
    blur = _run(dataset_dir, tmp_path, "blur", blur_wrong)
    out = tmp_path / "report"
    text = invoke(
        "robustness",
        "--data",
        str(dataset_dir),
        "--clean",
        str(clean),
        "--perturbed",
        f"noise={noise}",
        "--perturbed",
        f"blur={blur}",
        "--out",
        str(out),
    )
    assert "mock:m noise" in text
    metrics = json.loads((out / "robustness.json").read_text())["models"]["mock:m"]
    n = len(qids)
    for name, wrong in (("noise", noisy_wrong), ("blur", blur_wrong)):
        entry = metrics[name]
        lost, gained = len(wrong - clean_wrong), len(clean_wrong - wrong)
        assert entry["paired"] == n
        assert entry["clean"] == pytest.approx(1 - len(clean_wrong) / n)
        assert entry["perturbed"] == pytest.approx(1 - len(wrong) / n)
        assert entry["delta"] == pytest.approx((len(clean_wrong) - len(wrong)) / n)
        assert (entry["lost"], entry["gained"]) == (lost, gained)
        assert entry["mcnemar_p"] == pytest.approx(
            binomtest(lost, lost + gained, 0.5).pvalue if lost + gained else 1.0
        )
        family_of = {i.qid: i.family for i in items()}
        sizes = Counter(family_of.values())
        for family, sub in entry["by_family"].items():
            before = sum(1 for q in clean_wrong if family_of[q] == family)
            after = sum(1 for q in wrong if family_of[q] == family)
            assert sub["paired"] == sizes[family]
            assert sub["delta"] == pytest.approx((before - after) / sizes[family])
    rows = [json.loads(line) for line in (out / "paired.jsonl").read_text().splitlines()]
    assert len(rows) == 2 * n
    flips = {
        (r["perturbation"], r["qid"]) for r in rows if r["clean_correct"] != r["perturbed_correct"]
    }
    assert flips == {("noise", q) for q in noisy_wrong ^ clean_wrong} | {
        ("blur", q) for q in blur_wrong ^ clean_wrong
    }
    assert "## By family" in (out / "robustness.md").read_text()


def test_mcnemar_edge_cases() -> None:
    assert mcnemar_p(0, 0) == 1.0
    assert mcnemar_p(5, 0) == pytest.approx(2 * 0.5**5)
    assert mcnemar_p(3, 3) == pytest.approx(1.0)


def test_bad_perturbed_argument_is_one_line(dataset_dir: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        app,
        ["eval", "robustness", "--data", str(dataset_dir), "--clean", "x.jsonl"]
        + ["--perturbed", "noise", "--out", str(tmp_path)],
    )
    assert result.exit_code != 0 and "NAME=ANSWERS.jsonl" in str(result.exception)
