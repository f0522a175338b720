"""Predictions from VLMEvalKit and lmms-eval come back into ``figgen eval score``.

The prediction files are written the way the harnesses write them: VLMEvalKit's is the exported
TSV plus a ``prediction`` column, saved as .xlsx (pandas + openpyxl, as VLMEvalKit's ``dump``
does) or .tsv; lmms-eval's samples log has one JSON object per document with ``doc`` and
``filtered_resps``. (The slow test in tests/harness/test_real_harnesses.py imports a samples log
that lmms-eval itself wrote.)
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.harness.vlmevalkit.export import MCQ_NAME, OPEN_NAME, export_vlmevalkit, option_letters
from tests.export.conftest import read_qa


def figgen(*args: str | Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "figgen", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def _right(item: dict) -> str:
    return json.dumps({item["answer_key"]: item["answer"]})


def _wrong(item: dict) -> str:
    if item["answer_type"] == "boolean":
        return json.dumps({item["answer_key"]: not item["answer"]})
    if item["answer_type"] in ("integer", "number"):
        return json.dumps({item["answer_key"]: item["answer"] * 3 + 1000})
    return json.dumps({item["answer_key"]: "zzz not it"})


def in_process(*args: str | Path) -> str:
    """Run ``figgen ARGS`` in this process (quicker than a new one); its output."""
    result = CliRunner().invoke(app, list(map(str, args)), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _score(data: Path, answers: Path, out: Path) -> dict:
    """The one model's metrics, as figgen eval score reports them."""
    in_process("eval", "score", "--data", data, "--answers", answers, "--out", out)
    (model,) = json.loads((out / "metrics.json").read_text())["models"].values()
    return model


@pytest.fixture(scope="module")
def predictions(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:  # noqa: F811
    """VLMEvalKit prediction files of an oracle: letters (in VLMEvalKit's reply styles) for
    the multiple-choice TSV, figgen's JSON answers for the open-ended one."""
    folder = tmp_path_factory.mktemp("pred")
    qa = {item["qid"]: item for item in read_qa(built)}
    styles = ["{}", "{}.", "({})", "{}: {}"]
    files = {}
    for path in export_vlmevalkit(built, folder / "tsv"):
        table = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
        replies = []
        for k, qid in enumerate(table["qid"]):
            item = qa[qid]
            if path.stem == MCQ_NAME:
                letter = option_letters(len(item["choices"]))[item["choices"].index(item["answer"])]
                replies.append(styles[k % 4].format(letter, item["answer"]))
            else:
                replies.append(_right(item))
        table["prediction"] = replies
        files[path.stem] = folder / f"my-model_{path.stem}.xlsx"
        table.drop(columns=["image"]).to_excel(files[path.stem], index=False)
    return files


def test_vlmevalkit_predictions_of_an_oracle_score_one(
    built: Path,  # noqa: F811
    predictions: dict[str, Path],
    tmp_path: Path,
) -> None:
    qids = []
    for name, path in predictions.items():
        out = tmp_path / f"{name}.jsonl"
        in_process("eval", "import", path, "--from", "vlmevalkit", "--data", built, "--out", out)
        rows = [json.loads(line) for line in out.read_text().splitlines()]
        assert {row["model"] for row in rows} == {"vlmevalkit:my-model"}
        qids += [row["qid"] for row in rows]
        overall = _score(built, out, tmp_path / f"report-{name}")
        assert overall["accuracy"] == 1.0 and overall["n"] == len(rows)
    assert sorted(qids) == sorted(item["qid"] for item in read_qa(built))
    assert set(predictions) == {MCQ_NAME, OPEN_NAME}


def test_a_tsv_of_wrong_predictions_scores_zero(
    built: Path,  # noqa: F811
    predictions: dict[str, Path],
    tmp_path: Path,
) -> None:
    qa = {item["qid"]: item for item in read_qa(built)}
    table = pd.read_excel(predictions[OPEN_NAME], dtype=str, keep_default_na=False)
    table["prediction"] = [_wrong(qa[qid]) for qid in table["qid"]]
    tsv = tmp_path / "other_FiggenQA_openended.tsv"
    table.to_csv(tsv, sep="\t", index=False)
    out = tmp_path / "wrong.jsonl"
    in_process("eval", "import", tsv, "--from", "vlmevalkit", "--data", built, "--out", out,
               "--model", "m")  # fmt: skip
    overall = _score(built, out, tmp_path / "report")
    assert overall["accuracy"] == 0.0


def test_an_lmms_eval_samples_log_imports(built: Path, tmp_path: Path) -> None:  # noqa: F811
    items = read_qa(built)
    log = tmp_path / "samples_figgen_qa.jsonl"
    # as lmms-eval's EvaluationTracker writes them: no doc, one reply flattened to a string,
    # the task's metric values (figgen's per-level ones carry the qid)
    samples = [{"doc_id": k, "target": str(item["answer"]), "filtered_resps": _right(item),
                "figgen_score": 1.0, "doc_hash": "0" * 64,
                "figgen_level_1": {"level": item["level"], "score": 1.0, "qid": item["qid"]}}
               for k, item in enumerate(items)]  # fmt: skip
    log.write_text("".join(json.dumps(sample) + "\n" for sample in samples))
    out = tmp_path / "answers.jsonl"
    output = in_process("eval", "import", log, "--from", "lmms-eval", "--data", built, "--out", out)
    assert output.startswith(f"{out}: {len(items)} answers of lmms-eval:samples_figgen_qa")
    assert _score(built, out, tmp_path / "report")["accuracy"] == 1.0


def test_bad_prediction_files_are_one_line_and_write_nothing(
    built: Path,  # noqa: F811
    tmp_path: Path,
) -> None:
    no_qid = tmp_path / "pred.tsv"
    pd.DataFrame({"index": [0], "prediction": ["B"]}).to_csv(no_qid, sep="\t", index=False)
    not_samples = tmp_path / "samples.jsonl"
    not_samples.write_text('{"doc_id": 0}\n')
    unknown = tmp_path / "unknown.tsv"
    pd.DataFrame({"qid": ["nosuch"], "prediction": ["B"]}).to_csv(unknown, sep="\t", index=False)
    out = tmp_path / "answers.jsonl"
    cases = [
        (no_qid, "vlmevalkit", f"{no_qid}: no qid column; give VLMEvalKit's prediction file "
         "for figgen's exported FiggenQA_MCQ or FiggenQA_openended"),
        (not_samples, "lmms-eval", f"{not_samples}, line 1: not an lmms-eval sample of a figgen "
         "task (run lmms-eval with --log_samples and give its samples_*.jsonl)"),
        (unknown, "vlmevalkit", f"{unknown}: question 'nosuch' is not in {built}; pass --data "
         "the build the predictions were made on"),
        (tmp_path / "nosuch.xlsx", "vlmevalkit",
         f"{tmp_path / 'nosuch.xlsx'} does not exist; give the harness's prediction file"),
    ]  # fmt: skip
    for path, harness, message in cases:
        result = figgen("eval", "import", path, "--from", harness, "--data", built, "--out", out)
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.splitlines() == [f"error: {message}"]
        assert not out.exists()
    assert not list(tmp_path.glob(".answers*"))
