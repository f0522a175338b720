"""Time the full figure pipeline against a bare matplotlib render of the same specs.

bare:     build the axes from the spec, draw once (layout + raster), encode the PNG.
pipeline: sample the spec, lay out, measure every box, repair if needed, raster, encode,
          assemble and serialise the record: everything ``figgen build`` does per figure.

Both run in this process on the same specs, interleaved, so machine load hits both alike.
The last line is ``pipeline/bare ratio: X.XX``.

    python benchmarks/bench_build.py --n 30 --seed 0
"""

from __future__ import annotations

import argparse
import time
from collections import Counter

from figgen.config import FigureConfig
from figgen.generate import generate_figure
from figgen.render.canvas import build_figure, encode_png, style_context
from figgen.sample.figure import sample_figure


def bare_render(spec) -> float:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    with style_context(spec.style):
        fig, _ = build_figure(spec)
        fig.canvas.draw()
        encode_png(fig)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
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
        attempts = figure.record["repair"]["attempts"] + 10 * len(figure.record["repair"]["resampled"])
        passes[attempts] += 1
        print(f"{figure.record['id']}: {figure.record['layout']['n_panels']:2d} panels "
              f"{figure.record['image']['width']}x{figure.record['image']['height']} "
              f"layout passes {figure.record['repair']['attempts']} "
              f"resampled {len(figure.record['repair']['resampled'])} "
              f"bare {bare:.2f}s pipeline {pipe:.2f}s ratio {pipe / bare:.2f}")
    print(f"figures: {args.n}, bare {bare_total:.1f}s, pipeline {pipe_total:.1f}s, "
          f"layout passes per figure: {dict(sorted(passes.items()))}")
    print(f"pipeline/bare ratio: {pipe_total / bare_total:.2f}")


if __name__ == "__main__":
    main()
