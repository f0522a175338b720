"""A figgen build as the source: line and bar tables from records, paper and native modes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from figgen.config import config_from_dict
from figgen.density.compose import build_density
from figgen.density.metrics import score_compound
from figgen.density.parse import parse_tables
from figgen.density.run import truth_reply

LINES_AND_BARS = {
    "kinds": {"line": 1.0, "bar": 1.0},
    "panels": {"mean": 2.0, "std": 1.0, "count": [2, 3]},
    "image": {"dpi": [60, 80], "panel_inches": [2.6, 3.0]},
    "line": {"marker_p": 1.0},
}


@pytest.fixture(scope="module")
def figgen_build(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from figgen.build import build_dataset

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
    assert (record["image"]["width"], record["image"]["height"]) == (2400, 600)
    for i, sid in enumerate(compound.sources):
        figure, panel = sid.rsplit("-p", 1)
        source = json.loads((figgen_build / "figures" / f"{figure}.json").read_text())
        assert record["panels"][i]["data"] == source["panels"][int(panel)]["data"]
        x0, y0, x1, y1 = compound.boxes[i]
        assert 0 <= x0 < x1 <= 2400 and 0 <= y0 < y1 <= 600
        assert 800 * i <= (x0 + x1) / 2 < 800 * (i + 1)  # centred in its own cell
    marks = [e for e in record["elements"] if e["kind"] in ("marker", "bar")]
    assert {e["panel"] for e in marks} == {0, 1, 2}
