"""Peak memory of the process that runs a task: how flat a worker stays as a build grows."""

from __future__ import annotations

import os
import resource
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class WorkerMemory:
    """A worker process and its peak resident set size so far, in MiB."""

    pid: int
    peak_rss_mib: float


def peak_rss_mib() -> float:
    """This process's peak RSS (``getrusage`` ``ru_maxrss``: KiB on Linux, bytes on macOS)."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / (1024 * 1024) if sys.platform == "darwin" else peak / 1024


def measured(task: Callable[[], Any]) -> WorkerMemory:
    """Run ``task`` and report the peak RSS of the process that ran it."""
    task()
    return WorkerMemory(os.getpid(), peak_rss_mib())
