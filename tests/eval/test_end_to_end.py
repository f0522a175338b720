"""End to end on a real build: the oracle scores perfectly on generated records."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.schema.qa_item import QAItem
from tests.eval.fixtures import assert_perfect_family

pytestmark = pytest.mark.e2e

KINDS = ["line", "histogram", "scatter", "contour"]


def _questions_from_records(root: Path) -> None:
    """A few questions per figure straight from the records (until figgen.vqa writes qa.jsonl)."""
    rows = []
    for path in sorted((root / "figures").glob("*.json")):
        record = json.loads(path.read_text())
        fid = record["id"]

        def add(n: int, fid: str = fid, **fields: object) -> None:
            base = {
                "qid": f"{fid}-{n}",
                "figure_id": fid,
                "level": 1,
                "scope": "figure",
                "panel": None,
                "location": None,
                "choices": None,
                "evidence": [],
            }
            rows.append(QAItem.from_dict({**base, **fields}).to_dict())

        add(
            0,
            family="panel_count",
            question="How many panels?",
            answer=record["layout"]["n_panels"],
            answer_type="integer",
            answer_key="n",
            metric="exact",
        )
        add(
            1,
            family="titles",
            question="List the titles.",
            answer=[p["title"] for p in record["panels"] if p.get("title")],
            answer_type="string_list",
            answer_key="titles",
            metric="cer_list",
        )
        panel = record["panels"][0]
        add(
            2,
            family="plot_type",
            scope="panel",
            panel=panel["index"],
            question="Kind?",
            answer=panel["kind"],
            answer_type="choice",
            answer_key="kind",
            metric="exact",
            choices=KINDS,
        )
    (root / "qa.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))


@pytest.mark.slow
def test_oracle_is_perfect_on_a_built_dataset(small_build: Path, tmp_path: Path) -> None:
    data = tmp_path / "ds"
    shutil.copytree(small_build, data)
    if not (data / "qa.jsonl").is_file():
        _questions_from_records(data)
    runner = CliRunner()
    answers, report = tmp_path / "oracle.jsonl", tmp_path / "report"
    for args in (
        ["run", "--data", str(data), "--model", "oracle", "--out", str(answers), "--no-progress"],
        ["score", "--data", str(data), "--answers", str(answers), "--out", str(report)],
    ):
        result = runner.invoke(app, ["eval", *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
    metrics = json.loads((report / "metrics.json").read_text())["models"]["oracle"]
    assert metrics["rejected"] == 0 and metrics["errors"] == 0
    assert metrics["accuracy"] == 1.0
    for family, entry in metrics["by_family"].items():
        assert_perfect_family(entry, family)
