"""Parquet-sharded builds: records and images straight into shards of the record table.

Shard ``k`` holds figures ``k*size .. (k+1)*size - 1`` (fewer in the last one), in
``figures/shard-<first>-<last>.parquet``, with the rows of the record table
(:mod:`figgen.schema.figure_row`, the HF export's ``figures`` config).
A shard is written to a temporary file and published in one step, so a shard file that
exists is complete: a rerun builds exactly the missing shards. Each shard's parquet metadata
also keeps what the schema has no column for (the record without panels and elements, e.g.
``repair`` and ``generator``), so the manifest can be written from the shards alone.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import partial
from typing import Any

from figgen.build.executors import Task
from figgen.config.load import FigureConfig
from figgen.errors import FiggenError
from figgen.schema.record import Record
from figgen.store.storage import BuildStore

log = logging.getLogger(__name__)

FOLDER = "figures"
DEFAULT_SHARD_SIZE = 100
RECORDS_KEY = b"figgen.records"
"""Parquet key-value metadata: JSON list of the shard's records without panels and elements."""

ROWS_PER_GROUP = 100
GROUP_PNG_BYTES = 32 * 1024 * 1024
"""A row group is closed at this many image bytes: bounds the memory a worker holds."""

_SHARD_NAME = re.compile(r"shard-(\d{8})-(\d{8})\.parquet")


@dataclass(frozen=True)
class Shard:
    """Figures ``first .. stop - 1`` of a build, stored as one parquet file."""

    first: int
    stop: int

    @property
    def name(self) -> str:
        return f"shard-{self.first:08d}-{self.stop - 1:08d}.parquet"

    @property
    def rel(self) -> str:
        return f"{FOLDER}/{self.name}"

    @property
    def indices(self) -> range:
        return range(self.first, self.stop)


def plan_shards(n: int, size: int) -> list[Shard]:
    """The shards of an ``n``-figure build with ``size`` figures per shard."""
    return [Shard(first, min(first + size, n)) for first in range(0, n, size)]


def shard_tasks(
    store: BuildStore, n: int, size: int, seed: int, config: FigureConfig
) -> tuple[list[Task[int]], int]:
    """Tasks writing the shards not yet in ``store``, and how many figures they hold."""
    present = store.names(FOLDER)
    missing = [shard for shard in plan_shards(n, size) if shard.name not in present]
    tasks: list[Task[int]] = [partial(write_shard, store, shard, seed, config) for shard in missing]
    return tasks, sum(len(shard.indices) for shard in missing)


def built_records(store: BuildStore, n: int, size: int) -> Iterator[Record]:
    """The records of a finished build, read shard by shard; stray shards are removed first.

    A stray shard is one of a build resumed with another ``n``: its figures are also in the
    shards of this build.
    """
    plan = plan_shards(n, size)
    expected = {shard.name for shard in plan}
    for name in sorted(store.names(FOLDER)):
        if _SHARD_NAME.fullmatch(name) and name not in expected:
            log.info("removing %s, a shard of the same build with another --n", name)
            store.remove(f"{FOLDER}/{name}")
    for shard in plan:
        yield from shard_records(store, shard)


def _record_head(record: Record) -> dict[str, Any]:
    stored = record.to_dict()
    del stored["panels"], stored["elements"]
    return stored


def write_shard(store: BuildStore, shard: Shard, seed: int, config: FigureConfig) -> int:
    """Generate the shard's figures and publish them as one parquet file; returns its size."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from figgen.build.figure import generate_figure
    from figgen.schema.figure_row import FIGURE_FEATURES, figure_row

    schema = FIGURE_FEATURES.arrow_schema
    heads: list[dict[str, Any]] = []
    rows: list[dict[str, Any]] = []
    png_bytes = 0
    with store.atomic_file(shard.rel) as handle, pq.ParquetWriter(handle, schema) as writer:
        for index in shard.indices:
            figure = generate_figure(config, seed, index)
            rows.append(FIGURE_FEATURES.encode_example(figure_row(figure.record, figure.png)))
            heads.append(_record_head(figure.record))
            png_bytes += len(figure.png)
            if len(rows) >= ROWS_PER_GROUP or png_bytes >= GROUP_PNG_BYTES:
                writer.write_table(pa.Table.from_pylist(rows, schema=schema))
                rows, png_bytes = [], 0
        if rows:
            writer.write_table(pa.Table.from_pylist(rows, schema=schema))
        writer.add_key_value_metadata({RECORDS_KEY: json.dumps(heads, sort_keys=True)})
    return len(shard.indices)


def shard_records(store: BuildStore, shard: Shard) -> Iterator[Record]:
    """The shard's records with their panels, without elements (enough for the manifest)."""
    import pyarrow.parquet as pq

    with store.fs.open(store.path(shard.rel), "rb") as handle:
        parquet = pq.ParquetFile(handle)
        heads = iter(json.loads(parquet.metadata.metadata[RECORDS_KEY]))
        for batch in parquet.iter_batches(columns=["figure_id", "panels"], batch_size=64):
            for figure_id, panels in zip(
                batch.column("figure_id").to_pylist(),
                batch.column("panels").to_pylist(),
                strict=True,
            ):
                record = Record.from_dict({**next(heads), "panels": json.loads(panels)})
                if record.id != figure_id:
                    raise FiggenError(
                        f"{store.path(shard.rel)} is inconsistent at {figure_id}; "
                        "delete that shard and rerun the build"
                    )
                yield record
