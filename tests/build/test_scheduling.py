"""Local builds: largest figures first, and nothing left running when a build exits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from figgen.build.dataset import largest_first
from figgen.build.sampling import sample_figure, sample_footprint
from figgen.config.load import FigureConfig


def test_footprint_is_the_sampled_specs_pixels_and_panels() -> None:
    cfg = FigureConfig()
    for index in range(12):
        spec = sample_figure(cfg, 3, index)
        assert sample_footprint(cfg, 3, index) == (spec.width_px * spec.height_px, len(spec.panels))


def test_largest_first_orders_by_pixels_times_panels() -> None:
    cfg = FigureConfig()
    order = largest_first(list(range(20)), cfg, 3)
    assert sorted(order) == list(range(20))
    costs = []
    for index in order:
        spec = sample_figure(cfg, 3, index)
        costs.append(spec.width_px * spec.height_px * len(spec.panels))
    assert costs == sorted(costs, reverse=True)
    assert largest_first([4, 9], cfg, 3) == sorted([4, 9], key=lambda i: -costs[order.index(i)])


def _group_members(group: int) -> list[str]:
    """Processes (zombies too) whose process group is ``group``, read from /proc."""
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended while we looked
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if int(fields[2]) == group:  # fields after the name: state, ppid, pgrp, ...
            members.append(f"{entry.name} {stat.split(' ', 1)[1][:60]}")
    return members


def test_a_two_worker_build_leaves_no_process_behind(tmp_path: Path) -> None:
    out = tmp_path / "ds"
    command = [sys.executable, "-m", "figgen", "build", "--n", "3", "--seed", "1"]
    command += ["--workers", "2", "--out", str(out), "--config", "tiny"]
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    child = subprocess.Popen(command, start_new_session=True, env=env, stderr=subprocess.PIPE)
    _, stderr = child.communicate(timeout=300)
    assert child.returncode == 0, stderr.decode()
    assert len(list((out / "figures").glob("*.png"))) == 3
    assert _group_members(child.pid) == []  # the child led its own group: workers, tracker
    assert b"leaked" not in stderr
