"""A build's output folder through fsspec: a local path, a shared mount or an object store.

Writes are atomic everywhere: on the local filesystem a temporary file beside the target is
renamed over it (as :mod:`figgen.store` does); on object stores one put is atomic by itself;
on other remote filesystems a temporary name is moved into place.
"""

from __future__ import annotations

import os
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

from figgen.store import TMP_MARK, atomic_write_bytes, remove_stale_temporaries

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
