"""Builds beyond one process: fsspec output, Dask executors and parquet-sharded output."""

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
