"""Parquet-sharded builds: the export's schema, rows that match the records, resume by shard."""

from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

import fsspec
import pyarrow.parquet as pq
import pytest

from figgen.build.dataset import build_dataset
from figgen.config.load import FigureConfig
from figgen.errors import BuildDirError, BuildInterrupted
from figgen.store.storage import TMP_MARK
from tests.build.conftest import SEED, N, tree_bytes

SHARDS = ["shard-00000000-00000001.parquet", "shard-00000002-00000002.parquet"]


def _build(out: Path | str, config: FigureConfig, **options: object) -> object:
    options = {"workers": 1, "shard_size": 2, "format": "parquet", **options}
    return build_dataset(out, n=N, seed=SEED, config=config, progress=False, **options)  # type: ignore[arg-type]


def test_shards_hold_every_figure_as_the_records_say(
    tiny_parquet: Path, tiny_reference: Path
) -> None:
    assert sorted(p.name for p in (tiny_parquet / "figures").iterdir()) == SHARDS
    table = pq.read_table(tiny_parquet / "figures")
    assert table.num_rows == N
    for row in table.to_pylist():
        name = row["figure_id"]
        record = json.loads((tiny_reference / "figures" / f"{name}.json").read_text())
        png = (tiny_reference / "figures" / f"{name}.png").read_bytes()
        assert row["image"]["bytes"] == png
        assert (row["seed"], row["index"]) == (SEED, record["index"])
        assert (row["width"], row["height"], row["dpi"]) == (
            record["image"]["width"],
            record["image"]["height"],
            record["image"]["dpi"],
        )
        assert row["n_panels"] == len(record["panels"]) == record["layout"]["n_panels"]
        assert row["plot_kinds"] == [panel["kind"] for panel in record["panels"]]
        assert json.loads(row["panels"]) == record["panels"]
        assert [(e["id"], e["kind"], e["bbox"]) for e in row["elements"]] == [
            (e["id"], e["kind"], e["bbox"]) for e in record["elements"]
        ]
        assert [e["text"] for e in row["elements"]] == [e.get("text") for e in record["elements"]]


def test_shards_load_with_datasets_as_the_export_features(tiny_parquet: Path) -> None:
    import datasets

    from figgen.export.schema import FIGURE_FEATURES

    files = sorted(str(p) for p in (tiny_parquet / "figures").glob("*.parquet"))
    loaded = datasets.load_dataset("parquet", data_files=files, split="train")
    assert loaded.features == FIGURE_FEATURES
    assert loaded["figure_id"] == ["fig-000000", "fig-000001", "fig-000002"]
    image = loaded[2]["image"]
    assert image.size == (loaded[2]["width"], loaded[2]["height"])


def test_manifest_counts_equal_those_of_the_files_build(
    tiny_parquet: Path, tiny_reference: Path
) -> None:
    sharded = json.loads((tiny_parquet / "manifest.json").read_text())
    files = json.loads((tiny_reference / "manifest.json").read_text())
    assert sharded["counts"] == files["counts"]
    assert (sharded["format"], sharded["shard_size"], sharded["status"]) == (
        "parquet",
        2,
        "complete",
    )
    assert sharded["command"].endswith("--format parquet --shard-size 2")


def test_interrupted_build_resumes_the_missing_shard_only(
    tiny_parquet: Path, tiny_config: FigureConfig, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import figgen.build.figure

    real = figgen.build.figure.generate_figure

    def dies_at_figure_2(config: FigureConfig, seed: int, index: int) -> object:
        if index == 2:
            raise KeyboardInterrupt  # as if the process were stopped mid-shard
        return real(config, seed, index)

    out = tmp_path / "ds"
    monkeypatch.setattr(figgen.build.figure, "generate_figure", dies_at_figure_2)
    # Ctrl-C becomes one line naming the finished figures (the first shard's two)
    with pytest.raises(BuildInterrupted, match="^interrupted: 2 figures kept; run the same"):
        _build(out, tiny_config)
    assert sorted(p.name for p in (out / "figures").iterdir()) == SHARDS[:1]
    first = (out / "figures" / SHARDS[0]).stat()
    # A killed process leaves its temporary shard behind; the rerun must not trust it.
    (out / "figures" / f"{SHARDS[1]}{TMP_MARK}4242-dead").write_bytes(b"PAR1 partial")
    monkeypatch.setattr(figgen.build.figure, "generate_figure", real)

    summary = _build(out, tiny_config)
    assert (summary.generated, summary.skipped) == (1, 2)  # type: ignore[attr-defined]
    assert (out / "figures" / SHARDS[0]).stat().st_mtime_ns == first.st_mtime_ns
    assert tree_bytes(out) == tree_bytes(tiny_parquet)


def test_a_deleted_shard_is_rebuilt_with_the_same_bytes(
    tiny_parquet: Path, tiny_config: FigureConfig, tmp_path: Path
) -> None:
    out = tmp_path / "ds"
    shutil.copytree(tiny_parquet, out)
    kept = (out / "figures" / SHARDS[1]).stat().st_mtime_ns
    (out / "figures" / SHARDS[0]).unlink()
    summary = _build(out, tiny_config)
    assert summary.generated == 2  # type: ignore[attr-defined]
    assert (out / "figures" / SHARDS[1]).stat().st_mtime_ns == kept
    assert tree_bytes(out) == tree_bytes(tiny_parquet)


def test_a_larger_n_replaces_the_short_last_shard(
    tiny_parquet: Path, tiny_config: FigureConfig, tmp_path: Path
) -> None:
    out = tmp_path / "ds"
    shutil.copytree(tiny_parquet, out)
    summary = build_dataset(
        out,
        n=4,
        seed=SEED,
        workers=1,
        config=tiny_config,
        progress=False,
        format="parquet",
        shard_size=2,
    )
    assert summary.generated == 2
    names = sorted(p.name for p in (out / "figures").iterdir())
    assert names == [SHARDS[0], "shard-00000002-00000003.parquet"]
    assert (out / "figures" / SHARDS[0]).read_bytes() == (
        tiny_parquet / "figures" / SHARDS[0]
    ).read_bytes()
    assert pq.read_table(out / "figures").column("index").to_pylist() == [0, 1, 2, 3]
    assert json.loads((out / "manifest.json").read_text())["counts"]["figures"] == 4


def test_object_store_output_equals_local_output(
    tiny_parquet: Path, tiny_reference: Path, tiny_config: FigureConfig
) -> None:
    fs = fsspec.filesystem("memory")
    for reference, layout in ((tiny_parquet, "parquet"), (tiny_reference, "files")):
        root = f"/figgen-{uuid.uuid4().hex}"
        try:
            _build(f"memory://{root}", tiny_config, format=layout, questions=False)
            stored = {path.removeprefix(root + "/"): fs.cat_file(path) for path in fs.find(root)}
        finally:
            fs.rm(root, recursive=True)
        local = tree_bytes(reference)
        assert set(stored) == {name for name in local if name.startswith("figures/")} | {
            "manifest.json"
        }
        for name in stored:
            if name != "manifest.json":
                assert stored[name] == local[name], name
        local_manifest = json.loads(local["manifest.json"])
        local_manifest.pop("qa", None)  # questions are written for local builds only
        assert json.loads(stored["manifest.json"]) == local_manifest


def test_a_files_build_does_not_resume_as_parquet(
    tiny_reference: Path, tiny_config: FigureConfig, tmp_path: Path
) -> None:
    out = tmp_path / "ds"
    shutil.copytree(tiny_reference, out)
    with pytest.raises(BuildDirError, match="format files"):
        _build(out, tiny_config)
