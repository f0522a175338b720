"""Style transfer on real renders: the new drawing's boxes frame its ink, and every stored
question is still true of it (checked from the new record's measured elements, not by the
question code); a figure no look keeps is left out with its questions."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image

from figgen.perturb import parse_kinds, perturb_dataset
from figgen.perturb import style as style_module
from figgen.schema.record import Record
from figgen.vqa.files import write_qa


def _ink(image: Image.Image, fill: tuple[int, ...]) -> np.ndarray:
    pixels = np.asarray(image.convert("RGB"), dtype=int)
    return np.abs(pixels - np.array(fill[:3])).max(axis=2) > 40


def _records(folder: Path) -> dict[str, dict[str, Any]]:
    return {p.stem: json.loads(p.read_text()) for p in sorted((folder / "figures").glob("*.json"))}


def _lines(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def styled(small_build: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("styled")
    written = perturb_dataset(small_build, out, parse_kinds("style"), seed=3)
    assert written == {"style": len(_records(small_build))}
    return out / "style"


def test_style_transfer_redraws_with_another_sheet_and_measures_the_boxes(
    small_build: Path, styled: Path
) -> None:
    assert (styled / "qa.jsonl").read_bytes() == (small_build / "qa.jsonl").read_bytes()
    new_records = _records(styled)
    for figure, clean in list(_records(small_build).items())[:3]:
        new = new_records[figure]
        look = new["perturbation"]["params"]["look"]
        assert {k: new["style"][k] for k in look} == look
        assert look != {k: clean["style"][k] for k in look}  # another sheet (or font if dark)
        assert [(e["kind"], e.get("series"), e.get("item")) for e in new["elements"]] == [
            (e["kind"], e.get("series"), e.get("item")) for e in clean["elements"]
        ]
        with Image.open(styled / new["image"]["file"]) as opened:
            drawn = opened.convert("RGB")
        assert drawn.size == (new["image"]["width"], new["image"]["height"])
        ink = _ink(drawn, drawn.getpixel((0, 0)))
        for element in new["elements"]:  # the new boxes frame the new drawing's ink
            if element["kind"] in ("title", "xlabel", "ylabel", "xtick_label", "point"):
                x0, y0, x1, y1 = (int(v) for v in element["bbox"])
                assert ink[max(0, y0 - 1) : y1 + 1, max(0, x0 - 1) : x1 + 1].any(), element


def _tick_number(text: str) -> float | None:
    try:
        return float(text.replace("\u2212", "-"))
    except ValueError:
        return None  # a formula label (log axes): left to the question code


def test_every_stored_answer_is_true_of_the_redrawn_figure(small_build: Path, styled: Path):
    """Texts, tick values and point counts read from the new record's elements."""
    new_records = _records(styled)
    checked = {"tick_values": 0, "n_points": 0, "texts": 0}
    for figure, clean in _records(small_build).items():
        new = new_records[figure]
        texts = [(e["kind"], e.get("panel"), e.get("text")) for e in new["elements"]]
        assert texts == [(e["kind"], e.get("panel"), e.get("text")) for e in clean["elements"]]
        checked["texts"] += 1
    for item in _lines(styled / "qa.jsonl"):
        elements = new_records[item["figure_id"]]["elements"]
        in_panel = [e for e in elements if e["panel"] == item["panel"]]
        if item["family"] == "tick_values":
            axis = item["answer_key"][0]
            labels = [e for e in in_panel if e["kind"] == f"{axis}tick_label"]
            values = [_tick_number(e["text"]) for e in labels]
            if None in values:
                continue
            assert sorted(set(values)) == sorted(item["answer"]), item["qid"]
            checked["tick_values"] += 1
        elif item["family"] == "n_points":
            points = [e for e in in_panel if e["kind"] == "point"]
            assert len(points) == item["answer"], item["qid"]
            # each counted point still shows apart from the others
            assert all(e.get("visible", True) for e in points), item["qid"]
            assert not any("marks" in e.get("occluded_by", []) for e in points), item["qid"]
            checked["n_points"] += 1
    assert all(checked.values()), checked


def test_the_questions_made_from_the_copy_are_the_stored_ones(styled: Path, tmp_path: Path):
    copy = tmp_path / "copy"
    shutil.copytree(styled, copy)
    write_qa(copy)
    for name in ("qa.jsonl", "descriptions.jsonl"):
        assert (copy / name).read_bytes() == (styled / name).read_bytes(), name


def test_a_figure_no_look_keeps_is_left_out_with_its_questions(
    small_build: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    clean = list(_records(small_build))
    refused = clean[1]
    keeps = style_module.same_questions

    def refusing(record: Record) -> style_module.Keeps:
        return (lambda redrawn: False) if record.id == refused else keeps(record)

    monkeypatch.setattr(style_module, "same_questions", refusing)
    written = perturb_dataset(small_build, tmp_path, parse_kinds("style"), seed=3)
    folder = tmp_path / "style"
    assert written == {"style": len(clean) - 1}
    assert sorted(_records(folder)) == [f for f in clean if f != refused]
    assert not (folder / "figures" / f"{refused}.png").exists()
    assert json.loads((folder / "manifest.json").read_text())["left_out"] == [refused]
    for name in ("qa.jsonl", "descriptions.jsonl"):
        kept = [
            line
            for line in (small_build / name).read_text(encoding="utf-8").splitlines(True)
            if json.loads(line)["figure_id"] != refused
        ]
        assert (folder / name).read_text(encoding="utf-8") == "".join(kept)
        assert len(kept) < len((small_build / name).read_text(encoding="utf-8").splitlines())
