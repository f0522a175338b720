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

run (``--run-figures N``, 0 to skip): ``figgen density run`` per compound against ``figgen
eval run`` per question, as ``bench_eval.py`` measures the latter: a second pass with the
images prepared, concurrency 1, against its loopback OpenAI-compatible server answering at
once, and again through the offline mock provider (figgen alone, no SDK, no HTTP). Both ask
about the same figgen build of N line and bar figures; the density benchmark is composed from
its panels at k = 1, 3, 6, 9 (paper mode).

    python benchmarks/bench_density.py --n 36
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from pathlib import Path
from typing import Any

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


LINES_AND_BARS = "kinds = {line = 1.0, bar = 1.0}\n[line]\nmarker_p = 1.0\n"
"""Line panels with markers and bar panels: every panel is a density source chart."""


def _density_pass(
    folder: Path, dataset: Any, base_url: str | None, images: Any, out: Path
) -> float:
    """Wall time of one ``run_density`` pass at concurrency 1 (None: the mock provider)."""
    import asyncio

    from figgen.density.manifest import load_manifest
    from figgen.density.run import run_density
    from figgen.eval.cost.prices import ModelPrice, PriceTable
    from figgen.eval.providers import MockProvider, make_provider
    from figgen.eval.run.runner import RetryPolicy, RunOptions

    manifest = load_manifest(folder)
    # the mock replays the true tables written beforehand, as eval's mock replays one answer
    replies = {c.id: truth_reply(manifest, c.id) for c in manifest.compounds}
    provider = (
        MockProvider("bench", answer=lambda prompt: replies[prompt.item.qid])
        if base_url is None
        else make_provider("openai-compatible:bench", base_url=base_url)
    )
    out.unlink(missing_ok=True)
    started = time.perf_counter()
    asyncio.run(
        run_density(
            folder,
            provider,
            RunOptions(
                "openai-compatible:bench",
                out,
                prices=PriceTable({"bench": ModelPrice(0.0, 0.0)}),
                concurrency=1,
                policy=RetryPolicy(initial_wait=0.01, jitter=0.01),
                progress=False,
                announce=lambda _: None,
            ),
            images=images,
        )
    )
    return time.perf_counter() - started


def bench_run(n_figures: int, tmp: Path) -> None:
    """Per-call overhead of ``figgen density run`` against ``figgen eval run``."""
    import statistics
    import sys

    from typer.testing import CliRunner

    from figgen._cli.main import app
    from figgen.density.manifest import load_manifest
    from figgen.density.run import compound_items
    from figgen.eval.run.dataset import EvalDataset, load_dataset, select_items
    from figgen.eval.run.prepare import ImagePreparer

    sys.path.insert(0, str(Path(__file__).parent))
    from bench_eval import LoopbackServer, _run

    data, bench = tmp / "figures", tmp / "density"
    config = tmp / "lines.toml"
    config.write_text(LINES_AND_BARS, encoding="utf-8")
    for command in (
        ["build", "--n", str(n_figures), "--seed", "9", "--out", str(data), "--workers", "1"]
        + ["--config", str(config)],
        ["density", "build", "--source", str(data), "--out", str(bench), "--no-progress"],
    ):
        result = CliRunner().invoke(app, command, catch_exceptions=False)
        assert result.exit_code == 0, result.output
    dataset = load_dataset(data)
    items = select_items(dataset.items, levels=[1, 2])
    manifest = load_manifest(bench)
    compounds = EvalDataset(bench, compound_items(manifest))
    eval_images = ImagePreparer(dataset.image_path)
    density_images = ImagePreparer(compounds.image_path)
    server = LoopbackServer(0, 0.0)
    try:
        _run(dataset, items, server.base_url, eval_images, 8, tmp / "cold.jsonl")  # prepare
        _density_pass(bench, compounds, server.base_url, density_images, tmp / "dcold.jsonl")
        timings = {}
        for name, base_url in (("loopback", server.base_url), ("mock", None)):
            per_question = _run(dataset, items, base_url, eval_images, 1, tmp / "e.jsonl")
            per_compound = _density_pass(
                bench, compounds, base_url, density_images, tmp / "d.jsonl"
            )
            timings[name] = (per_question / len(items), per_compound / len(compounds.items))
    finally:
        server.close()
    kb = {
        name: statistics.mean(len(image.data) for key in keys if (image := prep.peek(key))) / 1e3
        for name, prep, keys in (
            ("eval", eval_images, sorted({i.figure_id for i in items})),
            ("density", density_images, [c.id for c in manifest.compounds]),
        )
    }
    print(
        f"run: {len(items)} eval questions on {n_figures} figures (mean image {kb['eval']:.0f} "
        f"kB), {len(compounds.items)} density compounds of {len(manifest.tables)} panels "
        f"(mean image {kb['density']:.0f} kB); prepared images, concurrency 1"
    )
    for name, (question, compound) in timings.items():
        what = "loopback server" if name == "loopback" else "offline mock provider"
        print(
            f"  {what}: {1000 * compound:.1f} ms per compound / {1000 * question:.1f} ms per "
            f"question = {compound / question:.2f}x"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=36, help="source charts")
    parser.add_argument("--series", type=int, default=3, help="series per chart")
    parser.add_argument(
        "--run-figures", type=int, default=8, help="figures of the run comparison (0: skip)"
    )
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
    if args.run_figures:
        with tempfile.TemporaryDirectory() as tmp:
            bench_run(args.run_figures, Path(tmp))


if __name__ == "__main__":
    main()
