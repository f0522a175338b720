"""Workers keep no figures alive between tasks, and report their peak memory correctly."""

from __future__ import annotations

import gc
from functools import partial
from pathlib import Path

from figgen.build import BuildStore, shards
from figgen.build.memory import measured, peak_rss_mib
from figgen.config.load import FigureConfig


def _live_figures() -> int:
    from matplotlib.figure import Figure

    gc.collect()
    return sum(isinstance(obj, Figure) for obj in gc.get_objects())


def test_no_matplotlib_figure_outlives_a_shard(tiny_config: FigureConfig, tmp_path: Path) -> None:
    store = BuildStore.open(tmp_path)
    store.makedirs(shards.FOLDER)
    before = _live_figures()
    report = measured(partial(shards.write_shard, store, shards.Shard(0, 3), 1, tiny_config))
    assert _live_figures() == before
    assert report.peak_rss_mib > 0 and report.cpu_seconds > 0


def test_peak_rss_agrees_with_the_kernel() -> None:
    status = Path("/proc/self/status").read_text().splitlines()
    high_water_kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    assert abs(peak_rss_mib() - high_water_kib / 1024) < 8
