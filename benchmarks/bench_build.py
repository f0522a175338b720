"""Time the figure pipeline against plain matplotlib on the same specs, and 1 vs 2 workers.

bare:     plain matplotlib: build the axes from the spec, draw once (layout + raster),
          encode the PNG with the configured encoder.
pipeline: everything ``figgen build`` does per figure: sample the spec, draw, measure every
          box, repair if needed, encode, assemble and serialise the record.

Both run in this process on the same specs, interleaved, timed in CPU seconds of this
process, so load on the other core changes both alike. The summary lines are::

    figures per CPU second: X      (the pipeline's; load-insensitive throughput of one core)
    encode share of bare: X.XX     (PNG encoding / the bare render)
    pipeline/bare ratio: X.XX
    2 workers speed-up: X.XX       (``figgen build --n 16 --seed 7``, 1 vs 2 workers, wall)
    two bare processes speed-up: X.XX   (the machine's ceiling for the line above)

The speed-up runs the real command in fresh processes (imports, figures, questions,
manifest), ``--repeats`` paired times, and reports the median ratio; it is depressed by
any other load on the machine, so the load average is printed beside it. The ceiling runs
plain matplotlib (the bare render of the same 16 specs) in one process, then in two
independent processes at once, each doing that same work, and reports 2 x one's wall time /
the pair's: what two cores give two processes that share nothing (memory bandwidth, caches,
clock boost), so the 2-worker figure can be judged against the machine rather than 2.00.

``--per-kind 12`` builds that many figures of each registered kind alone (every panel of that
kind, the same layouts for every kind), interleaved figure by figure, and prints per kind the
figures per CPU second of the render and of render plus questions and descriptions, and the
ratio to the line kind's::

    kind box: 1.93 figures per CPU s (2.41 render only), 0.91 x line

``--sizes 50 500`` adds the scale part: builds of that many (``--scale-config tiny``)
figures with 1 and 2 local workers, with figures per second, CPU seconds per figure and
each worker's peak RSS (``resource.getrusage`` ``ru_maxrss`` inside the worker) and current
RSS (``/proc/self/statm``) after the first and the last tenth of the figures.

    python benchmarks/bench_build.py --n 30 --seed 0 --encoder fpng
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from collections import Counter
from functools import partial
from pathlib import Path

from figgen.build import BuildStore, LocalPool
from figgen.build.dataset import write_figure
from figgen.build.figure import generate_figure
from figgen.build.memory import TaskUsage, measured
from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig, config_from_dict, load_config, preset_names
from figgen.kinds import KINDS
from figgen.render.canvas import build_figure, encode_png, style_context
from figgen.render.png import PNG_ENCODERS, PngSettings
from figgen.schema.spec import FigureSpec
from figgen.vqa import describe_record, questions_for_record

SCALE_CONFIGS = ["default", *preset_names()]


def bare_render(spec: FigureSpec, settings: PngSettings) -> tuple[float, float]:
    """CPU seconds of plain matplotlib drawing and encoding ``spec``, and of the encoding."""
    start = time.process_time()
    with style_context(spec.style):
        fig, _ = build_figure(spec)
        fig.canvas.draw()
        encoding = time.process_time()
        encode_png(fig, settings)
    end = time.process_time()
    return end - start, end - encoding


def _warm_worker(seconds: float) -> None:
    import figgen.build.figure  # noqa: F401  (imports matplotlib and the fonts)

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
    cfg = load_config(None if config_name == "default" else config_name)
    print(f"scale part: figure config '{config_name}' (figgen/presets/{config_name}.toml)")
    print("memory: peak RSS = getrusage ru_maxrss in each worker, RSS = /proc/self/statm")
    for n in sizes:
        rates = {}
        for workers in (1, 2):
            rate, samples = scaled_build(n, workers, seed, cfg)
            rates[workers] = rate
            print(f"N={n} workers={workers}: {rate:.2f} figures/s, {usage_summary(samples)}")
        print(f"N={n} scaling 2 workers / 1 worker: {rates[2] / rates[1]:.2f}")


def pipeline_report(n: int, seed: int, cfg: FigureConfig) -> None:
    settings = PngSettings.of(cfg.image)
    generate_figure(cfg, seed, 0)  # warm caches (fonts, mathtext) outside the timing
    bare_total = pipe_total = encode_total = 0.0
    png_bytes = 0
    passes: Counter[int] = Counter()
    for index in range(n):
        start = time.process_time()
        figure = generate_figure(cfg, seed, index)
        pipe = time.process_time() - start
        record = figure.record
        spec = sample_figure(cfg, seed, index, attempt=record.attempt)
        bare, encode = bare_render(spec, settings)
        pipe_total += pipe
        bare_total += bare
        encode_total += encode
        png_bytes += len(figure.png)
        resampled = record.repair["resampled"]
        passes[record.repair["attempts"] + 10 * len(resampled)] += 1
        print(
            f"{record.id}: {record.layout.n_panels:2d} panels "
            f"{record.image.width}x{record.image.height} "
            f"layout passes {record.repair['attempts']} "
            f"resampled {len(resampled)} "
            f"bare {bare:.2f}s pipeline {pipe:.2f}s ratio {pipe / bare:.2f}"
        )
    print(
        f"figures: {n} of seed {seed}, bare {bare_total:.1f} CPU s, pipeline {pipe_total:.1f} "
        f"CPU s, layout passes per figure: {dict(sorted(passes.items()))}"
    )
    print(
        f"encoder {_encoder_name(settings)}: {encode_total / n:.3f} CPU s and "
        f"{png_bytes / n / 1024:.0f} KiB per figure"
    )
    print(f"figures per CPU second: {n / pipe_total:.2f}")
    print(f"encode share of bare: {encode_total / bare_total:.2f}")
    print(f"pipeline/bare ratio: {pipe_total / bare_total:.2f}")


def kinds_report(n: int, seed: int, cfg: FigureConfig) -> None:
    """Figures per CPU second of each kind alone, the kinds interleaved figure by figure."""
    base = cfg.model_dump(mode="json")
    configs = {kind: config_from_dict({**base, "kinds": {kind: 1.0}}) for kind in KINDS}
    render = dict.fromkeys(KINDS, 0.0)
    total = dict.fromkeys(KINDS, 0.0)
    for kind_cfg in configs.values():
        generate_figure(kind_cfg, seed, 0)  # warm each kind's caches outside the timing
    for index in range(n):
        for kind, kind_cfg in configs.items():
            start = time.process_time()
            figure = generate_figure(kind_cfg, seed, index)
            drawn = time.process_time()
            questions_for_record(figure.record)
            describe_record(figure.record)
            render[kind] += drawn - start
            total[kind] += time.process_time() - start
    for kind in KINDS:
        print(
            f"kind {kind}: {n / total[kind]:.2f} figures per CPU s ({n / render[kind]:.2f} "
            f"render only), {total['line'] / total[kind]:.2f} x line"
        )


def workers_report(n: int, seed: int, repeats: int, cfg: FigureConfig) -> None:
    """Wall time of ``figgen build`` with 1 and 2 workers, paired runs, median ratio.

    A small build first warms the disk cache (fonts, code); the pairs alternate which
    worker count runs first, so a drift of the machine's speed favours neither.
    """
    ratios = []
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder, "config.json")
        config.write_text(
            json.dumps(
                {"image": {k: v for k, v in cfg.image.model_dump().items() if k.startswith("png_")}}
            )
        )

        def build(workers: int, figures: int, out: Path) -> tuple[float, float]:
            command = [sys.executable, "-m", "figgen", "build", "--n", str(figures)]
            command += ["--seed", str(seed), "--workers", str(workers), "--out", str(out)]
            command += ["--config", str(config), "--no-progress"]
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            start = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
            wall = time.perf_counter() - start
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            return wall, after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

        build(2, 4, Path(folder, "warm-up"))
        for repeat in range(repeats):
            walls = {}
            for workers in (1, 2) if repeat % 2 == 0 else (2, 1):
                walls[workers], cpu = build(workers, n, Path(folder, f"build-{repeat}-{workers}"))
                print(
                    f"figgen build --n {n} --seed {seed} --workers {workers}: "
                    f"{walls[workers]:.1f} s wall, {cpu / n:.2f} CPU s per figure"
                )
            ratios.append(walls[1] / walls[2])
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"load average (1, 5, 15 min) after: {load} on {os.cpu_count()} cores")
    print(f"2 workers speed-up: {statistics.median(ratios):.2f}")


def bare_child(n: int, seed: int, cfg: FigureConfig) -> None:
    """One bare process of the ceiling: sample the specs, wait for "go", draw them, say the wall."""
    specs = [sample_figure(cfg, seed, index) for index in range(n)]
    bare_render(specs[-1], PngSettings.of(cfg.image))  # fonts and caches, as a warm worker has
    print("ready", flush=True)
    sys.stdin.readline()
    start = time.perf_counter()
    for spec in specs:
        bare_render(spec, PngSettings.of(cfg.image))
    print(f"{time.perf_counter() - start:.3f}", flush=True)


def bare_processes_wall(count: int, n: int, seed: int, settings: PngSettings) -> float:
    """Wall seconds until ``count`` bare processes, started together, have all drawn ``n`` specs."""
    command = [sys.executable, __file__, "--bare-child", str(n), "--seed", str(seed)]
    command += ["--encoder", settings.encoder, "--level", str(settings.compress_level)]
    children = [
        subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for _ in range(count)
    ]
    for child in children:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    start = time.perf_counter()
    for child in children:
        assert child.stdin is not None
        child.stdin.write("go\n")
        child.stdin.flush()
    for child in children:
        child.communicate()
    return time.perf_counter() - start


def ceiling_report(n: int, seed: int, repeats: int, cfg: FigureConfig) -> None:
    """Two independent bare-matplotlib processes against one, on the same work: the machine."""
    ratios = []
    for repeat in range(repeats):  # alternating which runs first, as the worker pairs do
        walls = {
            count: bare_processes_wall(count, n, seed, PngSettings.of(cfg.image))
            for count in ((1, 2) if repeat % 2 == 0 else (2, 1))
        }
        one, two = walls[1], walls[2]
        print(
            f"bare matplotlib, {n} specs of seed {seed}: "
            f"1 process {one:.1f} s, 2 at once {two:.1f} s wall"
        )
        ratios.append(2 * one / two)
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"load average (1, 5, 15 min) after: {load} on {os.cpu_count()} cores")
    print(f"two bare processes speed-up: {statistics.median(ratios):.2f}")


AGAINST_CHILD = """
import json, sys, time
import figgen
from figgen.config.load import config_from_dict
from figgen.build.figure import generate_figure
from figgen.kinds import KINDS

cfg, seed = config_from_dict(json.loads(sys.argv[1])), int(sys.argv[2])
print(json.dumps({"source": figgen.__file__}), flush=True)
for line in sys.stdin:
    index, timed = json.loads(line)
    start = time.process_time()
    generate_figure(cfg, seed, index)
    print(json.dumps(time.process_time() - start if timed else None), flush=True)
"""
"""A figure server for one revision: reads ``[index, timed]`` lines, generates that figure of
``seed`` under a config dict, answers with its CPU seconds (``generate_figure`` only: the same
call at every revision since the core landed)."""

AGAINST_CONFIGS = {"default": {}, "tiny": "tiny"}
"""The default figures the issue's range is about, and the tiny ones beside them."""


class _FigureServer:
    def __init__(self, root: Path, config: dict[str, object], seed: int) -> None:
        command = [sys.executable, "-c", AGAINST_CHILD, json.dumps(config), str(seed)]
        env = {**os.environ, "PYTHONPATH": str(root)}
        self.process = subprocess.Popen(  # in root: "-c" puts the working folder first
            command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=root
        )
        source = json.loads(self._read())["source"]
        assert Path(source).is_relative_to(root), f"{source} is not under {root}"

    def figure(self, index: int, *, timed: bool = True) -> float | None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps([index, timed]) + "\n")
        self.process.stdin.flush()
        return json.loads(self._read())  # type: ignore[no-any-return]

    def _read(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"figure server exited with {self.process.wait()}")
        return line

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


def against_report(rev: str, n: int, seed: int) -> None:
    """Figures per CPU second of revision ``rev`` and of this tree, on the same figures.

    ``rev`` is unpacked with ``git archive`` and imported from there. One long-lived process
    per revision draws the figures in turn, figure by figure (the order swapped every figure),
    so a drift of the machine's speed lands on both within seconds. Each uses its own default
    PNG encoder (what its default build wrote). Both first draw figure 0 untimed (fonts,
    mathtext caches).
    """
    repo = Path(__file__).resolve().parent.parent
    label = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--short", rev],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    with tempfile.TemporaryDirectory() as folder:
        tree = Path(folder, "tree")
        tree.mkdir()
        archive = subprocess.run(
            ["git", "-C", str(repo), "archive", rev], check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        for name, preset in AGAINST_CONFIGS.items():
            config = (
                tomllib.loads((repo / "figgen" / "presets" / f"{preset}.toml").read_text())
                if isinstance(preset, str)
                else preset
            )
            figures = n if name == "default" else 50  # the tiny figure: N=50
            servers = {
                label: _FigureServer(tree, config, seed),
                "now": _FigureServer(repo, config, seed),
            }
            cpu = dict.fromkeys(servers, 0.0)
            try:
                for server in servers.values():
                    server.figure(0, timed=False)
                for index in range(figures):
                    order = list(servers) if index % 2 == 0 else list(servers)[::-1]
                    for which in order:
                        cpu[which] += servers[which].figure(index) or 0.0
            finally:
                for server in servers.values():
                    server.close()
            old, new = figures / cpu[label], figures / cpu["now"]
            print(
                f"figures per CPU second, {name} config, figures 0-{figures - 1} of seed {seed}: "
                f"{new:.2f} ({label}: {old:.2f}): {new / old:.2f}x"
            )


def _encoder_name(settings: PngSettings) -> str:
    if settings.encoder == "fpng":
        return "fpng"
    return f"{settings.encoder} level {settings.compress_level}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=30, help="figures for pipeline/bare; 0 skips")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--encoder", choices=PNG_ENCODERS, help="default: the config's")
    parser.add_argument("--level", type=int, help="compress level for pillow and zlib")
    parser.add_argument(
        "--workers-n", type=int, default=16, help="figures for the 1 vs 2 workers build; 0 skips"
    )
    parser.add_argument("--workers-seed", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=1, help="paired 1/2-worker builds")
    parser.add_argument(
        "--sizes", type=int, nargs="*", default=[], help="figure counts for the scale part"
    )
    parser.add_argument("--scale-config", choices=SCALE_CONFIGS, default="tiny")
    parser.add_argument(
        "--per-kind", type=int, default=0, help="figures of each kind alone; 0 skips"
    )
    parser.add_argument(
        "--against",
        metavar="REV",
        help="also time git revision REV's figures per CPU second beside this tree's, "
        "default and tiny configs (e.g. 279d3dc, main when the build-speed issue was filed)",
    )
    parser.add_argument("--bare-child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    image: dict[str, object] = {}
    if args.encoder:
        image["png_encoder"] = args.encoder
    if args.level is not None:
        image["png_compress_level"] = args.level
    cfg = config_from_dict({"image": image})
    if args.bare_child:
        bare_child(args.bare_child, args.seed, cfg)
        return
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print(f"load average (1, 5, 15 min) before: {load} on {os.cpu_count()} cores")
    if args.sizes:
        scale_report(args.sizes, args.seed, args.scale_config)
    if args.workers_n:
        workers_report(args.workers_n, args.workers_seed, args.repeats, cfg)
        ceiling_report(args.workers_n, args.workers_seed, args.repeats, cfg)
    if args.n:
        pipeline_report(args.n, args.seed, cfg)
    if args.per_kind:
        kinds_report(args.per_kind, args.seed, cfg)
    if args.against:
        against_report(args.against, args.n or 30, args.seed)


if __name__ == "__main__":
    main()
