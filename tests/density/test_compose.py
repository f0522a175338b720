"""Paper-mode composition: grouping, resizing, grids, margins, the manifest and resume."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image

from figgen.density.compose import (
    build_density,
    grid_for,
    group_sources,
    paste_grid,
    resize_to_width,
)
from figgen.density.manifest import load_manifest
from figgen.errors import FiggenError

from .helpers import chart_folder, png


def test_groups_are_without_replacement_and_drop_the_incomplete_rest() -> None:
    ids = [f"s{i}" for i in range(20)]
    groups = group_sources(ids, 6, 42)
    assert len(groups) == 3 and all(len(g) == 6 for g in groups)
    used = [s for g in groups for s in g]
    assert len(set(used)) == 18  # each chart at most once per density; 2 dropped
    assert group_sources(list(reversed(ids)), 6, 42) == groups  # input order does not matter
    assert group_sources(ids, 6, 7) != groups
    with pytest.raises(FiggenError, match="--k 9 needs at least 9 source charts"):
        group_sources(ids[:5], 9, 42)


def test_paper_grids() -> None:
    assert [grid_for(k) for k in (1, 3, 6, 9)] == [(1, 1), (1, 3), (2, 3), (3, 3)]


def test_paste_grid_places_images_row_major_with_margins() -> None:
    images = [png(800, 100 + 10 * i, (i * 40, 0, 0)) for i in range(6)]
    data, boxes, (width, height) = paste_grid(images, (2, 3), 10)
    assert width == 3 * 800 + 2 * 10
    assert height == 120 + 10 + 150  # each row as tall as its tallest image
    assert boxes[4] == (810.0, 130.0, 1610.0, 270.0)
    with Image.open(io.BytesIO(data)) as img:
        assert img.getpixel((805, 50)) == (255, 255, 255)  # the margin is white
        assert img.getpixel((815, 140)) == (160, 0, 0)  # image 4 starts after both margins


def test_build_writes_compounds_and_a_manifest(tmp_path: Path) -> None:
    source = chart_folder(tmp_path / "charts", 7)
    out = tmp_path / "bench"
    manifest = build_density(source, out, densities=[1, 3, 6])
    assert [sum(c.density == k for c in manifest.compounds) for k in (1, 3, 6)] == [7, 2, 1]
    assert manifest.dropped == {"1": 0, "3": 1, "6": 1}
    k3 = next(c for c in manifest.compounds if c.density == 3)
    with Image.open(out / k3.image) as img:
        assert img.width == 3 * 800 + 2 * 10 and img.size == (k3.width, k3.height)
    for sid, box in zip(k3.sources, k3.boxes, strict=True):
        with Image.open(source / f"{sid}.png") as original:
            assert box[2] - box[0] == 800
            assert box[3] - box[1] == round(original.height * 800 / original.width)
    record = json.loads((out / "figures" / f"{k3.id}.json").read_text())
    assert record["density"]["sources"] == k3.sources
    assert load_manifest(out).compounds == manifest.compounds
    assert manifest.tables["c03"].rows[0].y == "30"
    for single in (c for c in manifest.compounds if c.density == 1):
        # k = 1 is the original chart, pixel for pixel: no resize to 800
        with (
            Image.open(source / f"{single.sources[0]}.png") as original,
            Image.open(out / single.image) as img,
        ):
            assert img.size == original.size == (single.width, single.height)
            assert img.tobytes() == original.convert("RGB").tobytes()


def test_a_rerun_keeps_images_and_other_settings_are_refused(tmp_path: Path) -> None:
    source = chart_folder(tmp_path / "charts", 3)
    out = tmp_path / "bench"
    build_density(source, out, densities=[1, 3])
    image = out / "figures" / "k3-0000.png"
    before = image.stat().st_mtime_ns
    build_density(source, out, densities=[1, 3])
    assert image.stat().st_mtime_ns == before
    with pytest.raises(FiggenError, match="other settings"):
        build_density(source, out, densities=[1, 3], seed=1)


def test_native_mode_needs_figgen_panels(tmp_path: Path) -> None:
    with pytest.raises(FiggenError, match="--mode native"):
        build_density(chart_folder(tmp_path / "c", 3), tmp_path / "o", densities=[1], mode="native")


def test_resize_keeps_the_aspect_and_puts_transparency_on_white() -> None:
    out = io.BytesIO()
    Image.new("RGBA", (400, 300), (0, 0, 0, 0)).save(out, format="PNG")
    with Image.open(io.BytesIO(resize_to_width(out.getvalue(), 800))) as img:
        assert img.size == (800, 600) and img.getpixel((10, 10)) == (255, 255, 255)
