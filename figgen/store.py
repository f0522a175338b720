"""Atomic file writes: a temporary file beside the target, then a rename."""

from __future__ import annotations

import os
from pathlib import Path

TMP_MARK = ".tmp-"


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` so that ``path`` is either absent, the old file, or complete."""
    path = Path(path)
    tmp = path.with_name(f"{path.name}{TMP_MARK}{os.getpid()}")
    with open(tmp, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def remove_stale_temporaries(folder: str | Path) -> int:
    """Delete temporary files a killed run left behind; returns how many."""
    removed = 0
    for tmp in Path(folder).glob(f"*{TMP_MARK}*"):
        tmp.unlink(missing_ok=True)
        removed += 1
    return removed
