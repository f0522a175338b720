"""Executors: every task runs once, results stream back, Dask problems are one-line errors."""

from __future__ import annotations

import os
import sys
import threading
from functools import partial

import pytest

from figgen.build import DaskCluster, InProcess, LocalPool, make_executor
from figgen.build import executors as executors_module
from figgen.build import workers as workers_module
from figgen.errors import FiggenError


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


def test_workers_with_other_figgen_code_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    from distributed import LocalCluster

    mine = executors_module._worker_figgen_code()
    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        with DaskCluster(cluster.scheduler_address) as same:
            assert same.workers == 1

        # A worker (a thread of this process here) whose sources differ from the client's.
        def other_code_in_workers() -> tuple[str, str]:
            in_client = threading.current_thread() is threading.main_thread()
            return mine if in_client else (mine[0], "0" * 64)

        monkeypatch.setattr(executors_module, "_worker_figgen_code", other_code_in_workers)
        with pytest.raises(FiggenError, match="other figgen code"):
            DaskCluster(cluster.scheduler_address)


def test_code_digest_covers_the_sources() -> None:
    import hashlib
    from pathlib import Path

    import figgen

    version, digest = executors_module._worker_figgen_code()
    assert version == figgen.__version__
    package = Path(figgen.__file__).parent
    files = sorted(
        p
        for p in package.rglob("*")
        if p.suffix in {".py", ".txt", ".toml", ".jinja", ".json", ".md"}
        and "__pycache__" not in p.parts
    )
    assert package / "build" / "figure.py" in files
    expected = hashlib.sha256()
    for path in files:
        expected.update(path.relative_to(package).as_posix().encode() + b"\0" + path.read_bytes())
    assert digest == expected.hexdigest()


def _worker_start() -> tuple[int, bool]:
    return os.getppid(), "figgen.build.figure" in sys.modules


def test_local_workers_fork_from_a_server_that_imported_figgen_and_all_end() -> None:
    if workers_module.worker_context().get_start_method() != "forkserver":
        pytest.skip("no fork server on this platform: workers are spawned")
    with LocalPool(2) as pool:
        started = list(pool.run([partial(_worker_start) for _ in range(4)]))
        server = workers_module.forkserver_pid()
    assert server is not None
    assert started == [(server, True)] * 4  # forked from it, with the drawing code imported
    assert workers_module.forkserver_pid() is None
    with pytest.raises(ProcessLookupError):
        os.kill(server, 0)  # ended and reaped, not left behind


@pytest.mark.parametrize(
    ("argv", "cores", "early"),
    [
        (["build", "--n", "16", "--workers", "2"], 1, True),
        (["build", "--n=16", "--workers=3", "--out", "ds"], 1, True),
        (["build", "--n", "16"], 2, True),  # all cores by default
        (["build", "--n", "16"], 1, False),
        (["build", "--n", "16", "--workers", "1"], 2, False),
        (["build", "--n", "1", "--workers", "2"], 2, False),  # one figure runs in-process
        (["build", "--n", "16", "--scheduler", "tcp://127.0.0.1:8786"], 2, False),
        (["build", "--n", "16", "--help"], 2, False),
        (["qa", "ds"], 2, False),
        ([], 2, False),
    ],
)
def test_the_fork_server_starts_early_only_for_local_builds_with_workers(
    argv: list[str], cores: int, early: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "cpu_count", lambda: cores)
    assert workers_module._local_multiworker_build(argv) is early


def _fresh_process_state() -> None:
    assert workers_module.forkserver_pid() is None, "a fork server from an earlier test runs"


def test_a_pool_takes_over_the_early_server_and_ends_it_with_the_tracker() -> None:
    if workers_module.worker_context().get_start_method() != "forkserver":
        pytest.skip("no fork server on this platform: workers are spawned")
    _fresh_process_state()
    had_tracker = workers_module.tracker_pid() is not None
    assert workers_module.start_early(["build", "--n", "4", "--workers", "2"])
    server = workers_module.forkserver_pid()
    assert server is not None
    with LocalPool(2) as pool:
        started = list(pool.run([partial(_worker_start) for _ in range(4)]))
    assert started == [(server, True)] * 4  # the early server's preloaded workers
    assert workers_module.forkserver_pid() is None
    with pytest.raises(ProcessLookupError):
        os.kill(server, 0)
    if not had_tracker:
        assert workers_module.tracker_pid() is None
    workers_module.stop_early()  # nothing left to end: the pool took both over


def test_an_early_server_no_pool_used_is_ended_by_stop_early() -> None:
    if workers_module.worker_context().get_start_method() != "forkserver":
        pytest.skip("no fork server on this platform: workers are spawned")
    _fresh_process_state()
    assert workers_module.start_early(["build", "--n", "4", "--workers", "2"])
    server = workers_module.forkserver_pid()
    assert server is not None
    assert not workers_module.start_early(["build", "--n", "4", "--workers", "2"])  # once
    workers_module.stop_early()
    assert workers_module.forkserver_pid() is None
    with pytest.raises(ProcessLookupError):
        os.kill(server, 0)
