"""Where a build's tasks run: in this process, a local process pool, or a Dask cluster.

A task is a picklable zero-argument callable (a ``functools.partial`` of a module-level
function). Executors yield results as tasks finish, and keep only a bounded window of tasks
in flight, so a million-task build holds no million futures.
"""

from __future__ import annotations

import abc
import contextlib
import functools
import hashlib
import logging
import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import TypeVar

from figgen._util.version import __version__
from figgen.build.workers import (
    forkserver_pid,
    stop_forkserver,
    stop_resource_tracker,
    take_over_early,
    tracker_pid,
    worker_context,
)
from figgen.errors import FiggenError

log = logging.getLogger(__name__)

T = TypeVar("T")
Task = Callable[[], T]

IN_FLIGHT_PER_WORKER = 4
"""Tasks queued per worker: enough to keep it busy, few enough to keep the client small."""

DASK_HINT = "pip install 'figgen[dask]'"

CODE_SUFFIXES = frozenset({".py", ".txt", ".toml", ".jinja", ".json", ".md"})
"""Files whose content can change a figure: compared between the client and Dask workers."""


class Executor(abc.ABC):
    """Runs tasks and yields their results in completion order."""

    workers: int

    @abc.abstractmethod
    def run(self, tasks: Sequence[Task[T]]) -> Iterator[T]: ...

    @abc.abstractmethod
    def close(self) -> None:
        """Release the pool or the cluster connection."""

    def __enter__(self) -> Executor:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class InProcess(Executor):
    """Run tasks one after another in this process."""

    workers = 1

    def run(self, tasks: Sequence[Task[T]]) -> Iterator[T]:
        for task in tasks:
            yield task()

    def close(self) -> None:
        pass


class LocalPool(Executor):
    """At most ``workers`` fresh processes on this machine (the default).

    Workers are forked from a fork server that has imported
    :data:`figgen.build.workers.WORKER_PRELOAD` and nothing else (spawned where there is no
    fork server), so no matplotlib or thread state of this process reaches them, and none
    pays for the imports again. The pool starts at the first call with several tasks; a
    single task runs in this process. Closing it ends the fork server if this pool started
    it, or took it over from :func:`figgen.build.workers.start_early`.
    """

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None
        self._started_tracker = False
        self._owns_forkserver = False

    def run(self, tasks: Sequence[Task[T]]) -> Iterator[T]:
        if self._pool is None and len(tasks) <= 1:
            yield from InProcess().run(tasks)
            return
        if self._pool is None:
            ctx = worker_context()
            early_server, early_tracker = take_over_early()
            self._owns_forkserver = early_server or forkserver_pid() is None
            workers = min(self.workers, len(tasks))
            had_tracker = tracker_pid() is not None and not early_tracker
            # The pool's queues register their semaphores, which starts the tracker.
            self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx)
            self._started_tracker = not had_tracker and tracker_pid() is not None
        pool = self._pool
        yield from _windowed(lambda task: pool.submit(_call, task), tasks, self.window)

    @property
    def window(self) -> int:
        return self.workers * IN_FLIGHT_PER_WORKER

    def __exit__(self, *exc: object) -> None:
        if exc and exc[0] is KeyboardInterrupt:
            self.kill_workers()
        self.close()

    def kill_workers(self) -> None:
        """Stop the workers at once (Ctrl-C): every file is written atomically, so a figure
        cut short leaves only a temporary that the next run removes."""
        processes = getattr(self._pool, "_processes", None) or {}
        for process in list(processes.values()):
            with contextlib.suppress(ProcessLookupError):
                process.kill()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None
            if self._owns_forkserver:
                stop_forkserver()
                self._owns_forkserver = False
            if self._started_tracker:
                stop_resource_tracker()
                self._started_tracker = False


class DaskCluster(Executor):
    """Tasks on an existing Dask distributed cluster, reached through its scheduler address.

    Every worker must import the same figgen code as this client (same version and same
    source files): a figure's bytes depend on the code that drew it.
    """

    def __init__(self, address: str, *, connect_timeout: float = 10.0) -> None:
        try:
            from distributed import Client
        except ImportError:
            raise FiggenError(f"--scheduler needs Dask distributed; {DASK_HINT}") from None
        try:
            self.client = Client(address, timeout=connect_timeout)
        except (OSError, TimeoutError, ValueError) as exc:
            raise FiggenError(
                f"cannot reach the Dask scheduler at {address} ({exc}); "
                "start it with `dask scheduler` or fix --scheduler"
            ) from None
        try:
            self.workers = self._check_workers(address)
        except BaseException:
            self.client.close()
            raise

    def _check_workers(self, address: str) -> int:
        threads = self.client.nthreads()
        if not threads:
            raise FiggenError(
                f"the Dask scheduler at {address} has no workers; "
                f"start some with `dask worker {address}`"
            )
        try:
            versions = self.client.run(_worker_figgen_code)
        except Exception as exc:  # whatever unpickling on a worker raised
            raise FiggenError(
                f"a Dask worker cannot run figgen ({type(exc).__name__}: {exc}); "
                "install the same figgen on every worker"
            ) from None
        mine = _worker_figgen_code()
        wrong = sorted(worker for worker, code in versions.items() if tuple(code) != mine)
        if wrong:
            raise FiggenError(
                f"Dask workers {wrong} run other figgen code than this client "
                f"(version {__version__}); install the same figgen everywhere"
            )
        if any(n > 1 for n in threads.values()):
            log.info(
                "Dask workers run several threads each; figures are drawn one at a time per "
                "worker process, so start workers with `--nthreads 1 --nworkers N` for speed"
            )
        return sum(threads.values())

    def run(self, tasks: Sequence[Task[T]]) -> Iterator[T]:
        from distributed import as_completed

        window = self.workers * IN_FLIGHT_PER_WORKER
        running = as_completed()
        in_flight = 0
        for task in tasks:
            running.add(self.client.submit(_call_locked, task, pure=False))
            in_flight += 1
            if in_flight >= window:
                yield next(running).result()
                in_flight -= 1
        for future in running:
            yield future.result()

    def close(self) -> None:
        self.client.close()


def make_executor(workers: int, scheduler: str | None = None) -> Executor:
    """The Dask cluster at ``scheduler`` (connected now), else ``workers`` local processes."""
    if scheduler:
        return DaskCluster(scheduler)
    if workers <= 1:
        return InProcess()
    return LocalPool(workers)


def _windowed(
    submit: Callable[[Task[T]], Future[T]], tasks: Iterable[Task[T]], window: int
) -> Iterator[T]:
    pending: set[Future[T]] = set()
    for task in tasks:
        pending.add(submit(task))
        if len(pending) >= window:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield future.result()
    while pending:
        done, pending = wait(pending, return_when=FIRST_COMPLETED)
        for future in done:
            yield future.result()


def _call(task: Task[T]) -> T:
    return task()


_DRAW_LOCK = threading.Lock()


def _call_locked(task: Task[T]) -> T:
    # A Dask worker may run tasks in several threads, and matplotlib style contexts change
    # process-wide rcParams: one figure at a time per process keeps every byte reproducible.
    with _DRAW_LOCK:
        return task()


@functools.cache
def _worker_figgen_code() -> tuple[str, str]:
    """figgen's version and a digest of its source and data files, as this process sees them."""
    package = Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*")):
        if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts:
            digest.update(path.relative_to(package).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return __version__, digest.hexdigest()
