from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from PIL import Image

from figgen.errors import FiggenError
from figgen.export.hf import HfOptions, export_hf
from figgen.export.source import BuiltDataset
from figgen.schema.splits import SplitFractions, assign_splits
from tests.export.conftest import THIRDS, read_qa


@pytest.fixture
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    import datasets.config

    monkeypatch.setattr(datasets.config, "HF_HUB_OFFLINE", True)


def _load(path: Path, config: str, cache: Path):
    from datasets import load_dataset

    return load_dataset(str(path), config, cache_dir=str(cache))


def _pixels(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"))


def test_qa_config_round_trips_through_datasets(
    built: Path, hf_dir: Path, tmp_path: Path, offline: None
) -> None:
    from datasets import Image as ImageFeature

    qa = _load(hf_dir, "qa", tmp_path)
    expected = read_qa(built)
    assert sum(len(qa[s]) for s in qa) == len(expected)
    assert isinstance(qa["train"].features["image"], ImageFeature)
    fractions = SplitFractions.parse(THIRDS)
    by_qid = {row["qid"]: row for row in expected}
    splits = assign_splits(BuiltDataset.open(built).figure_ids(), fractions)
    for split in qa:
        rows = list(qa[split])
        # rows keep qa.jsonl order within each split
        assert [r["qid"] for r in rows] == [
            e["qid"] for e in expected if splits[e["figure_id"]] == split
        ]
        for row in rows:
            item = by_qid[row["qid"]]
            assert splits[item["figure_id"]] == split
            for key, value in item.items():
                got = json.loads(row[key]) if key == "answer" else row[key]
                assert got == value, (row["qid"], key)
            png = (built / "figures" / f"{row['figure_id']}.png").read_bytes()
            assert np.array_equal(np.asarray(row["image"].convert("RGB")), _pixels(png))


def test_figures_config_has_every_figure_once_with_its_boxes(
    built: Path, hf_dir: Path, tmp_path: Path, offline: None
) -> None:
    figures = _load(hf_dir, "figures", tmp_path)
    seen: dict[str, str] = {}
    for split in figures:
        for row in figures[split].remove_columns("image"):
            assert row["figure_id"] not in seen, "a figure is in two splits"
            seen[row["figure_id"]] = split
            record = json.loads((built / "figures" / f"{row['figure_id']}.json").read_text())
            assert row["n_panels"] == record["layout"]["n_panels"]
            assert row["arrangement"] == record["layout"]["arrangement"]
            assert json.loads(row["panels"]) == record["panels"]
            assert len(row["elements"]) == len(record["elements"])
            for got, element in zip(row["elements"], record["elements"], strict=True):
                assert got["id"] == element["id"] and got["kind"] == element["kind"]
                assert got["panel"] == element.get("panel")
                assert got["bbox"] == pytest.approx(element["bbox"], abs=0)
                assert got["text"] == element.get("text")
                for key in ("visible", "visible_fraction", "occluded_by", "empty"):
                    assert got[key] == element.get(key), key
    assert sorted(seen) == BuiltDataset.open(built).figure_ids()
    # the qa config puts each figure's questions in that figure's split
    qa = _load(hf_dir, "qa", tmp_path)
    for split in qa:
        assert {seen[fid] for fid in qa[split]["figure_id"]} == {split}


def test_small_shards_split_a_config_and_still_load(
    built: Path, tmp_path: Path, offline: None
) -> None:
    out = tmp_path / "hf"
    export_hf(built, out, HfOptions(SplitFractions(1.0, 0.0, 0.0), max_shard_bytes=1))
    shards = sorted((out / "data" / "qa").glob("train-*.parquet"))
    n_rows = len(read_qa(built))
    assert len(shards) == n_rows  # one row per shard when every row exceeds the bound
    assert shards[0].name == f"train-00000-of-{n_rows:05d}.parquet"
    assert not list(out.rglob("*.partial"))
    assert len(_load(out, "qa", tmp_path / "cache")["train"]) == n_rows


def test_parquet_metadata_carries_the_features(hf_dir: Path) -> None:
    shard = next((hf_dir / "data" / "figures").glob("*.parquet"))
    metadata = json.loads(pq.read_schema(shard).metadata[b"huggingface"])
    features = metadata["info"]["features"]
    assert features["image"]["_type"] == "Image"
    assert features["elements"]["_type"] == "List"


def test_failed_export_leaves_nothing(
    built: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import figgen.export.hf as hf

    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("disk full")

    monkeypatch.setattr(hf, "render_card", broken)
    with pytest.raises(RuntimeError):
        export_hf(built, tmp_path / "hf")
    assert list(tmp_path.iterdir()) == []


def test_existing_output_needs_overwrite(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "hf"
    out.mkdir()
    (out / "keep.txt").write_text("mine")
    with pytest.raises(FiggenError, match="--overwrite"):
        export_hf(built, out)
    assert (out / "keep.txt").read_text() == "mine"
    export_hf(built, out, overwrite=True)
    assert (out / "README.md").is_file() and not (out / "keep.txt").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["hf"]


def test_descriptions_config_holds_every_description_with_its_alt_text(
    built: Path, hf_dir: Path, tmp_path: Path, offline: None
) -> None:
    descriptions = _load(hf_dir, "descriptions", tmp_path)
    lines = (built / "descriptions.jsonl").read_text(encoding="utf-8").splitlines()
    expected = [json.loads(line) for line in lines]
    splits = assign_splits(BuiltDataset.open(built).figure_ids(), SplitFractions.parse(THIRDS))
    for split in descriptions:
        rows = list(descriptions[split])
        mine = [e for e in expected if splits[e["figure_id"]] == split]
        assert [{k: r[k] for k in mine[0]} for r in rows] == mine
        assert all(0 < len(r["alt_text"]) < 150 for r in rows)
        png = (built / "figures" / f"{rows[0]['figure_id']}.png").read_bytes()
        assert np.array_equal(np.asarray(rows[0]["image"].convert("RGB")), _pixels(png))
    assert sum(len(descriptions[s]) for s in descriptions) == len(expected)
    assert "`alt_text`" in (hf_dir / "README.md").read_text(encoding="utf-8")


def test_missing_descriptions_is_a_one_line_error(built: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "data"
    shutil.copytree(built, copy)
    (copy / "descriptions.jsonl").unlink()
    with pytest.raises(FiggenError, match="figgen qa"):
        export_hf(copy, tmp_path / "hf")
    assert not (tmp_path / "hf").exists()


def test_missing_questions_is_a_one_line_error(built: Path, tmp_path: Path) -> None:
    import shutil

    copy = tmp_path / "data"
    shutil.copytree(built, copy)
    (copy / "qa.jsonl").unlink()
    with pytest.raises(FiggenError, match="figgen qa"):
        export_hf(copy, tmp_path / "hf")
    assert not (tmp_path / "hf").exists()


def test_cli_export_hf(built: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from figgen._cli.main import app

    out = tmp_path / "hf"
    result = CliRunner().invoke(
        app, ["export", str(built), "--format", "hf", "--out", str(out), "--splits", THIRDS]
    )
    assert result.exit_code == 0, result.output
    assert "qa: " in result.output
    assert (out / "README.md").is_file()


def test_cli_import_does_not_load_datasets() -> None:
    import subprocess
    import sys

    import figgen

    code = "import sys, figgen._cli.main; print(sorted({'datasets', 'pyarrow'} & set(sys.modules)))"
    root = str(Path(figgen.__file__).resolve().parents[1])
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=60
    )
    assert done.stdout.strip() == "[]", done.stderr


def test_each_png_is_stored_once_per_shard(hf_dir: Path) -> None:
    figures_bytes = sum(p.stat().st_size for p in (hf_dir / "data" / "figures").glob("*.parquet"))
    qa_bytes = 0
    for shard in (hf_dir / "data" / "qa").glob("*.parquet"):
        qa_bytes += shard.stat().st_size
        parquet = pq.ParquetFile(shard)
        groups = [
            set(parquet.read_row_group(i, columns=["figure_id"]).column(0).to_pylist())
            for i in range(parquet.metadata.num_row_groups)
        ]
        for i, ids in enumerate(groups):
            for other in groups[i + 1 :]:
                assert not ids & other, "a figure's questions span two row groups"
    # several questions per figure, yet the qa config is about as large as the figures config
    assert qa_bytes < 1.5 * figures_bytes
