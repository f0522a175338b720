"""What a task cost the worker process that ran it: CPU time and peak memory."""

from __future__ import annotations

import os
import resource
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class TaskUsage:
    """One task's CPU seconds (user + system), and its worker's RSS after it and peak so far.

    ``rss_mib`` is None where ``/proc`` is missing (not Linux).
    """

    pid: int
    cpu_seconds: float
    peak_rss_mib: float
    rss_mib: float | None


def rss_mib() -> float | None:
    """This process's current resident set size, from ``/proc/self/statm``."""
    try:
        with open("/proc/self/statm", encoding="ascii") as statm:
            pages = int(statm.read().split()[1])
    except OSError:
        return None
    return pages * os.sysconf("SC_PAGE_SIZE") / (1024 * 1024)


def peak_rss_mib() -> float:
    """This process's peak RSS (``getrusage`` ``ru_maxrss``: KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def measured(task: Callable[[], Any]) -> TaskUsage:
    """Run ``task`` and report what it cost the process that ran it."""
    start = _cpu_seconds()
    task()
    return TaskUsage(os.getpid(), _cpu_seconds() - start, peak_rss_mib(), rss_mib())
