"""write_qa / `figgen qa`: files from records, atomically, with manifest counts."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.errors import FiggenError
from figgen.vqa import describe_record, questions_for_record, write_qa
from figgen.vqa.files import PARTS_DIR, figure_part
from tests.vqa.records import mixed_record


def build_dir(tmp_path: Path, n: int = 3) -> Path:
    (tmp_path / "figures").mkdir()
    for i in range(n):
        record = mixed_record(seed=i, index=i)
        (tmp_path / "figures" / f"{record['id']}.json").write_text(json.dumps(record))
    (tmp_path / "manifest.json").write_text(json.dumps({"n": n, "seed": 1}))
    return tmp_path


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_write_qa_writes_items_descriptions_and_counts(tmp_path: Path) -> None:
    root = build_dir(tmp_path)
    counts = write_qa(root)
    rows = read_jsonl(root / "qa.jsonl")
    expected = [i.to_dict() for k in range(3) for i in questions_for_record(mixed_record(k, k))]
    assert rows == expected
    assert read_jsonl(root / "descriptions.jsonl") == [
        d for k in range(3) for d in describe_record(mixed_record(k, k))
    ]
    manifest = json.loads((root / "manifest.json").read_text())
    assert manifest["n"] == 3 and manifest["seed"] == 1  # the build's own keys survive
    assert manifest["qa"] == counts
    assert counts["total"] == len(rows) and counts["figures"] == 3
    assert counts["by_level"] == {
        str(k): v for k, v in sorted(Counter(r["level"] for r in rows).items())
    }
    assert counts["by_scope"] == dict(sorted(Counter(r["scope"] for r in rows).items()))
    assert sum(counts["by_family"].values()) == len(rows)
    assert sorted(p.name for p in root.iterdir()) == [
        "descriptions.jsonl",
        "figures",
        "manifest.json",
        "qa.jsonl",
    ]  # no temp files left


def test_write_qa_is_repeatable(tmp_path: Path) -> None:
    root = build_dir(tmp_path)
    write_qa(root)
    first = (root / "qa.jsonl").read_bytes()
    write_qa(root)
    assert (root / "qa.jsonl").read_bytes() == first


def test_workers_parts_are_joined_into_what_a_rebuild_from_the_records_writes(
    tmp_path: Path,
) -> None:
    root = build_dir(tmp_path)
    parts = root / PARTS_DIR
    parts.mkdir()
    for path in sorted((root / "figures").glob("*.json")):
        (parts / f"{path.stem}.jsonl").write_text(figure_part(path.read_text(), None))
    (parts / "fig-000000.jsonl.tmp-123").write_text("left by a killed worker")
    joined_counts = write_qa(root)
    joined = {name: (root / name).read_bytes() for name in ("qa.jsonl", "descriptions.jsonl")}
    assert not parts.exists()  # joined, then removed with what a kill left
    assert write_qa(root) == joined_counts  # from the records alone
    assert {name: (root / name).read_bytes() for name in joined} == joined


def _marked_part(record_text: str, **header: object) -> str:
    """A part for ``record_text`` whose first question says MARK (to see if it is used)."""
    lines = figure_part(record_text, None).split("\n")
    head = {**json.loads(lines[0]), **header}
    first = {**json.loads(lines[1]), "question": "MARK"}
    return "\n".join([json.dumps(head), json.dumps(first), *lines[2:]])


@pytest.mark.parametrize(
    ("change", "used"),
    [
        ({}, True),
        ({"record_sha256": "0" * 64}, False),  # made from other record bytes
        ({"figgen_version": "0.0.1"}, False),
        ({"kinds": ["line"]}, False),  # other plot-type choices
        ({"n_qa": 10**6}, False),  # damaged
        ({"keys": None}, False),
    ],
)
def test_a_part_is_used_only_for_the_record_bytes_version_and_choices_it_was_made_for(
    tmp_path: Path, change: dict[str, object], used: bool
) -> None:
    root = build_dir(tmp_path, n=1)
    record = next((root / "figures").glob("*.json"))
    (root / PARTS_DIR).mkdir()
    (root / PARTS_DIR / f"{record.stem}.jsonl").write_text(
        _marked_part(record.read_text(), **change)
    )
    write_qa(root)
    assert (read_jsonl(root / "qa.jsonl")[0]["question"] == "MARK") is used
    assert len(read_jsonl(root / "qa.jsonl")) == len(questions_for_record(mixed_record(0, 0)))


def test_missing_or_broken_records_are_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(FiggenError, match="figgen build"):
        write_qa(tmp_path)
    root = build_dir(tmp_path, n=1)
    (root / "figures" / "fig-000009.json").write_text("{not json")
    with pytest.raises(FiggenError, match="fig-000009.json"):
        write_qa(root)


def test_a_failed_rebuild_leaves_the_old_files(tmp_path: Path) -> None:
    root = build_dir(tmp_path, n=2)
    write_qa(root)
    before = {
        name: (root / name).read_bytes()
        for name in ("qa.jsonl", "descriptions.jsonl", "manifest.json")
    }
    (root / "figures" / "fig-000005.json").write_text('{"id": "fig-000005"}')
    with pytest.raises(FiggenError, match="not a figure record"):
        write_qa(root)
    assert {name: (root / name).read_bytes() for name in before} == before
    assert not [p for p in root.iterdir() if p.name.endswith(".tmp")]


def test_cli_rebuilds_qa(tmp_path: Path) -> None:
    root = build_dir(tmp_path, n=2)
    result = CliRunner().invoke(app, ["qa", str(root)])
    assert result.exit_code == 0, result.output
    assert "for 2 figures" in result.output
    assert (root / "qa.jsonl").exists()


def test_descriptions_have_three_levels_per_figure_and_panel() -> None:
    record = mixed_record(1)
    rows = describe_record(record)
    assert len(rows) == 3 * (1 + len(record["panels"]))
    keys = Counter((r["scope"], r["panel"]) for r in rows)
    assert set(keys.values()) == {3}
    figure = [r for r in rows if r["scope"] == "figure"]
    assert "6 panels in two rows and three columns" in figure[0]["text"]
    line = [r for r in rows if r["panel"] == 0]
    assert line[0]["text"].startswith("The top-left panel is a line plot")
    assert "(blue and orange)" in line[0]["text"]
    assert line[2]["text"] == (
        "The blue line rises strongly along a straight line. "
        "The orange line falls strongly along a straight line. "
        "The lines never cross: from top to bottom, the orange line and the blue line."
    )
    contour = [r for r in rows if r["panel"] == 3]  # one Gaussian bump in the middle
    assert contour[2]["text"].startswith("The field rises to a single peak")
    assert "highest near the centre" in contour[2]["text"]
    assert all(len(r["alt_text"]) < 150 for r in rows)
