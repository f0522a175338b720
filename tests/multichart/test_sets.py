"""Built sets: sufficiency and answers recomputed independently from the recorded images,
hops and evidence, modes, determinism and resume."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from figgen.multichart.build import build_sets
from figgen.multichart.graph import build_graph, spec_from_dict
from figgen.multichart.modes import MODES, covers
from tests.multichart import independent
from tests.multichart.conftest import SCENARIOS


def _close(truth, got) -> bool:
    if isinstance(truth, bool | str):
        return truth == got
    return abs(got - truth) <= 0.01 * abs(truth)


def test_every_question_is_answerable_from_each_modes_images_alone(built: Path):
    sets = independent.stored_sets(built)
    assert len(sets) == len(SCENARIOS) == len({s["scenario"] for s in sets})
    for record in sets:
        for mode in MODES:
            values = independent.mode_values(built, record, mode)
            for question in record["questions"]:
                for target in question["targets"]:
                    assert target["node"] in values, (record["id"], mode, target)
                got = independent.answer(question, values)
                assert _close(question["answer"], got), (record["id"], mode, question["text"])


def test_answers_match_the_propagated_data_exactly(built: Path):
    for record in independent.stored_sets(built):
        values = {
            name: {str(k): v for k, v in zip(raw["labels"], raw["values"], strict=True)}
            if isinstance(raw, dict) and "labels" in raw
            else raw["label"]
            if isinstance(raw, dict)
            else raw
            for name, raw in record["values"].items()
        }
        for question in record["questions"]:
            got = independent.answer(question, values)
            assert _close(question["answer"], got) and (
                isinstance(got, bool | str) or abs(got - question["answer"]) <= 1e-6 * abs(got)
            )


def test_in_depth_images_are_a_minimal_generative_set_of_the_values(built: Path):
    for record in independent.stored_sets(built):
        graph = build_graph(spec_from_dict(record["spec"]))
        deep = record["modes"]["in-depth"]
        assert covers(graph, deep)
        for image in deep:  # independence: every chart is needed
            assert not covers(graph, [i for i in deep if i != image])
        ext = record["modes"]["extended"]
        assert set(deep) <= set(ext) and 3 <= len(ext) <= 18
        shown = {read.node for i in ext for read in graph.shown[i]}
        computed = [
            n for n, node in record["spec"]["nodes"].items() if node["type"] == "computation"
        ]
        assert set(computed) <= shown  # extended context visualises every computation node
        assert record["minimal_set"]["complete"] and record["minimal_set"]["independent"]


def test_question_counts_types_and_hops(built: Path):
    for record in independent.stored_sets(built):
        questions = record["questions"]
        assert 8 <= len(questions) <= 50
        assert {q["type"] for q in questions} == {"extract", "compare", "compute"}
        for q in questions:
            ext, deep = q["modes"]["extended"], q["modes"]["in-depth"]
            assert deep["hops"] >= ext["hops"] >= 0  # more charts never need more steps
            assert set(deep["images"]) <= set(record["modes"]["in-depth"])
            assert {t["node"] for t in q["targets"]} <= set(deep["nodes"])


def test_evidence_boxes_are_recorded_elements_inside_their_images(built: Path):
    for record in independent.stored_sets(built):
        for q in record["questions"]:
            for mode in MODES:
                facts = q["modes"][mode]
                assert facts["evidence"], q["text"]
                for image, boxes in facts["evidence"].items():
                    assert image in facts["images"]
                    rec = json.loads((built / record["images"][image]["record"]).read_text())
                    known = [e["bbox"] for e in rec["elements"]]
                    width, height = rec["image"]["width"], rec["image"]["height"]
                    for box in boxes:
                        assert box in known
                        assert 0 <= box[0] <= box[2] <= width and 0 <= box[1] <= box[3] <= height


def test_a_value_question_points_at_the_mark_of_its_value(built: Path):
    checked = 0
    for record in independent.stored_sets(built):
        for q in record["questions"]:
            facts = q["modes"]["in-depth"]
            if q["how"] != "value" or facts["hops"] != 0 or not q["targets"][0]["labels"]:
                continue
            (image,) = facts["images"]
            rec = json.loads((built / record["images"][image]["record"]).read_text())
            shown = []
            for box in facts["evidence"][image]:
                for e in rec["elements"]:
                    if e["bbox"] == box and e.get("value"):
                        shown.append(e["value"][-1])
                    elif e["bbox"] == box and e.get("text"):
                        shown.append(float(e["text"].split("\n")[-1].replace(",", "")))
            assert any(v == pytest.approx(q["answer"], rel=0.005) for v in shown), (q, shown)
            checked += 1
    assert checked


def test_same_seed_same_bytes_whatever_the_workers_and_resume(built: Path, tmp_path: Path):
    again = tmp_path / "again"
    build_sets(again, n=2, seed=3, scenarios=SCENARIOS, workers=2)  # the fixture used one
    first = sorted(p.name for p in (again / "images").iterdir())
    for name in ("mc-000000.json", "mc-000001.json"):
        assert (again / "sets" / name).read_bytes() == (built / "sets" / name).read_bytes()
    for name in first:
        assert (again / "images" / name).read_bytes() == (built / "images" / name).read_bytes()
    # a killed build: the set JSON is written last, so a missing one is rebuilt, others kept
    resumed = tmp_path / "resumed"
    shutil.copytree(built, resumed)
    (resumed / "sets" / "mc-000001.json").unlink()
    kept = (resumed / "sets" / "mc-000000.json").stat().st_mtime_ns
    summary = build_sets(resumed, n=len(SCENARIOS), seed=3, scenarios=SCENARIOS)
    assert (summary.generated, summary.skipped) == (1, len(SCENARIOS) - 1)
    assert (resumed / "sets" / "mc-000000.json").stat().st_mtime_ns == kept
    assert (resumed / "qa.jsonl").read_bytes() == (built / "qa.jsonl").read_bytes()


def test_a_folder_of_another_build_is_refused(built: Path):
    from figgen.errors import BuildDirError

    with pytest.raises(BuildDirError, match="another seed"):
        build_sets(built, n=2, seed=4, scenarios=SCENARIOS)
