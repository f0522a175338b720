"""A Dask cluster of two worker processes builds the same bytes as the local process pool."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from figgen.build.dataset import build_dataset
from figgen.config.load import FigureConfig
from tests.build.conftest import SEED, N, tree_bytes

pytestmark = [pytest.mark.slow, pytest.mark.e2e]


@pytest.fixture(scope="module")
def scheduler() -> Iterator[str]:
    from distributed import LocalCluster

    # Two threads per worker: figures must still be drawn one at a time per process.
    with LocalCluster(
        n_workers=2, threads_per_worker=2, processes=True, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


def test_dask_files_build_equals_the_local_pool(
    scheduler: str, small_reference: Path, small_config: FigureConfig, tmp_path: Path
) -> None:
    pooled = build_dataset(
        tmp_path / "pool", n=N, seed=SEED, workers=2, config=small_config, progress=False
    )
    on_dask = build_dataset(
        tmp_path / "dask", n=N, seed=SEED, config=small_config, progress=False, scheduler=scheduler
    )
    assert on_dask.generated == N
    assert tree_bytes(tmp_path / "dask") == tree_bytes(tmp_path / "pool")
    assert tree_bytes(tmp_path / "dask") == tree_bytes(small_reference)
    assert pooled.manifest == on_dask.manifest


def test_dask_parquet_build_equals_the_local_pool(
    scheduler: str, small_config: FigureConfig, tmp_path: Path
) -> None:
    options = {"n": N, "seed": SEED, "config": small_config, "progress": False}
    build_dataset(tmp_path / "pool", workers=2, format="parquet", shard_size=2, **options)  # type: ignore[arg-type]
    build_dataset(
        tmp_path / "dask",
        scheduler=scheduler,
        format="parquet",
        shard_size=2,
        **options,  # type: ignore[arg-type]
    )
    built = tree_bytes(tmp_path / "dask")
    assert sorted(built) == [
        "figures/shard-00000000-00000001.parquet",
        "figures/shard-00000002-00000002.parquet",
        "manifest.json",
    ]
    assert built == tree_bytes(tmp_path / "pool")
