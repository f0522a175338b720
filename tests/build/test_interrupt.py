"""Ctrl-C during a multi-worker build: one line, finished figures kept, the rerun finishes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.e2e


def _figures(out: Path) -> list[str]:
    folder = out / "figures"
    return sorted(p.name for p in folder.glob("*.json")) if folder.is_dir() else []


@pytest.mark.slow
def test_ctrl_c_prints_one_line_and_the_rerun_resumes(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    command = [sys.executable, "-m", "figgen", "build", "--n", "8", "--out", str(out),
               "--config", "tiny", "--workers", "2", "--no-progress", "--seed", "4"]  # fmt: skip
    # its own session, so the SIGINT below reaches its whole process group, as a terminal's does
    build = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    while not _figures(out) and build.poll() is None:
        time.sleep(0.05)
    os.killpg(build.pid, signal.SIGINT)
    stdout, stderr = build.communicate(timeout=120)

    kept = len(_figures(out))
    assert 0 < kept < 8, "the build had finished or kept nothing: interrupt it earlier"
    assert build.returncode == 130
    assert stderr.splitlines() == [
        f"interrupted: {kept} figures kept; run the same command to resume"
    ]
    assert stdout == ""
    # nothing outlives the build: no worker or fork server left in its process group
    time.sleep(0.5)
    left = subprocess.run(["pgrep", "-g", str(build.pid)], capture_output=True, text=True)
    assert left.stdout.strip() == ""

    rerun = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert rerun.returncode == 0, rerun.stderr
    assert f"({8 - kept} new, {kept} kept)" in rerun.stdout
    assert len(_figures(out)) == 8
