"""Time the density benchmark's own work, as ratios measured in one run.

compose: paper-mode composition of every compound (resize each source to 800 px once, paste
         the grid, encode the PNG, write image, record and manifest);
score:   parse the ground-truth reply of every compound and score every chart (A.1 matching
         and metrics plus RMS F1 and RNSS), i.e. ``figgen density score`` without the report;
peers:   the RMS F1 and RNSS share of scoring (their Hungarian matchings grow with the
         square of the table size).

The sources are ``--n`` synthetic PNG + CSV charts (1200 x 900 px, ``--series`` series of 11
points). All parts run in this process one after another, so machine load hits them alike;
read the ratios, not the seconds.

    python benchmarks/bench_density.py --n 36
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from pathlib import Path

from PIL import Image

from figgen.density.compose import build_density
from figgen.density.metrics import score_compound
from figgen.density.parse import parse_tables
from figgen.density.peer import rms_f1, rnss
from figgen.density.run import truth_reply


def make_sources(folder: Path, n: int, n_series: int) -> None:
    for i in range(n):
        out = io.BytesIO()
        Image.effect_noise((1200, 900), 40 + i).convert("RGB").save(out, format="PNG")
        (folder / f"c{i:03d}.png").write_bytes(out.getvalue())
        rows = ["series,x,y"] + [
            f"s{s},{x},{(i + 1) * (s + 1) * x % 97}" for s in range(n_series) for x in range(11)
        ]
        (folder / f"c{i:03d}.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=36, help="source charts")
    parser.add_argument("--series", type=int, default=3, help="series per chart")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        source, out = Path(tmp) / "charts", Path(tmp) / "bench"
        source.mkdir()
        make_sources(source, args.n, args.series)
        started = time.perf_counter()
        manifest = build_density(source, out, densities=[1, 3, 6, 9])
        compose_s = time.perf_counter() - started
        replies = {c.id: truth_reply(manifest, c.id) for c in manifest.compounds}
        started = time.perf_counter()
        charts = 0
        for compound in manifest.compounds:
            parsed = parse_tables(replies[compound.id])
            score = score_compound(compound.id, compound.sources, parsed.charts, manifest.tables)
            charts += len(score.charts)
        score_s = time.perf_counter() - started
        started = time.perf_counter()
        for compound in manifest.compounds:
            for sid in compound.sources:
                rows = manifest.tables[sid].rows
                rms_f1(rows, rows)
                rnss(rows, rows)
        peer_s = time.perf_counter() - started
    n_compounds = len(manifest.compounds)
    print(f"{n_compounds} compounds, {charts} charts of {args.series * 11} points")
    print(f"compose: {1000 * compose_s / n_compounds:.1f} ms per compound")
    print(f"score:   {1000 * score_s / charts:.2f} ms per chart")
    print(f"score/compose ratio (per compound): {score_s / compose_s:.3f}")
    print(f"peers/score ratio: {peer_s / score_s:.2f}")


if __name__ == "__main__":
    main()
