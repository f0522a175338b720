"""Making figures: one (:mod:`.figure`), a dataset of many (:mod:`.dataset`), in one process,
a local pool or on a Dask cluster (:mod:`.executors`), as loose files or parquet shards
(:mod:`.shards`).

The names below are imported on first use, so :mod:`figgen.build.workers` can be imported
(and the fork server started) without the drawing code.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen._util.lazy import lazy_exports

if TYPE_CHECKING:
    from figgen.build import shards
    from figgen.build.dataset import BuildSummary, build_dataset
    from figgen.build.executors import (
        DaskCluster,
        Executor,
        InProcess,
        LocalPool,
        Task,
        make_executor,
    )
    from figgen.build.figure import GeneratedFigure, generate_figure, render_to_record
    from figgen.store.storage import BuildStore

__getattr__ = lazy_exports(
    __name__,
    {
        "BuildStore": "figgen.store.storage",
        "BuildSummary": "figgen.build.dataset",
        "DaskCluster": "figgen.build.executors",
        "Executor": "figgen.build.executors",
        "GeneratedFigure": "figgen.build.figure",
        "InProcess": "figgen.build.executors",
        "LocalPool": "figgen.build.executors",
        "Task": "figgen.build.executors",
        "build_dataset": "figgen.build.dataset",
        "generate_figure": "figgen.build.figure",
        "make_executor": "figgen.build.executors",
        "render_to_record": "figgen.build.figure",
        "shards": "figgen.build.shards",
    },
)

__all__ = [
    "BuildStore",
    "BuildSummary",
    "DaskCluster",
    "Executor",
    "GeneratedFigure",
    "InProcess",
    "LocalPool",
    "Task",
    "build_dataset",
    "generate_figure",
    "make_executor",
    "render_to_record",
    "shards",
]
