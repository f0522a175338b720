"""Executors: every task runs once, results stream back, Dask problems are one-line errors."""

from __future__ import annotations

import os
import sys
from functools import partial

import pytest

from figgen.errors import FiggenError
from figgen.scale import DaskCluster, InProcess, LocalPool, make_executor
from figgen.scale import executors as executors_module


def test_in_process_runs_tasks_in_order() -> None:
    with InProcess() as executor:
        assert list(executor.run([partial(pow, i, 2) for i in range(5)])) == [0, 1, 4, 9, 16]


def test_local_pool_returns_every_result_through_a_bounded_window(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(executors_module, "IN_FLIGHT_PER_WORKER", 2)
    with LocalPool(2) as pool:
        assert pool.window == 4
        results = list(pool.run([partial(pow, i, 3) for i in range(13)]))
    assert sorted(results) == [i**3 for i in range(13)]


def test_one_worker_or_one_task_starts_no_pool() -> None:
    assert isinstance(make_executor(1), InProcess)
    with make_executor(4) as pool:
        assert isinstance(pool, LocalPool)
        assert list(pool.run([partial(os.getpid)])) == [os.getpid()]
        assert pool._pool is None
        pids = set(pool.run([partial(os.getpid) for _ in range(6)]))
    assert os.getpid() not in pids and 1 <= len(pids) <= 4


def test_missing_dask_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(FiggenError, match=r"pip install 'figgen\[dask\]'"):
        DaskCluster("tcp://127.0.0.1:8786")


def test_unreachable_scheduler_is_one_line() -> None:
    with pytest.raises(FiggenError, match="cannot reach the Dask scheduler") as error:
        DaskCluster("tcp://127.0.0.1:9", connect_timeout=1)
    assert "\n" not in str(error.value)


def test_scheduler_without_workers_is_refused() -> None:
    from distributed import LocalCluster

    with (
        LocalCluster(n_workers=0, processes=False, dashboard_address=":0") as cluster,
        pytest.raises(FiggenError, match="has no workers"),
    ):
        DaskCluster(cluster.scheduler_address)


def test_workers_with_another_figgen_version_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import LocalCluster

    with LocalCluster(n_workers=1, processes=False, dashboard_address=":0") as cluster:
        monkeypatch.setattr(executors_module, "_worker_figgen_version", lambda: "9.9.9")
        with pytest.raises(FiggenError, match="another figgen version"):
            DaskCluster(cluster.scheduler_address)
