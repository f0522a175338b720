from __future__ import annotations

from pathlib import Path

import pytest

from figgen.store.storage import atomic_text, atomic_write_text, remove_stale_temporaries


def test_atomic_write_replaces_and_leaves_no_temporary(tmp_path: Path) -> None:
    target = tmp_path / "words.txt"
    atomic_write_text(target, "old\n")
    atomic_write_text(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert [p.name for p in tmp_path.iterdir()] == ["words.txt"]


def test_a_failed_stream_keeps_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "qa.jsonl"
    target.write_text("kept\n")
    with pytest.raises(RuntimeError), atomic_text(target) as handle:
        handle.write("half")
        raise RuntimeError("killed")
    assert target.read_text() == "kept\n"
    assert [p.name for p in tmp_path.iterdir()] == ["qa.jsonl"]


def test_stale_temporaries_are_removed(tmp_path: Path) -> None:
    (tmp_path / "fig-000001.png.tmp-123").write_bytes(b"x")
    (tmp_path / "fig-000000.png").write_bytes(b"x")
    assert remove_stale_temporaries(tmp_path) == 1
    assert [p.name for p in tmp_path.iterdir()] == ["fig-000000.png"]
