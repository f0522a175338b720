"""Time the full figure pipeline against a bare matplotlib render of the same specs.

bare:     build the axes from the spec, draw once (layout + raster), encode the PNG.
pipeline: sample the spec, lay out, measure every box, repair if needed, raster, encode,
          assemble and serialise the record: everything ``figgen build`` does per figure.

Both run in this process on the same specs, interleaved, so machine load hits both alike.

Before that, the scale part builds ``--sizes`` figures (default 50 and 500) with 1 and 2 local
worker processes, as ``figgen build`` does (figure files written to a temporary folder), and
prints figures per second, the 2-worker/1-worker scaling ratio, the CPU seconds per figure
(its inverse is the throughput of one fully used core, whatever else loads the machine), and
each worker's peak RSS (``resource.getrusage`` ``ru_maxrss`` inside the worker). Every run
starts fresh worker processes, so the peaks for 50 and 500 figures show whether memory grows
with the build; so does the workers' current RSS (``/proc/self/statm``) after the first and
the last tenth of the figures. It uses the small ``--scale-config tiny`` figures by default (1-2 panels at
50-60 dpi) so that 500 figures take minutes; ``--scale-config default`` times real defaults.

The last line is ``pipeline/bare ratio: X.XX``.

    python benchmarks/bench_build.py --n 30 --seed 0 --sizes 50 500
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from collections import Counter
from functools import partial

from figgen.build import write_figure
from figgen.compose import sample_figure
from figgen.config import FigureConfig, config_from_dict
from figgen.generate import generate_figure
from figgen.render.canvas import build_figure, encode_png, style_context
from figgen.scale import BuildStore, LocalPool
from figgen.scale.memory import TaskUsage, measured

SCALE_CONFIGS = {
    "tiny": {
        "panels": {"mean": 1.0, "std": 1.0, "count": [1, 2]},
        "image": {"dpi": [50, 60], "panel_inches": [2.0, 2.4]},
    },
    "small": {
        "panels": {"mean": 3.0, "std": 3.0, "count": [1, 6]},
        "image": {"dpi": [60, 90], "panel_inches": [2.6, 3.4]},
    },
    "default": {},
}


def bare_render(spec) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    with style_context(spec.style):
        fig, _ = build_figure(spec)
        fig.canvas.draw()
        encode_png(fig)
    return time.perf_counter() - start


def _warm_worker(seconds: float) -> None:
    import figgen.generate  # noqa: F401  (imports matplotlib and the fonts)

    time.sleep(seconds)  # hold this worker so each warm-up call lands on another one


def scaled_build(
    n: int, workers: int, seed: int, cfg: FigureConfig
) -> tuple[float, list[TaskUsage]]:
    """Figures per second and what each figure cost its worker, for a fresh ``n``-figure build."""
    with tempfile.TemporaryDirectory() as folder, LocalPool(workers) as pool:
        store = BuildStore.open(folder)
        store.makedirs("figures")
        list(pool.run([partial(_warm_worker, 1.0) for _ in range(workers)]))
        start = time.perf_counter()
        tasks = [partial(measured, partial(write_figure, store, seed, i, cfg)) for i in range(n)]
        samples: list[TaskUsage] = list(pool.run(tasks))
        elapsed = time.perf_counter() - start
    return n / elapsed, samples


def usage_summary(samples: list[TaskUsage]) -> str:
    peaks: dict[int, float] = {}
    for sample in samples:
        peaks[sample.pid] = max(peaks.get(sample.pid, 0.0), sample.peak_rss_mib)
    cpu = sum(sample.cpu_seconds for sample in samples) / len(samples)
    tenth = max(1, len(samples) // 10)
    rss = [sample.rss_mib or 0.0 for sample in samples]  # completion order
    return (
        f"{cpu:.3f} CPU s/figure ({1 / cpu:.2f} figures/s per busy core), "
        f"peak RSS per worker {', '.join(f'{peak:.0f}' for peak in sorted(peaks.values()))} MiB, "
        f"RSS after first/last tenth {statistics.median(rss[:tenth]):.0f}/"
        f"{statistics.median(rss[-tenth:]):.0f} MiB"
    )


def scale_report(sizes: list[int], seed: int, config_name: str) -> None:
    cfg = config_from_dict(SCALE_CONFIGS[config_name])
    print(f"scale part: figure config '{config_name}' ({SCALE_CONFIGS[config_name] or 'defaults'})")
    print("memory: peak RSS = getrusage ru_maxrss in each worker, RSS = /proc/self/statm")
    for n in sizes:
        rates = {}
        for workers in (1, 2):
            rate, samples = scaled_build(n, workers, seed, cfg)
            rates[workers] = rate
            print(f"N={n} workers={workers}: {rate:.2f} figures/s, {usage_summary(samples)}")
        print(f"N={n} scaling 2 workers / 1 worker: {rates[2] / rates[1]:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--sizes",
        type=int,
        nargs="*",
        default=[50, 500],
        help="figure counts for the scale part; none skips it",
    )
    parser.add_argument("--scale-config", choices=sorted(SCALE_CONFIGS), default="tiny")
    args = parser.parse_args()
    if args.sizes:
        scale_report(args.sizes, args.seed, args.scale_config)
    cfg = FigureConfig()
    generate_figure(cfg, args.seed, 0)  # warm caches (fonts, mathtext) outside the timing
    bare_total = pipe_total = 0.0
    passes: Counter[int] = Counter()
    for index in range(args.n):
        start = time.perf_counter()
        figure = generate_figure(cfg, args.seed, index)
        pipe = time.perf_counter() - start
        spec = sample_figure(cfg, args.seed, index, attempt=figure.record["attempt"])
        bare = bare_render(spec)
        pipe_total += pipe
        bare_total += bare
        attempts = figure.record["repair"]["attempts"] + 10 * len(
            figure.record["repair"]["resampled"]
        )
        passes[attempts] += 1
        print(
            f"{figure.record['id']}: {figure.record['layout']['n_panels']:2d} panels "
            f"{figure.record['image']['width']}x{figure.record['image']['height']} "
            f"layout passes {figure.record['repair']['attempts']} "
            f"resampled {len(figure.record['repair']['resampled'])} "
            f"bare {bare:.2f}s pipeline {pipe:.2f}s ratio {pipe / bare:.2f}"
        )
    print(
        f"figures: {args.n}, bare {bare_total:.1f}s, pipeline {pipe_total:.1f}s, "
        f"layout passes per figure: {dict(sorted(passes.items()))}"
    )
    print(f"pipeline/bare ratio: {pipe_total / bare_total:.2f}")


if __name__ == "__main__":
    main()
