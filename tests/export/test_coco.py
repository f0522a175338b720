from __future__ import annotations

import json
from pathlib import Path

import pytest

from figgen.export.coco import category_ids, export_coco


@pytest.fixture(scope="module")
def coco_file(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return export_coco(built, tmp_path_factory.mktemp("coco") / "coco")


def test_pycocotools_reads_the_boxes(built: Path, coco_file: Path) -> None:
    from pycocotools.coco import COCO

    coco = COCO(str(coco_file))
    records = {
        p.stem: json.loads(p.read_text()) for p in sorted((built / "figures").glob("*.json"))
    }
    assert len(coco.getImgIds()) == len(records)
    names = {c["id"]: c["name"] for c in coco.loadCats(coco.getCatIds())}
    for image in coco.loadImgs(coco.getImgIds()):
        record = records[image["figure_id"]]
        assert (image["width"], image["height"]) == (
            record["image"]["width"],
            record["image"]["height"],
        )
        assert (coco_file.parent / "images" / image["file_name"]).read_bytes() == (
            built / "figures" / f"{image['figure_id']}.png"
        ).read_bytes()
        anns = coco.loadAnns(coco.getAnnIds(imgIds=[image["id"]]))
        shown = [
            e for e in record["elements"] if not e.get("empty") and e.get("visible") is not False
        ]
        assert len(anns) == len(shown)
        by_element = {a["element_id"]: a for a in anns}
        for element in shown:
            ann = by_element[element["id"]]
            x0, y0, x1, y1 = element["bbox"]
            assert ann["bbox"] == pytest.approx([x0, y0, x1 - x0, y1 - y0])
            assert ann["area"] == pytest.approx((x1 - x0) * (y1 - y0))
            assert names[ann["category_id"]] == element["kind"]
            assert ann["panel"] == element.get("panel")
            assert ann["text"] == element.get("text")
            assert ann["iscrowd"] == 0
    # category lookups by name work like any COCO file
    panel_ids = coco.getCatIds(catNms=["panel"])
    n_panels = sum(r["layout"]["n_panels"] for r in records.values())
    assert len(coco.getAnnIds(catIds=panel_ids)) == n_panels


def test_category_ids_are_stable_and_extendable() -> None:
    base = category_ids()
    assert base["figure"] == 1 and base["panel"] == 2
    extended = category_ids({"violin", "panel"})
    assert {k: extended[k] for k in base} == base
    assert extended["violin"] == len(base) + 1


def test_cli_coco_and_bad_license(built: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from figgen._cli.main import app

    runner = CliRunner()
    done = runner.invoke(
        app, ["export", str(built), "--format", "coco", "--out", str(tmp_path / "c")]
    )
    assert done.exit_code == 0, done.output
    assert (tmp_path / "c" / "annotations.json").is_file()
    bad = runner.invoke(
        app, ["export", str(built), "--out", str(tmp_path / "h"), "--license", "free-for-all"]
    )
    assert bad.exit_code != 0
    assert "Hub license id" in str(bad.exception)
    assert not (tmp_path / "h").exists()
