"""What the visibility measurement and the legend placement cost per figure, in one run.

Renders the same figures twice, interleaved, in this process: as ``figgen build`` does
(``with``), and with the three additions switched off (``without``: no legend placement, no
panel snapshot, no per-mark measurement). Times are CPU seconds of this process, so load on
the other core changes both alike. Prints one line per figure and::

    with/without ratio: X.XXX

    python benchmarks/bench_visibility.py --n 12 --seed 0
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from contextlib import contextmanager

import figgen.render as render_module
import figgen.render.canvas as canvas_module
from figgen.build.figure import generate_figure
from figgen.config.load import FigureConfig
from figgen.render import legend_place


@contextmanager
def _without() -> Iterator[None]:
    saved = (
        render_module.measure_visibility,
        canvas_module.attach_snapshot,
        legend_place.LegendPlacer.draw,
    )
    render_module.measure_visibility = lambda *args, **kwargs: None  # type: ignore[assignment]
    canvas_module.attach_snapshot = lambda ax: None  # type: ignore[assignment]
    legend_place.LegendPlacer.draw = lambda self, renderer: None  # type: ignore[method-assign]
    try:
        yield
    finally:
        (
            render_module.measure_visibility,
            canvas_module.attach_snapshot,
            legend_place.LegendPlacer.draw,
        ) = saved


def _cpu(cfg: FigureConfig, seed: int, index: int) -> float:
    start = time.process_time()
    generate_figure(cfg, seed, index)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cfg = FigureConfig()
    generate_figure(cfg, args.seed, 0)  # warm imports and caches
    total_with = total_without = 0.0
    for index in range(args.n):
        with _without():
            without = _cpu(cfg, args.seed, index)
        with_ = _cpu(cfg, args.seed, index)
        total_with, total_without = total_with + with_, total_without + without
        print(f"fig {index:3d}: with {with_:6.2f}s without {without:6.2f}s")
    print(
        f"figures: {args.n} of seed {args.seed}, with {total_with:.1f} CPU s, "
        f"without {total_without:.1f} CPU s"
    )
    print(f"with/without ratio: {total_with / total_without:.3f}")


if __name__ == "__main__":
    main()
