"""Write an output folder all at once: build it beside the target, then rename it in."""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from figgen.errors import FiggenError

logger = logging.getLogger(__name__)


def check_target(out: Path, *, overwrite: bool) -> None:
    """Refuse a non-empty output folder unless asked to replace it."""
    if out.exists() and not out.is_dir():
        raise FiggenError(f"{out} exists and is not a folder; choose another --out")
    if out.is_dir() and any(out.iterdir()) and not overwrite:
        raise FiggenError(
            f"{out} is not empty; pass --overwrite to replace it or choose another --out"
        )


def _prefix(target: Path) -> str:
    # the pid tells a later run whether the process that made the folder is still alive
    return f".{target.name}.{os.getpid()}."


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's live process
        return True
    return True


def _remove_abandoned(target: Path) -> None:
    """Delete the staging folders that killed runs left beside ``target``."""
    for folder in target.parent.glob(f".{target.name}.*"):
        pid = folder.name[len(target.name) + 2 :].split(".", 1)[0]
        if folder.suffix in (".partial", ".old") and pid.isdigit() and not _alive(int(pid)):
            logger.info("removing %s, left by an interrupted run", folder)
            shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def staged_folder(out: str | Path, *, overwrite: bool = False) -> Iterator[Path]:
    """Yield an empty folder that replaces ``out`` only if the block finishes.

    A failure half-way removes the staging folder and leaves ``out`` as it was, so the same
    command can simply be run again.
    """
    target = Path(out)
    check_target(target, overwrite=overwrite)
    target.parent.mkdir(parents=True, exist_ok=True)
    _remove_abandoned(target)
    stage = Path(tempfile.mkdtemp(prefix=_prefix(target), suffix=".partial", dir=target.parent))
    try:
        yield stage
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=_prefix(target), suffix=".old", dir=target.parent))
        os.replace(target, old / "previous")
        os.replace(stage, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(stage, target)
    logger.info("wrote %s", target)
