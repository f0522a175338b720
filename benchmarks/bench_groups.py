"""How often the drawn-groups test finds groups, per generating distribution of scatter panels.

``python benchmarks/bench_groups.py`` composes two fixed samples of figures from their specs
(no rendering; a panel's height / width is taken as 1 / the figure's sampled panel aspect):

- default: 400 figures of the default config, seed 1;
- small: 150 figures of scatter panels only with 10-25 points (10-50 in a mixture), seed 2,
  where groups have few points each,

and runs :func:`figgen.vqa.api.reading.features.groups` of the figgen on the path over every scatter
panel. It prints, per sample and generating distribution, the panels, how many have groups and
how many have as many groups as generating centres. Rows: ``clusters apart`` (a Gaussian
mixture whose centres lie at least 1.5 times the sum of their clusters' RMS radii apart, the
audit's cluster panels), ``clusters overlapping`` (the other mixtures of two or more),
``one cluster``, ``linear`` and ``random`` (uniform). Run it again with another checkout first
on ``PYTHONPATH`` for the before column.

``--null`` instead simulates the statistics' one-group reference (a uniform box of n points
split by Ward) and prints their percentiles beside the thresholds
:mod:`figgen.vqa.api.reading.features` uses.
"""

from __future__ import annotations

import argparse
import math
import time
from collections import Counter
from typing import Any

import numpy as np
from audit_descriptions import drawn_as_clusters

from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig, config_from_dict
from figgen.vqa.api.reading import features

SAMPLES = {
    "default": ({}, 1, 400),
    "small": ({"kinds": {"scatter": 1.0}, "scatter": {"points": [10, 25]}}, 2, 150),
}
ROWS = ("clusters apart", "clusters overlapping", "one cluster", "linear", "random")


def category(panel: dict[str, Any], aspect: float) -> str:
    """The panel's generating distribution, mixtures split by how far apart their centres lie."""
    if panel["distribution"] != "gmm":
        return str(panel["distribution"])
    if len(panel["params"].get("centres", [])) < 2:
        return "one cluster"
    return "clusters apart" if drawn_as_clusters(panel, aspect) else "clusters overlapping"


def scatter_panels(config: FigureConfig, seed: int, n: int) -> list[tuple[dict[str, Any], float]]:
    """The scatter panels of figures 0..n-1 as record dicts, each with its height / width."""
    out = []
    for index in range(n):
        spec = sample_figure(config, seed, index).to_dict()
        for panel in spec["panels"]:
            if panel["kind"] == "scatter":
                out.append((panel, 1.0 / spec["panel_aspect"]))
    return out


def confusion(name: str) -> None:
    overrides, seed, n = SAMPLES[name]
    panels = scatter_panels(config_from_dict(overrides), seed, n)
    found: Counter[str] = Counter()
    exact: Counter[str] = Counter()
    total: Counter[str] = Counter()
    start = time.process_time()
    for panel, aspect in panels:
        row = category(panel, aspect)
        drawn = features.groups(panel, aspect)
        total[row] += 1
        found[row] += drawn is not None
        exact[row] += drawn is not None and drawn.n == len(panel["params"].get("centres", []))
    seconds = time.process_time() - start
    print(f"{name} sample ({n} figures, seed {seed}): {len(panels)} scatter panels, "
          f"{1000 * seconds / max(len(panels), 1):.1f} ms CPU per panel")  # fmt: skip
    print(f"  {'distribution':22s} {'panels':>6s} {'groups':>7s} {'= centres':>9s}")
    for row in ROWS:
        print(f"  {row:22s} {total[row]:6d} {found[row]:7d} {exact[row]:9d}")


def null_percentiles(repeats: int) -> None:
    """Simulated percentiles of n * gap share and of the dip z for a Ward-split uniform box."""
    from scipy.cluster.hierarchy import linkage

    print("n | aspect | gap p95 (threshold) | dip z p99 (threshold)")
    for n in (6, 10, 20, 40, 70, 140):
        for aspect in (1.0, 3.0, 1000.0):
            rng = np.random.default_rng([n, int(aspect)])
            gaps, dips = [], []
            for _ in range(repeats):
                box = rng.uniform(-0.5, 0.5, (n, 2)) * np.array([aspect, 1.0])
                second = features.cuts(linkage(box, "ward"), n, range(2, 3))[2] == 1
                gaps.append(n * features.gap_share(box, second))
                dips.append(features.dip_z(box, second))
            gap_at = features.GAP_BASE + features.GAP_PER_LOG * math.log(n)
            dip_at = features.DIP_BASE + features.DIP_PER_LOG * math.log(n)
            print(f"{n} | {aspect:g} | {np.quantile(gaps, 0.95):.2f} ({gap_at:.2f}) | "
                  f"{np.quantile(dips, 0.99):.2f} ({dip_at:.2f})")  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--null", action="store_true", help="simulate the reference instead")
    parser.add_argument("--repeats", type=int, default=1000, help="boxes per cell with --null")
    args = parser.parse_args()
    if args.null:
        null_percentiles(args.repeats)
        return
    for name in SAMPLES:
        confusion(name)


if __name__ == "__main__":
    main()
