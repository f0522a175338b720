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


@contextmanager
def staged_folder(out: str | Path, *, overwrite: bool = False) -> Iterator[Path]:
    """Yield an empty folder that replaces ``out`` only if the block finishes.

    A failure half-way removes the staging folder and leaves ``out`` as it was, so the same
    command can simply be run again.
    """
    target = Path(out)
    check_target(target, overwrite=overwrite)
    target.parent.mkdir(parents=True, exist_ok=True)
    stage = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".partial", dir=target.parent))
    try:
        yield stage
    except BaseException:
        shutil.rmtree(stage, ignore_errors=True)
        raise
    if target.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
        os.replace(target, old / "previous")
        os.replace(stage, target)
        shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(stage, target)
    logger.info("wrote %s", target)
