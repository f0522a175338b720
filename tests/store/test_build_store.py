"""BuildStore: atomic writes on local folders, object stores and other remote filesystems."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import fsspec
import pytest

from figgen.build import BuildStore
from figgen.store import storage as storage_module
from figgen.store.storage import TMP_MARK


@pytest.fixture
def memory_store() -> Iterator[BuildStore]:
    url = f"memory://figgen-test-{uuid.uuid4().hex}"
    yield BuildStore.open(url)
    fs = fsspec.filesystem("memory")
    root = url.removeprefix("memory://")
    if fs.exists(root):
        fs.rm(root, recursive=True)


def test_local_paths_become_absolute_and_urls_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    assert BuildStore.open("ds").url == str(tmp_path / "ds")
    assert BuildStore.open(Path("a/b")).url == str(tmp_path / "a" / "b")
    assert BuildStore.open(f"file://{tmp_path}/x").url == f"{tmp_path}/x"
    assert BuildStore.open("s3://bucket/run1").url == "s3://bucket/run1"
    assert BuildStore.open("ds").is_local
    assert not BuildStore.open("memory://x").is_local


def test_local_write_read_and_listing(tmp_path: Path) -> None:
    store = BuildStore.open(tmp_path / "ds")
    assert store.is_empty()
    store.makedirs("figures")
    store.write_bytes("figures/a.png", b"\x89PNG")
    store.write_text("figures/a.json", '{"id": "a"}')
    assert (tmp_path / "ds" / "figures" / "a.png").read_bytes() == b"\x89PNG"
    assert store.read_text("figures/a.json") == '{"id": "a"}'
    assert store.names("figures") == {"a.png", "a.json"}
    assert store.names("missing") == set()
    assert not store.is_empty()
    assert store.is_file("figures/a.png") and not store.is_file("figures")


def test_local_atomic_file_publishes_only_on_success(tmp_path: Path) -> None:
    store = BuildStore.open(tmp_path)
    with pytest.raises(RuntimeError), store.atomic_file("shard.parquet") as handle:
        handle.write(b"half a shard")
        raise RuntimeError("killed")
    assert os.listdir(tmp_path) == []
    with store.atomic_file("shard.parquet") as handle:
        handle.write(b"whole")
    assert os.listdir(tmp_path) == ["shard.parquet"]
    assert (tmp_path / "shard.parquet").read_bytes() == b"whole"


def test_stale_temporaries_are_removed_and_counted(tmp_path: Path) -> None:
    (tmp_path / f"fig-000001.png{TMP_MARK}123").write_bytes(b"x")
    (tmp_path / f"shard-00000000-00000001.parquet{TMP_MARK}9-ab").write_bytes(b"x")
    (tmp_path / "fig-000000.png").write_bytes(b"kept")
    assert BuildStore.open(tmp_path).remove_stale_temporaries("") == 2
    assert os.listdir(tmp_path) == ["fig-000000.png"]


def test_object_store_writes_are_single_puts(memory_store: BuildStore) -> None:
    assert memory_store.is_object_store and memory_store.is_empty()
    memory_store.makedirs("figures")
    memory_store.write_text("figures/a.json", "{}")
    with memory_store.atomic_file("figures/s.parquet") as handle:
        handle.write(b"rows")
    with pytest.raises(RuntimeError), memory_store.atomic_file("figures/t.parquet") as handle:
        handle.write(b"half")
        raise RuntimeError("killed")
    assert memory_store.names("figures") == {"a.json", "s.parquet"}
    assert memory_store.read_bytes("figures/s.parquet") == b"rows"
    assert memory_store.remove_stale_temporaries("figures") == 0


def test_other_remote_filesystems_write_a_temporary_then_move(
    memory_store: BuildStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage_module, "OBJECT_STORES", frozenset())
    assert not memory_store.is_object_store
    moves: list[tuple[str, str]] = []
    fs = memory_store.fs
    original_mv = fs.mv

    def recording_mv(source: str, target: str) -> None:
        moves.append((source, target))
        original_mv(source, target)

    monkeypatch.setattr(fs, "mv", recording_mv)
    memory_store.write_bytes("a.png", b"png")
    with memory_store.atomic_file("s.parquet") as handle:
        handle.write(b"rows")
    assert [Path(target).name for _, target in moves] == ["a.png", "s.parquet"]
    assert all(TMP_MARK in source for source, _ in moves)
    assert memory_store.names("") == {"a.png", "s.parquet"}
    assert memory_store.read_bytes("s.parquet") == b"rows"
    fs.pipe_file(memory_store.path(f"b.png{TMP_MARK}dead"), b"x")
    assert memory_store.remove_stale_temporaries("") == 1
    assert memory_store.names("") == {"a.png", "s.parquet"}
