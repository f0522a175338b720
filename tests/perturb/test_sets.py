"""``figgen perturb`` on a multi-chart build: every image of every set, boxes carried along,
the questions unchanged, and the oracle still locates every evidence box."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.multichart.records import SetRecord
from tests.multichart.independent import stored_sets


def test_every_image_is_perturbed_and_the_evidence_moves_with_its_elements(
    built: Path, tmp_path: Path
):
    out = tmp_path / "p"
    result = CliRunner().invoke(
        app, ["perturb", str(built), "--kinds", "rotate:degrees=6,style", "--out", str(out)]
    )
    assert result.exit_code == 0, result.output
    clean_sets = {s["id"]: s for s in stored_sets(built)}
    for label in ("rotate-degrees6", "style"):
        folder = out / label
        assert (folder / "qa.jsonl").read_bytes() == (built / "qa.jsonl").read_bytes()
        for record in stored_sets(folder):
            # a perturbed set reads and writes back exactly, its perturbation stored last
            assert SetRecord.from_dict(record).to_dict() == record
            assert list(record)[-1] == "perturbation"
            assert record["perturbation"]["label"] == label
            clean = clean_sets[record["id"]]
            for name, image in record["images"].items():
                new = json.loads((folder / image["record"]).read_text())
                old = json.loads((built / clean["images"][name]["record"]).read_text())
                assert new["perturbation"]["kind"] == label.split("-")[0]
                assert (folder / image["file"]).read_bytes() != (
                    built / clean["images"][name]["file"]
                ).read_bytes()
                by_box = {tuple(e["bbox"]): e["id"] for e in old["elements"]}
                new_box = {e["id"]: e["bbox"] for e in new["elements"]}
                for q, q_clean in zip(record["questions"], clean["questions"], strict=True):
                    for mode, facts in q["modes"].items():
                        boxes = q_clean["modes"][mode]["evidence"].get(name, [])
                        expected = [new_box[by_box[tuple(b)]] for b in boxes]
                        assert facts["evidence"].get(name, []) == expected
        answers = tmp_path / f"{label}.jsonl"
        run = ["eval", "run", "--data", str(folder), "--model", "oracle", "--prompt", "grounded"]
        assert CliRunner().invoke(app, [*run, "--out", str(answers)]).exit_code == 0
        report = tmp_path / f"r-{label}"
        score = ["eval", "score", "--data", str(folder), "--answers", str(answers)]
        assert CliRunner().invoke(app, [*score, "--out", str(report)]).exit_code == 0
        assert "| 0 | 1.000 |" in (report / "report.md").read_text()  # exact boxes, none rejected


def test_a_set_with_a_chart_no_look_keeps_is_left_out(built: Path, tmp_path: Path, monkeypatch):
    from figgen.perturb import style
    from figgen.perturb.style import NoLook

    sets = stored_sets(built)
    refused_set = sets[0]
    refused_chart = json.loads(
        (built / next(iter(refused_set["images"].values()))["record"]).read_text()
    )["id"]
    restyled = style.restyled

    def refusing(record, *args, **kwargs):
        if record.id == refused_chart:
            raise NoLook(f"figure {record.id}: refused")
        return restyled(record, *args, **kwargs)

    monkeypatch.setattr(style, "restyled", refusing)
    out = tmp_path / "p"
    result = CliRunner().invoke(app, ["perturb", str(built), "--kinds", "style", "--out", str(out)])
    assert result.exit_code == 0, result.output
    kept = [s["id"] for s in stored_sets(out / "style")]
    assert kept == [s["id"] for s in sets[1:]]
    asked = {json.loads(line)["figure_id"] for line in (out / "style/qa.jsonl").open()}
    assert asked and not any(figure.startswith(refused_set["id"]) for figure in asked)
