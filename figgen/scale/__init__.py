"""Builds beyond one process: fsspec output, Dask executors and parquet-sharded output.

The names below are imported on first use, so :mod:`figgen.scale.workers` can be imported
(and the fork server started) without the drawing code that the shards need.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

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

_EXPORTS = {
    "BuildStore": "figgen.storage",
    "DaskCluster": "figgen.scale.executors",
    "Executor": "figgen.scale.executors",
    "InProcess": "figgen.scale.executors",
    "LocalPool": "figgen.scale.executors",
    "Task": "figgen.scale.executors",
    "make_executor": "figgen.scale.executors",
}


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    if name == "shards":
        return importlib.import_module("figgen.scale.shards")
    raise AttributeError(f"module 'figgen.scale' has no attribute {name!r}")


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
