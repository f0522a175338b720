"""Atomic file writes: a temporary file beside the target, then a rename.

Every file figgen writes goes through here, so a killed run leaves either the old file or the
complete new one, never half of one.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

TMP_MARK = ".tmp-"


def _temporary(path: Path) -> Path:
    return path.with_name(f"{path.name}{TMP_MARK}{os.getpid()}")


def atomic_write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` so that ``path`` is either absent, the old file, or complete."""
    path = Path(path)
    tmp = _temporary(path)
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def atomic_write_text(path: str | Path, text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


@contextmanager
def atomic_text(path: str | Path) -> Iterator[TextIO]:
    """A text handle whose content replaces ``path`` only if the block finishes."""
    path = Path(path)
    tmp = _temporary(path)
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as handle:
            yield handle
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def remove_stale_temporaries(folder: str | Path) -> int:
    """Delete temporary files a killed run left behind; returns how many."""
    removed = 0
    for tmp in Path(folder).glob(f"*{TMP_MARK}*"):
        tmp.unlink(missing_ok=True)
        removed += 1
    return removed
