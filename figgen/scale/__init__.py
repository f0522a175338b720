"""Builds beyond one process: fsspec output, Dask executors and parquet-sharded output.

The names below are imported on first use, so :mod:`figgen.scale.workers` can be imported
(and the fork server started) without the drawing code that the shards need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen.lazy import lazy_exports

if TYPE_CHECKING:
    from figgen.scale import shards
    from figgen.scale.executors import (
        DaskCluster,
        Executor,
        InProcess,
        LocalPool,
        Task,
        make_executor,
    )
    from figgen.storage import BuildStore

__getattr__ = lazy_exports(
    __name__,
    {
        "BuildStore": "figgen.storage",
        "DaskCluster": "figgen.scale.executors",
        "Executor": "figgen.scale.executors",
        "InProcess": "figgen.scale.executors",
        "LocalPool": "figgen.scale.executors",
        "Task": "figgen.scale.executors",
        "make_executor": "figgen.scale.executors",
        "shards": "figgen.scale.shards",
    },
)

__all__ = [
    "BuildStore",
    "DaskCluster",
    "Executor",
    "InProcess",
    "LocalPool",
    "Task",
    "make_executor",
    "shards",
]
