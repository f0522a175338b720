"""How local build workers start: forked from a fork server that imported the drawing code.

This module imports nothing of figgen's drawing code, so the command line can start the fork
server first thing (:func:`start_early`) and let it import matplotlib and the kinds on the
other core while this process imports the rest of the command line: workers are then ready
when the first figure is handed out instead of a second later.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
from collections.abc import Sequence
from multiprocessing import forkserver, get_all_start_methods, get_context, resource_tracker
from multiprocessing.context import BaseContext

WORKER_PRELOAD = ("figgen.build.preload",)
"""What every figure task needs (matplotlib, the kinds, the question builders, the default
fonts loaded): imported once, in the fork server, so each worker starts ready instead of
importing and loading it all again."""

_early_server = False
_early_tracker = False


def worker_context() -> BaseContext:
    """The fork-server context with :data:`WORKER_PRELOAD` (spawn where there is none)."""
    if "forkserver" not in get_all_start_methods():
        return get_context("spawn")
    context = get_context("forkserver")
    context.set_forkserver_preload(list(WORKER_PRELOAD))
    return context


def forkserver_pid() -> int | None:
    """The pid of the fork server this process started, if it is running."""
    return getattr(forkserver._forkserver, "_forkserver_pid", None)


def tracker_pid() -> int | None:
    """The pid of the resource tracker this process started, if it is running."""
    return getattr(resource_tracker._resource_tracker, "_pid", None)


def start_early(argv: Sequence[str]) -> bool:
    """Start the fork server now if ``argv`` (after the program name) is a local build that
    will use several workers; True if it did.

    Only a guess from the arguments: a wrong guess costs one idle server, which
    :func:`stop_early` ends. The first pool takes the server over (:func:`take_over_early`)
    and ends it when it closes.
    """
    global _early_server, _early_tracker
    if _early_server or not _local_multiworker_build(argv):
        return False
    if worker_context().get_start_method() != "forkserver" or forkserver_pid() is not None:
        return False
    had_tracker = tracker_pid() is not None
    forkserver.ensure_running()  # spawns it (and the resource tracker); it imports on its own
    _early_server = True
    _early_tracker = not had_tracker and tracker_pid() is not None
    return True


def take_over_early() -> tuple[bool, bool]:
    """Whether :func:`start_early` started the running fork server and the resource tracker;
    the caller now owns them (ends them when done)."""
    global _early_server, _early_tracker
    taken = (_early_server and forkserver_pid() is not None, _early_tracker)
    _early_server = _early_tracker = False
    return taken


def stop_forkserver() -> None:
    """End the fork server this process started (if any) and reap it.

    The server holds nothing but the imported code (its workers have exited and been reaped
    when the pool closed), so it is killed rather than asked to exit: a clean interpreter
    shutdown of a process that imported matplotlib takes a quarter of a second, at the end
    of every build. ``_stop`` then reaps it and removes its socket, as after a normal exit.
    """
    pid = forkserver_pid()
    if pid is None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)
    forkserver._forkserver._stop()  # type: ignore[attr-defined]


def stop_early() -> None:
    """End what :func:`start_early` started if no pool took it over."""
    server, tracker = take_over_early()
    if server:
        stop_forkserver()
    if tracker:
        stop_resource_tracker()


def stop_resource_tracker() -> None:
    """End the resource tracker process that starting the pool spawned, now.

    Left alone it outlives this process, and where no init reaps orphans it stays behind as a
    zombie in the caller's process group. A later pool starts a new one.
    """
    gc.collect()  # finalize the closed pool's semaphores first: the tracker has nothing left
    stop = getattr(resource_tracker._resource_tracker, "_stop", None)
    if stop is not None:
        stop()


def _local_multiworker_build(argv: Sequence[str]) -> bool:
    if not argv or argv[0] != "build" or any(a in ("--help", "-h") for a in argv):
        return False
    options = _options(argv[1:])
    if "--scheduler" in options:
        return False
    workers = _as_int(options.get("--workers"), 0) or os.cpu_count() or 1
    n = _as_int(options.get("--n"), 0)
    return workers > 1 and n > 1


def _options(args: Sequence[str]) -> dict[str, str]:
    """``--name value`` and ``--name=value`` pairs (flags map to "")."""
    options: dict[str, str] = {}
    for i, arg in enumerate(args):
        if not arg.startswith("--"):
            continue
        name, eq, value = arg.partition("=")
        if not eq:
            following = args[i + 1] if i + 1 < len(args) else ""
            value = "" if following.startswith("--") else following
        options[name] = value
    return options


def _as_int(text: str | None, default: int) -> int:
    try:
        return int(text) if text is not None else default
    except ValueError:
        return default
