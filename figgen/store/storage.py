"""Where figgen writes: atomic files, a build's output folder, and staged output folders.

Every file figgen writes goes through here, so a killed run leaves either the old file or the
complete new one, never half of one:

- :func:`atomic_write_bytes`, :func:`atomic_text`: one local file, through a temporary file
  beside the target and a rename.
- :class:`BuildStore`: a build's output folder through fsspec (a local path, a shared mount or
  an object store). On the local filesystem it writes as above; on object stores one put is
  atomic by itself; on other remote filesystems a temporary name is moved into place.
- :func:`staged_folder`: a whole output folder (an export), built beside the target and
  renamed in.
"""

from __future__ import annotations

import logging
import os
import shutil
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, TextIO

from figgen.errors import FiggenError

logger = logging.getLogger(__name__)

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


OBJECT_STORES = frozenset({"s3", "s3a", "gs", "gcs", "az", "abfs", "abfss", "adl", "oci", "memory"})
"""Protocols whose single put is atomic: an object appears whole or not at all."""


def _protocol(fs: Any) -> str:
    protocol = fs.protocol
    return protocol if isinstance(protocol, str) else protocol[0]


@dataclass(frozen=True)
class BuildStore:
    """The output folder of one build, addressed by a local path or an fsspec URL.

    Only ``url`` is pickled, so a store sent to a Dask worker opens its own filesystem
    there. Relative paths inside the store use ``/``.
    """

    url: str

    @classmethod
    def open(cls, out: str | Path) -> BuildStore:
        """A store for ``out``; local paths are made absolute so remote workers agree on them."""
        text = os.fspath(out)
        if text.startswith("file://"):
            text = text.removeprefix("file://")
        if "://" not in text:
            text = os.path.abspath(text)
        return cls(text)

    @property
    def fs(self) -> Any:
        import fsspec

        return fsspec.core.url_to_fs(self.url)[0]

    @property
    def root(self) -> str:
        import fsspec

        return str(fsspec.core.url_to_fs(self.url)[1]).rstrip("/")

    @property
    def is_local(self) -> bool:
        return "://" not in self.url

    @property
    def is_object_store(self) -> bool:
        return _protocol(self.fs) in OBJECT_STORES

    def local_path(self, rel: str = "") -> Path:
        """The local path of ``rel``; only for local stores."""
        if not self.is_local:
            raise ValueError(f"{self.url} is not a local folder")
        return Path(self.url, rel) if rel else Path(self.url)

    def path(self, rel: str) -> str:
        """The filesystem path of ``rel`` (as the fsspec filesystem names it)."""
        return f"{self.root}/{rel}" if rel else self.root

    def exists(self, rel: str = "") -> bool:
        return bool(self.fs.exists(self.path(rel)))

    def is_file(self, rel: str = "") -> bool:
        return bool(self.fs.isfile(self.path(rel)))

    def is_empty(self) -> bool:
        """True when the folder is absent or holds nothing."""
        return not self.exists() or not self.fs.ls(self.root, detail=False)

    def read_bytes(self, rel: str) -> bytes:
        return bytes(self.fs.cat_file(self.path(rel)))

    def read_text(self, rel: str) -> str:
        return self.read_bytes(rel).decode("utf-8")

    def names(self, rel: str) -> set[str]:
        """Names of the entries in folder ``rel`` (empty when it does not exist)."""
        try:
            entries = self.fs.ls(self.path(rel), detail=False)
        except FileNotFoundError:
            return set()
        return {str(entry).rstrip("/").rsplit("/", 1)[-1] for entry in entries}

    def makedirs(self, rel: str) -> None:
        if self.is_local:
            self.local_path(rel).mkdir(parents=True, exist_ok=True)
        elif not self.is_object_store:
            self.fs.makedirs(self.path(rel), exist_ok=True)

    def remove(self, rel: str) -> None:
        self.fs.rm_file(self.path(rel))

    def write_bytes(self, rel: str, data: bytes) -> None:
        """Write ``data`` so that ``rel`` is either absent, the old file, or complete."""
        if self.is_local:
            atomic_write_bytes(self.local_path(rel), data)
        elif self.is_object_store:
            self.fs.pipe_file(self.path(rel), data)
        else:
            temporary = self._temporary_name(rel)
            self.fs.pipe_file(temporary, data)
            self.fs.mv(temporary, self.path(rel))

    def write_text(self, rel: str, text: str) -> None:
        self.write_bytes(rel, text.encode("utf-8"))

    @contextmanager
    def atomic_file(self, rel: str) -> Iterator[IO[bytes]]:
        """A binary file to write ``rel`` into; it is published only if the block succeeds.

        The file is always local (beside the target, or in the system temp folder for remote
        stores), so writers that seek or write in pieces work on every backend.
        """
        if self.is_local:
            target = self.local_path(rel)
            token = f"{os.getpid()}-{uuid.uuid4().hex[:8]}"
            staging = target.with_name(f"{target.name}{TMP_MARK}{token}")
        else:
            descriptor, name = tempfile.mkstemp(suffix=f"-{rel.rsplit('/', 1)[-1]}")
            os.close(descriptor)
            staging = Path(name)
        try:
            with open(staging, "wb") as handle:
                yield handle
                handle.flush()
                os.fsync(handle.fileno())
            if self.is_local:
                os.replace(staging, target)
            elif self.is_object_store:
                self.fs.put_file(str(staging), self.path(rel))
            else:
                temporary = self._temporary_name(rel)
                self.fs.put_file(str(staging), temporary)
                self.fs.mv(temporary, self.path(rel))
        finally:
            staging.unlink(missing_ok=True)

    def remove_stale_temporaries(self, rel: str) -> int:
        """Delete temporary files a killed run left in folder ``rel``; returns how many."""
        if self.is_local:
            return remove_stale_temporaries(self.local_path(rel))
        if self.is_object_store:
            return 0  # puts leave no temporaries behind
        stale = [name for name in self.names(rel) if TMP_MARK in name]
        for name in stale:
            self.remove(f"{rel}/{name}" if rel else name)
        return len(stale)

    def _temporary_name(self, rel: str) -> str:
        return f"{self.path(rel)}{TMP_MARK}{uuid.uuid4().hex[:12]}"

    def __str__(self) -> str:
        return self.url


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
