"""Typed set records: every stored set and evidence index reads and writes back exactly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from figgen.errors import FiggenError
from figgen.multichart.records import SetRecord, dumps_set, load_sets, open_set
from figgen.multichart.values import Vector
from figgen.schema.set_evidence import SetEvidence
from tests.multichart.independent import stored_sets


@pytest.mark.parametrize("build", ["built", "stat_sets"])
def test_every_stored_set_reads_and_writes_back_byte_for_byte(
    build: str, request: pytest.FixtureRequest
):
    root: Path = request.getfixturevalue(build)
    paths = sorted((root / "sets").glob("mc-*.json"))
    assert paths
    for path, stored in zip(paths, stored_sets(root), strict=True):
        record = SetRecord.from_dict(stored)
        # equal as objects, key order included (json.dumps keeps the order), and as bytes
        assert json.dumps(record.to_dict()) == json.dumps(stored)
        assert dumps_set(open_set(path)) == path.read_text(encoding="utf-8")


def test_the_typed_set_holds_what_the_stored_json_says(built: Path):
    for record, stored in zip(load_sets(built), stored_sets(built), strict=True):
        assert record.id == stored["id"] and record.scenario == stored["scenario"]
        for name, value in stored["values"].items():
            typed = record.values[name]
            if isinstance(value, dict) and "labels" in value:
                assert isinstance(typed, Vector)
                assert list(typed.labels) == value["labels"]
                assert list(typed.values) == value["values"]
            elif isinstance(value, dict):
                assert typed == value["label"]
            else:
                assert typed == value
        for name, image in stored["images"].items():
            assert record.images[name].file == image["file"]
            assert record.kinds()[name] == image["kind"]
        for question, raw in zip(record.questions, stored["questions"], strict=True):
            assert question.ask.text == raw["text"] and question.number == raw["number"]
            assert [t.labels for t in question.ask.targets] == [
                tuple(t["labels"]) for t in raw["targets"]
            ]
            for mode, facts in raw["modes"].items():
                asked = question.modes[mode]
                assert asked.qid == facts["qid"] and asked.hops == facts["hops"]
                assert {k: [list(b) for b in v] for k, v in asked.evidence.items()} == facts[
                    "evidence"
                ]


def test_the_evidence_index_reads_and_writes_back_byte_for_byte(built: Path):
    text = (built / "set_evidence.json").read_text(encoding="utf-8")
    stored = SetEvidence.from_dict(json.loads(text))
    assert json.dumps(stored.to_dict(), separators=(",", ":")) == text
    n_questions = sum(len(s["questions"]) for s in stored_sets(built))
    assert len(stored.evidence) == 2 * n_questions  # one entry per question and mode


def test_load_sets_gives_the_first_n_in_id_order(built: Path):
    ids = [s["id"] for s in stored_sets(built)]
    assert [s.id for s in load_sets(built)] == ids
    assert [s.id for s in load_sets(built, 2)] == ids[:2]


@pytest.mark.parametrize(
    ("text", "problem"),
    [("{not json", "JSONDecodeError"), ('{"id": "mc-000000"}', "KeyError: 'seed'")],
)
def test_a_damaged_set_is_a_one_line_error(tmp_path: Path, text: str, problem: str):
    path = tmp_path / "mc-000000.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FiggenError, match="not a multi-chart set") as caught:
        open_set(path)
    message = str(caught.value)
    assert problem in message and "\n" not in message and "figgen multichart build" in message
