"""One writer per output folder: an advisory lock file that names who holds it.

The lock is an ``flock`` on ``DIR/.figgen.lock``, so the kernel releases it when its holder
dies, even by SIGKILL: a killed build never blocks the next one, while a live one refuses a
second writer with a message naming the first. The file is removed when the holder finishes.
"""

from __future__ import annotations

import fcntl
import os
import socket
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from figgen.errors import BuildDirError

LOCK_NAME = ".figgen.lock"


def _holder_text() -> str:
    command = " ".join(["figgen", *sys.argv[1:]]) if sys.argv else "figgen"
    started = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    return f"pid {os.getpid()} on {socket.gethostname()}, `{command}`, since {started}"


def _acquire(path: Path) -> int:
    """An open descriptor of ``path`` holding its exclusive lock."""
    while True:
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(descriptor, 4096).decode("utf-8", "replace").strip()
            os.close(descriptor)
            raise BuildDirError(
                f"{path.parent} is being written by another figgen run "
                f"({holder or 'holder unknown'}); wait for it to finish or choose another --out"
            ) from None
        except BaseException:
            os.close(descriptor)
            raise
        # The previous holder may have removed the file between our open and our lock: then
        # we hold a lock on a file nobody else can see, so start again on the current one.
        try:
            same = os.stat(path).st_ino == os.fstat(descriptor).st_ino
        except FileNotFoundError:
            same = False
        if same:
            return descriptor
        os.close(descriptor)


_held: set[Path] = set()
"""Folders this process holds, so a nested claim (the build writing its questions) passes."""


@contextmanager
def folder_lock(folder: str | Path) -> Iterator[None]:
    """Hold ``folder``'s lock for the block (creating the folder); refuse if another has it."""
    folder = Path(folder).resolve()
    if folder in _held:
        yield
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
        descriptor = _acquire(folder / LOCK_NAME)
    except OSError as exc:
        raise BuildDirError(
            f"cannot write to {folder}: {exc.strerror or exc}; make it writable or write elsewhere"
        ) from None
    _held.add(folder)
    try:
        os.ftruncate(descriptor, 0)
        os.write(descriptor, (_holder_text() + "\n").encode())
        yield
    finally:
        _held.discard(folder)
        # unlink while still holding the lock, so a waiting writer never sees a stale file
        (folder / LOCK_NAME).unlink(missing_ok=True)
        os.close(descriptor)
