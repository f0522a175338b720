"""Seconds and bytes per figure of every PNG encoder on the same drawn canvases.

Each of ``--n`` default figures is drawn once (a bare render of its sampled spec), then every
encoder setting encodes that same canvas in turn, timed in CPU seconds of this process (load
on other cores does not count), and its PNG is decoded back and compared with the canvas.

    python benchmarks/bench_png.py --n 100 --seed 0
"""

from __future__ import annotations

import argparse
import io
import time

import numpy as np
from PIL import Image

from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig
from figgen.render.canvas import build_figure, style_context
from figgen.render.png import PngSettings, encode_rgba

SETTINGS = [
    PngSettings("pillow", 1),
    PngSettings("pillow", 6),
    PngSettings("zlib", 1),
    PngSettings("zlib", 6),
    PngSettings("fpng"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    cfg = FigureConfig()
    seconds = dict.fromkeys(SETTINGS, 0.0)
    sizes = dict.fromkeys(SETTINGS, 0)
    draw = pixels = 0.0
    for index in range(args.n):
        spec = sample_figure(cfg, args.seed, index)
        start = time.process_time()
        with style_context(spec.style):
            fig, _ = build_figure(spec)
            fig.canvas.draw()
        draw += time.process_time() - start
        rgba = np.asarray(fig.canvas.buffer_rgba())
        pixels += rgba.shape[0] * rgba.shape[1]
        for settings in SETTINGS:
            start = time.process_time()
            png = encode_rgba(rgba, settings)
            seconds[settings] += time.process_time() - start
            sizes[settings] += len(png)
            decoded = np.asarray(Image.open(io.BytesIO(png)))
            if not np.array_equal(decoded, rgba[..., : decoded.shape[2]]):
                raise SystemExit(f"{settings} is not lossless on figure {index}")
    print(
        f"{args.n} figures of seed {args.seed}, {pixels / args.n / 1e6:.1f} Mpx each on average, "
        f"build + draw {draw / args.n:.3f} CPU s/figure; every PNG decoded back identical"
    )
    print(
        f"{'encoder':<12} {'CPU s/figure':>12} {'x draw':>7} {'KiB/figure':>11} {'x pillow-1':>10}"
    )
    base = seconds[SETTINGS[0]]
    for settings in SETTINGS:
        name = settings.encoder + (
            f"-{settings.compress_level}" if settings.encoder != "fpng" else ""
        )
        print(
            f"{name:<12} {seconds[settings] / args.n:>12.3f} {seconds[settings] / draw:>7.2f} "
            f"{sizes[settings] / args.n / 1024:>11.0f} {base / seconds[settings]:>9.2f}x"
        )


if __name__ == "__main__":
    main()
