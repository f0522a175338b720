"""Perturbed datasets on real renders: boxes still cover their ink, bytes reproduce."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.errors import FiggenError
from figgen.perturb import apply_plan, parse_kinds, perturb_dataset, plan_figure
from figgen.schema.record import Record

INKED = {
    "point",
    "marker",
    "bar",
    "title",
    "xlabel",
    "ylabel",
    "xtick_label",
    "ytick_label",
    "legend_entry",
    "colorbar_tick_label",
}
EVERY_KIND = (
    "noise,blur,jpeg:quality=25,rescale:factor=0.6,watermark,background_text,"
    "rotate:degrees=9,shear:factor=0.2,crop,pad:fraction=0.2"
)


def _ink(image: Image.Image, fill: tuple[int, ...]) -> np.ndarray:
    pixels = np.asarray(image.convert("RGB"), dtype=int)
    return np.abs(pixels - np.array(fill[:3])).max(axis=2) > 40


def _records(build: Path) -> list[dict[str, Any]]:
    return [json.loads(p.read_text()) for p in sorted((build / "figures").glob("*.json"))]


def _inked_elements(record: dict[str, Any], ink: np.ndarray) -> list[dict[str, Any]]:
    chosen = []
    for element in record["elements"]:
        x0, y0, x1, y1 = (int(v) for v in element["bbox"])
        if element["kind"] in INKED and ink[y0:y1, x0:x1].sum() >= 3:
            chosen.append(element)
    return chosen


def _covered(mask: np.ndarray, box: list[float], slack: int = 2) -> float:
    """Share of the mask's mass inside ``box`` grown by ``slack`` pixels (resampling blur)."""
    x0, y0, x1, y1 = (int(v) for v in box)
    inside = mask[max(0, y0 - slack) : y1 + slack, max(0, x0 - slack) : x1 + slack].sum()
    total = mask.sum()
    return float(inside / total) if total else 1.0


@pytest.mark.parametrize("spec", parse_kinds(EVERY_KIND), ids=lambda s: s.label)
def test_moved_boxes_cover_their_ink(small_build: Path, spec) -> None:
    """Each element's own ink, warped exactly as the image is, stays inside its moved box;
    and the perturbed picture still has ink under every moved box."""
    checked = 0
    for record in _records(small_build)[:3]:
        with Image.open(small_build / record["image"]["file"]) as opened:
            original = opened.convert("RGB")
        fill = original.getpixel((0, 0))
        ink = _ink(original, fill)
        plan = plan_figure(original, Record.from_dict(record), spec, seed=5)
        perturbed, _, _ = apply_plan(original, plan)
        moved_ink = _ink(perturbed, perturbed.getpixel((0, 0)) if plan.warp is None else fill)
        elements = _inked_elements(record, ink)
        assert elements
        for element in elements[:: max(1, len(elements) // 25)]:
            box = element["bbox"]
            new_box = plan.warp.box(tuple(box)) if plan.warp else box
            x0, y0, x1, y1 = (int(v) for v in new_box)
            assert moved_ink[y0:y1, x0:x1].any(), (spec.label, element["kind"], new_box)
            if plan.warp is None:
                continue
            own = np.zeros(ink.shape, dtype=np.uint8)
            bx0, by0, bx1, by1 = (int(v) for v in box)
            own[by0:by1, bx0:bx1] = ink[by0:by1, bx0:bx1] * 255
            warped = np.asarray(plan.warp.image(Image.fromarray(own), (0,)), dtype=float)
            assert _covered(warped, new_box) >= 0.99, (spec.label, element["kind"])
            checked += 1
    assert checked > 0 or plan.warp is None


def test_the_ink_check_fails_for_boxes_that_were_not_moved(small_build: Path) -> None:
    (spec,) = parse_kinds("rotate:degrees=9")
    record = _records(small_build)[0]
    with Image.open(small_build / record["image"]["file"]) as opened:
        original = opened.convert("RGB")
    ink = _ink(original, original.getpixel((0, 0)))
    plan = plan_figure(original, Record.from_dict(record), spec, seed=5)
    assert plan.warp is not None
    misses = 0
    for element in _inked_elements(record, ink):
        own = np.zeros(ink.shape, dtype=np.uint8)
        x0, y0, x1, y1 = (int(v) for v in element["bbox"])
        own[y0:y1, x0:x1] = ink[y0:y1, x0:x1] * 255
        warped = np.asarray(plan.warp.image(Image.fromarray(own), (0,)), dtype=float)
        misses += _covered(warped, element["bbox"]) < 0.99
    assert misses > 0


def _tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.slow
def test_dataset_copies_reproduce_and_resume(small_build: Path, tmp_path: Path) -> None:
    specs = parse_kinds("noise,jpeg,rotate,background_text")
    perturb_dataset(small_build, tmp_path / "a", specs, seed=3)
    perturb_dataset(small_build, tmp_path / "b", specs, seed=3)
    first, second = _tree(tmp_path / "a"), _tree(tmp_path / "b")
    assert first == second  # byte-reproducible
    for label in ("noise", "jpeg", "rotate", "background_text"):
        folder = tmp_path / "a" / label
        assert (folder / "qa.jsonl").read_bytes() == (small_build / "qa.jsonl").read_bytes()
        manifest = json.loads((folder / "manifest.json").read_text())
        assert manifest["perturbation"]["label"] == label
        record = json.loads(next((folder / "figures").glob("*.json")).read_text())
        applied = record["perturbation"]
        assert applied["kind"] == label and applied["seed"] == 3
        with Image.open(folder / record["image"]["file"]) as img:
            assert img.size == (record["image"]["width"], record["image"]["height"])
            assert img.format == ("JPEG" if label == "jpeg" else "PNG")
    rotate = json.loads((tmp_path / "a/rotate/figures/fig-000000.json").read_text())
    assert abs(rotate["perturbation"]["params"]["angle"]) == 4.0
    assert len(rotate["perturbation"]["matrix"]) == 2
    # a killed run resumes: a missing record is redone to the same bytes, others are kept
    victim = tmp_path / "a/noise/figures/fig-000001.json"
    victim.unlink()
    written = perturb_dataset(small_build, tmp_path / "a", specs[:1], seed=3)
    assert written == {"noise": 1} and _tree(tmp_path / "a") == first
    # another seed changes the noise, and is refused in a folder of the first seed
    perturb_dataset(small_build, tmp_path / "c", specs[:1], seed=4)
    other = _tree(tmp_path / "c")
    assert other["noise/figures/fig-000000.png"] != first["noise/figures/fig-000000.png"]
    with pytest.raises(FiggenError, match="another perturbation"):
        perturb_dataset(small_build, tmp_path / "a", specs[:1], seed=4)
    # a perturbed copy is a dataset: the oracle answers it (JPEG images) and locates its
    # moved evidence exactly
    answers, report = tmp_path / "oracle.jsonl", tmp_path / "report"
    for args in (
        ["run", "--data", str(tmp_path / "a/jpeg"), "--model", "oracle", "--levels", "1"]
        + ["--prompt", "grounded", "--out", str(answers), "--no-progress"],
        [
            "score",
            "--data",
            str(tmp_path / "a/jpeg"),
            "--answers",
            str(answers),
            "--out",
            str(report),
        ],
    ):
        result = CliRunner().invoke(app, ["eval", *args], catch_exceptions=False)
        assert result.exit_code == 0, result.output
    metrics = json.loads((report / "metrics.json").read_text())
    assert metrics["models"]["oracle [grounded]"]["accuracy"] == 1.0
    assert metrics["grounding"]["runs"]["oracle [grounded]"]["mean_diou"] == pytest.approx(1.0)


def test_kinds_are_parsed_with_one_line_errors(tmp_path: Path) -> None:
    specs = parse_kinds("noise:sigma=20, jpeg:quality=15,watermark:text=COPY")
    assert [s.label for s in specs] == ["noise-sigma20", "jpeg-quality15", "watermark-textCOPY"]
    assert specs[1].params == {"quality": 15}
    for bad, message in (
        ("sparkle", "unknown perturbation 'sparkle'"),
        ("noise:amount=3", "noise takes sigma=12.0"),
        ("noise:sigma=loud", "sigma must be a number"),
        ("", "names no perturbation"),
        ("noise,noise", "twice"),
    ):
        with pytest.raises(FiggenError, match=message):
            parse_kinds(bad)
    result = CliRunner().invoke(
        app, ["perturb", str(tmp_path), "--kinds", "noise", "--out", str(tmp_path / "o")]
    )
    assert result.exit_code != 0 and "is not a dataset" in str(result.exception)
