"""Figure aspect ratio and pixel count: the reference figures against sampled specs.

``python benchmarks/canvas_limits.py [REFERENCE_DIR]`` measures the PNGs in REFERENCE_DIR (the
core paper's generator's figures, e.g. ``../shared/reference``) with Pillow and 1000 sampled
specs (no rendering) under the default config, and prints the ranges side by side.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import numpy as np
from PIL import Image

from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig


def reference_sizes(folder: Path) -> list[tuple[str, int, int]]:
    """``(name, width, height)`` of every PNG in ``folder``."""
    out = []
    for path in sorted(folder.glob("*.png")):
        with Image.open(path) as image:
            out.append((path.name, image.width, image.height))
    return out


def main() -> None:
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else Path("../shared/reference")
    for name, width, height in reference_sizes(folder):
        print(f"reference {name}: {width} x {height} px, aspect {width / height:.3f}")
    cfg = FigureConfig()
    specs = [sample_figure(cfg, 0, i) for i in range(1000)]
    aspect = np.array([s.width_in / s.height_in for s in specs])
    pixels = np.array([s.width_px * s.height_px for s in specs]) / 1e6
    longest = np.array([max(s.width_in, s.height_in) for s in specs])
    print(f"sampled aspect (w/h): min {aspect.min():.3f}, max {aspect.max():.3f}")
    print(f"sampled pixels: median {np.median(pixels):.1f} MP, max {pixels.max():.1f} MP")
    print(f"sampled longest side: median {np.median(longest):.1f} in, max {longest.max():.1f} in")
    counts = Counter(s.layout.n_panels for s in specs)
    print("panel counts:", dict(sorted(counts.items())))


if __name__ == "__main__":
    main()
