"""The exports loaded by the real harnesses, installed from the registry into cached venvs."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.harness.lmms.export import INSTALL_PACKAGES, INSTALL_REMOVE, export_lmms_eval
from figgen.schema.splits import SplitFractions
from tests.export.conftest import THIRDS, read_qa
from tests.harness.harnesses.venvs import figgen_dependencies, harness_venv

pytestmark = pytest.mark.e2e

logger = logging.getLogger(__name__)

HARNESSES = Path(__file__).parent / "harnesses"

# exactly what the docs tell users to install (figgen.harness.lmms.export.INSTALL_COMMAND)
LMMS_EVAL = [*INSTALL_PACKAGES, *figgen_dependencies()]
LMMS_EVAL_REMOVE = list(INSTALL_REMOVE)


@pytest.mark.slow
@pytest.mark.timeout(1800)  # a first run installs torch and lmms-eval (minutes)
def test_lmms_eval_runs_the_exported_task_with_an_oracle(
    built: Path, tmp_path: Path, record_property: pytest.RecordProperty
) -> None:
    venv = harness_venv("lmms-eval", LMMS_EVAL, remove=LMMS_EVAL_REMOVE)
    record_property("lmms_eval_install_seconds", round(venv.install_seconds))
    logger.warning("lmms-eval venv install took %.0f s (0: reused)", venv.install_seconds)
    task = export_lmms_eval(built, tmp_path / "task", fractions=SplitFractions.parse(THIRDS))
    out = tmp_path / "lmms_eval_results.json"
    done = venv.run(
        str(HARNESSES / "lmms_eval_oracle.py"),
        str(task.parent),
        "figgen_qa",
        str(out),
        str(tmp_path / "samples"),
        env={
            "HF_HOME": str(tmp_path / "hf_home"),
            "HF_HUB_OFFLINE": "1",
            "HF_DATASETS_OFFLINE": "1",
        },
        timeout=900,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "scoring replies by exact match" not in done.stderr  # figgen's scorer was used
    result = json.loads(out.read_text())

    qa = {item["qid"]: item for item in read_qa(built)}
    test_docs = [r["qid"] for r in result["requests"]]
    assert len(test_docs) == len(set(test_docs)) > 0
    for request in result["requests"]:
        item = qa[request["qid"]]
        assert request["prompt"].startswith(item["question"].strip())
        png = built / "figures" / f"{item['figure_id']}.png"
        from PIL import Image

        with Image.open(png) as image:
            assert request["image_sizes"] == [list(image.size)]
        assert request["image_modes"] == ["RGB"]
    assert any(r["off_by_one_percent"] for r in result["requests"])

    metrics = result["metrics"]
    assert metrics["figgen_score"] == 1.0
    levels = {qa[qid]["level"] for qid in test_docs}
    for level in (1, 2, 3):
        if level in levels:
            assert metrics[f"figgen_level_{level}"] == 1.0

    # lmms-eval's own samples log comes back into figgen eval score, all correct
    (log,) = (tmp_path / "samples").rglob("*_samples_figgen_qa.jsonl")
    answers = tmp_path / "answers.jsonl"
    runner = CliRunner()
    imported = runner.invoke(app, ["eval", "import", str(log), "--from", "lmms-eval",
                                   "--data", str(built), "--out", str(answers)])  # fmt: skip
    assert imported.exit_code == 0, imported.output
    assert sorted(json.loads(row)["qid"] for row in answers.read_text().splitlines()) == sorted(
        test_docs
    )
    scored = runner.invoke(app, ["eval", "score", "--data", str(built), "--answers",
                                 str(answers), "--out", str(tmp_path / "report")])  # fmt: skip
    assert scored.exit_code == 0, scored.output
    report = json.loads((tmp_path / "report" / "metrics.json").read_text())
    (model,) = report["models"].values()
    assert model["accuracy"] == 1.0 and model["n"] == len(test_docs)
