"""A figgen build as the source: line and bar tables from records, paper and native modes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.config.load import config_from_dict
from figgen.density.compose import build_density
from figgen.density.metrics import score_compound
from figgen.density.parse import parse_tables
from figgen.density.run import truth_reply

LINES_AND_BARS = {
    "kinds": {"line": 1.0, "bar": 1.0},
    "panels": {"mean": 2.0, "std": 1.0, "count": [2, 3]},
    "image": {"dpi": [60, 80], "panel_inches": [2.6, 3.0]},
    "line": {"marker_p": 1.0},
    "style": {"dark_p": 0.5},  # seed 5: one dark figure (a bar and a line panel) of three
}


@pytest.fixture(scope="module")
def figgen_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from figgen.build.dataset import build_dataset

    out = tmp_path_factory.mktemp("lines") / "ds"
    build_dataset(
        out,
        n=3,
        seed=5,
        workers=1,
        config=config_from_dict(LINES_AND_BARS),
        progress=False,
        questions=False,
    )
    return out


@pytest.mark.slow
def test_paper_mode_from_a_figgen_build(figgen_build: Path, tmp_path: Path) -> None:
    manifest = build_density(figgen_build, tmp_path / "paper", densities=[1, 3])
    single = next(c for c in manifest.compounds if c.density == 1)
    original = tmp_path / "paper" / "sources" / "original" / f"{single.sources[0]}.png"
    with Image.open(original) as img:  # k = 1 is the panel as its build drew it: not resized
        assert (single.width, single.height) == img.size
    assert set(manifest.kinds.values()) == {"line", "bar"}
    assert {manifest.tables[s].x_kind for s in manifest.tables} == {"numeric", "categorical"}
    sid = next(s for s in sorted(manifest.tables) if manifest.kinds[s] == "line")
    figure, panel = sid.rsplit("-p", 1)
    record = json.loads((figgen_build / "figures" / f"{figure}.json").read_text())
    series = record["panels"][int(panel)]["data"]["series"]
    assert [float(r.y) for r in manifest.tables[sid].rows] == [y for s in series for y in s["y"]]
    for compound in manifest.compounds:  # the oracle's tables parse back and score perfectly
        parsed = parse_tables(truth_reply(manifest, compound.id))
        score = score_compound(compound.id, compound.sources, parsed.charts, manifest.tables)
        assert score.valid and all(c.mae == 0 and c.point_coverage == 1 for c in score.charts)


@pytest.mark.slow
def test_native_mode_rerenders_the_same_panels_with_boxes(
    figgen_build: Path, tmp_path: Path
) -> None:
    manifest = build_density(figgen_build, tmp_path / "native", densities=[1, 3], mode="native")
    compound = next(c for c in manifest.compounds if c.density == 3)
    record = json.loads((tmp_path / "native" / "figures" / f"{compound.id}.json").read_text())
    assert record["layout"]["n_panels"] == 3 and record["density"]["mode"] == "native"
    # three 800 x 600 cells (4 x 3 in at 200 dpi) with the paper's 10 px between them
    assert (record["image"]["width"], record["image"]["height"]) == (2420, 600)
    for i, sid in enumerate(compound.sources):
        figure, panel = sid.rsplit("-p", 1)
        source = json.loads((figgen_build / "figures" / f"{figure}.json").read_text())
        assert record["panels"][i]["data"] == source["panels"][int(panel)]["data"]
        assert record["panel_styles"][i] == source["style"]  # its own figure's style
        assert compound.boxes[i] == (810.0 * i, 0.0, 810.0 * i + 800, 600.0)
        mine = [e["bbox"] for e in record["elements"] if e["panel"] == i]
        assert all(810 * i <= b[0] <= b[2] <= 810 * i + 800 for b in mine)  # inside its cell
    marks = [e for e in record["elements"] if e["kind"] in ("marker", "bar")]
    assert {e["panel"] for e in marks} == {0, 1, 2}


@pytest.mark.slow
def test_native_charts_keep_their_own_style_whatever_their_neighbours(
    figgen_build: Path, tmp_path: Path
) -> None:
    out = tmp_path / "native"
    manifest = build_density(figgen_build, out, densities=[1, 3, 6], mode="native")
    alone = {c.sources[0]: c for c in manifest.compounds if c.density == 1}
    dark = set()
    for path in (figgen_build / "figures").glob("*.json"):
        record = json.loads(path.read_text())
        if record["style"]["dark"]:
            dark |= {f"{record['id']}-p{p['index']}" for p in record["panels"]}
    assert dark and set(alone) - dark  # both kinds of look are among the sources
    for compound in manifest.compounds:
        if compound.density == 1:
            continue
        with Image.open(out / compound.image) as image:
            composed = np.asarray(image.convert("RGB"))
        neighbours = {sid in dark for sid in compound.sources}
        for sid, (x0, y0, x1, y1) in zip(compound.sources, compound.boxes, strict=True):
            cell = composed[int(y0) : int(y1), int(x0) : int(x1)]
            with Image.open(out / alone[sid].image) as image:
                single = np.asarray(image.convert("RGB"))
            # the very pixels the chart has alone, next to dark and light neighbours alike
            assert np.array_equal(cell, single), (compound.id, sid, neighbours)
            # and its background is its own: a dark figure stays dark among light ones
            corner = cell[:5, :5].reshape(-1, 3).mean()
            assert corner < 60 if sid in dark else corner > 150


@pytest.mark.slow
def test_the_build_says_why_panels_are_not_source_charts(
    figgen_build: Path, tmp_path: Path
) -> None:
    source = tmp_path / "src"
    shutil.copytree(figgen_build, source)
    record = json.loads((source / "figures" / "fig-000002.json").read_text())
    record["id"] = "fig-000099"
    for panel in record["panels"]:
        panel["style"]["marker"] = None  # lines without markers: their points are not visible
    (source / "figures" / "fig-000099.json").write_text(json.dumps(record))
    result = CliRunner().invoke(
        app,
        ["density", "build", "--source", str(source), "--out", str(tmp_path / "b"), "--k", "3"],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    n = len(record["panels"])
    assert (
        f"panels not used as source charts: {n} line panels without markers "
        "(their data points are not visible)" in result.output
    )
