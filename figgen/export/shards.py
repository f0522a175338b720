"""Stream rows of one config and split into parquet shards of bounded size."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq
from datasets import Features, Image

DEFAULT_SHARD_BYTES = 400 * 1024 * 1024
"""The Hub's viewer and streaming work best with shards of a few hundred MB."""

ROWS_PER_GROUP = 100
"""Rows per parquet row group, small because rows carry PNGs; a group runs on to the end of
the current figure's rows so its image is not stored again in the next group."""

MAX_ROWS_PER_GROUP = 2000
"""Hard cap on a row group, whatever the images."""

GROUP_BYTES = 64 * 1024 * 1024
"""A row group is also closed at this size, which bounds the memory an export holds."""


def _image_bytes(row: dict[str, Any]) -> bytes:
    return (row.get("image") or {}).get("bytes") or b""


def _dictionary_schema(schema: pa.Schema, image_columns: list[str]) -> pa.Schema:
    """``schema`` with each image's bytes dictionary-encoded (what the writer is handed)."""
    fields = []
    for field in schema:
        if field.name in image_columns:
            children = [
                child.with_type(pa.dictionary(pa.int32(), child.type))
                if child.name == "bytes"
                else child
                for child in field.type
            ]
            field = field.with_type(pa.struct(children))
        fields.append(field)
    return pa.schema(fields)


def _image_column(rows: list[dict[str, Any]], name: str) -> pa.StructArray:
    """One image column as indices into the distinct images, in row order.

    Consecutive rows share a figure's PNG, so each image is copied (and written) once per row
    group, not once per question, and the parquet writer stores the dictionary as given
    instead of hashing a megabyte per row.
    """
    distinct: list[bytes | None] = []
    indices: list[int] = []
    paths: list[str | None] = []
    for row in rows:
        value = row.get(name) or {}
        data = value.get("bytes")
        if not distinct or (distinct[-1] is not data and distinct[-1] != data):
            distinct.append(data)
        indices.append(len(distinct) - 1)
        paths.append(value.get("path"))
    images = pa.DictionaryArray.from_arrays(
        pa.array(indices, pa.int32()), pa.array(distinct, pa.binary())
    )
    return pa.StructArray.from_arrays([images, pa.array(paths, pa.string())], ["bytes", "path"])


def _row_bytes(row: dict[str, Any], previous: dict[str, Any] | None) -> int:
    """Estimated bytes a row adds to a row group.

    Parquet's dictionary encoding stores an image repeated in consecutive rows of a row group
    once (all questions about one figure share its PNG), so a repeat costs no image bytes.
    """
    image = _image_bytes(row)
    repeat = previous is not None and _image_bytes(previous) == image
    return (0 if repeat else len(image)) + 64 * len(row.get("elements") or ()) + 1024


class ShardWriter:
    """Write ``<split>-NNNNN-of-MMMMM.parquet`` files with the datasets features in their metadata.

    Shards are written under temporary names and renamed when the writer is closed, because
    the total count in each name is known only then.
    """

    def __init__(
        self,
        folder: Path,
        split: str,
        features: Features,
        *,
        max_shard_bytes: int = DEFAULT_SHARD_BYTES,
    ) -> None:
        self.folder = folder
        self.split = split
        self.features = features
        self.schema = features.arrow_schema
        self.image_columns = [name for name, kind in features.items() if isinstance(kind, Image)]
        self._write_schema = _dictionary_schema(self.schema, self.image_columns)
        self.max_shard_bytes = max_shard_bytes
        self.rows = 0
        self._pending: list[dict[str, Any]] = []
        self._pending_bytes = 0
        self._shard_bytes = 0
        self._writer: pq.ParquetWriter | None = None
        self._partials: list[Path] = []

    def add(self, row: dict[str, Any]) -> None:
        previous = self._pending[-1] if self._pending else None
        new_image = previous is None or _image_bytes(previous) != _image_bytes(row)
        full = len(self._pending) >= ROWS_PER_GROUP or self._pending_bytes >= GROUP_BYTES
        # A row group ends where the image changes, so each PNG is stored once per shard.
        if (full and new_image) or len(self._pending) >= MAX_ROWS_PER_GROUP:
            self._flush()
            previous = None
        self._pending_bytes += _row_bytes(row, previous)
        self._pending.append(self.features.encode_example(row))
        self.rows += 1
        if self._shard_bytes + self._pending_bytes >= self.max_shard_bytes:
            self._flush()

    def _flush(self) -> None:
        if not self._pending:
            return
        if self._writer is None:
            self.folder.mkdir(parents=True, exist_ok=True)
            partial = self.folder / f"{self.split}-{len(self._partials):05d}.partial"
            self._partials.append(partial)
            # The file's arrow schema is left out so readers see plain binary images; the
            # datasets features go in as key-value metadata when the shard is closed.
            self._writer = pq.ParquetWriter(partial, self._write_schema, store_schema=False)
        self._writer.write_table(self._table(self._pending))
        self._shard_bytes += self._pending_bytes
        self._pending, self._pending_bytes = [], 0
        if self._shard_bytes >= self.max_shard_bytes:
            self._close_shard()

    def _table(self, rows: list[dict[str, Any]]) -> pa.Table:
        images = {name: _image_column(rows, name) for name in self.image_columns}
        rest = [{k: v for k, v in row.items() if k not in images} for row in rows]
        others = pa.Table.from_pylist(
            rest, schema=pa.schema([f for f in self.schema if f.name not in images])
        )
        columns = [
            images[f.name] if f.name in images else others.column(f.name) for f in self.schema
        ]
        return pa.Table.from_arrays(columns, schema=self._write_schema)

    def _close_shard(self) -> None:
        assert self._writer is not None
        self._writer.add_key_value_metadata(self.schema.metadata or {})
        self._writer.close()
        self._writer, self._shard_bytes = None, 0

    def close(self) -> list[Path]:
        """Finish the last shard and give every shard its final name."""
        self._flush()
        if self._writer is not None:
            self._close_shard()
        total = len(self._partials)
        final = []
        for number, partial in enumerate(self._partials):
            path = self.folder / f"{self.split}-{number:05d}-of-{total:05d}.parquet"
            os.replace(partial, path)
            final.append(path)
        self._partials = []
        return final
