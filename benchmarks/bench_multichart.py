"""Where a multi-chart set's time goes, and what the minimal-set algorithm saves.

For each shipped scenario, interleaved in one process so machine load hits every part alike:

- graph:   validate the spec, build the rules, enumerate every minimal generative set, plan the
           two modes (compensation and extended-context charts);
- data:    sample the minimal set, propagate, generate and choose the questions;
- render:  draw every chart of both modes with figgen's renderer (layout, boxes, PNG);
- verify:  read the values back from the records and re-derive every answer per mode, and the
           hops, nodes and evidence boxes of every question.

It prints seconds per set for each part and each part's share of the total, then times the
Lucchesi-Osborn enumeration against checking every subset of the equivalence classes for
completeness and independence (the brute force the tests use), on the largest scenario graph
of at most 16 classes (the brute force doubles with each class).

Then, also interleaved per scenario: the CPU seconds of ``build_set`` (everything above plus
writing the files) per chart against a bare matplotlib render of the same charts (their
specs from the records; ``bench_build.bare_render``): ``build cost per chart / bare render``.

Then a ``--sets``-set build (default 50, on every core) and its hop histogram per mode, beside
the paper's figures (its text gives the mean and range, 1.41 and 0-8, not the histogram); and
the run overhead per question with the offline mock provider (replies are instant, so this is
figgen's own time: images, prompts, history, rows) in conversation mode and in one call per
question, over the build's first ten sets.

    python benchmarks/bench_multichart.py --repeat 3 --sets 50
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np
from bench_build import bare_render

from figgen.config.load import FigureConfig
from figgen.eval.cost.prices import PriceTable
from figgen.eval.providers import MockProvider
from figgen.eval.run.dataset import load_dataset
from figgen.eval.run.runner import RunOptions, run_questions
from figgen.multichart.build import _rng, build_set, build_sets, sample_values
from figgen.multichart.conversation import run_conversations
from figgen.multichart.graph import build_graph
from figgen.multichart.minimal import minimal_sets
from figgen.multichart.modes import MODES, plan_set
from figgen.multichart.questions import candidates, choose_questions
from figgen.multichart.records import load_sets
from figgen.multichart.render import render_image
from figgen.multichart.scenarios import load_scenario, scenario_names
from figgen.multichart.sufficiency import evidence_boxes, mode_facts, verify_mode
from figgen.render.png import PngSettings
from figgen.schema.record import open_record, spec_from_record


def one_set(name: str, seed: int, cfg: FigureConfig) -> dict[str, float]:
    times: dict[str, float] = {}
    start = time.perf_counter()
    spec = load_scenario(name)
    plan = plan_set(spec)
    times["graph"] = time.perf_counter() - start

    start = time.perf_counter()
    values = sample_values(plan, _rng(seed, 0, "values"), cfg)
    rng = _rng(seed, 0, "questions")
    asks = choose_questions(candidates(plan.graph, values, rng), spec.questions, rng)
    times["data"] = time.perf_counter() - start

    start = time.perf_counter()
    images = [i for i in plan.graph.images if any(i in plan.modes[m] for m in MODES)]
    records = {
        image: render_image(
            plan.graph, image, values, seed=seed, index=k, file_id=image, image_file=image
        ).record
        for k, image in enumerate(images)
    }
    times["render"] = time.perf_counter() - start

    start = time.perf_counter()
    for mode in MODES:
        verify_mode(plan.graph, plan.modes[mode], records, asks)
        for ask in asks:
            evidence_boxes(plan.graph, mode_facts(plan.graph, plan.modes[mode], ask), records)
    times["verify"] = time.perf_counter() - start
    return times


def brute_force(graph: object) -> int:
    g = graph
    reps = [m[0] for m in g.members]  # type: ignore[attr-defined]
    found = 0
    for size in range(1, len(reps) + 1):
        for combo in itertools.combinations(reps, size):
            if set(g.order) <= g.closure(combo) and all(  # type: ignore[attr-defined]
                c not in g.closure([x for x in combo if x != c])  # type: ignore[attr-defined]
                for c in combo
            ):
                found += 1
    return found


def build_against_bare(name: str, seed: int, cfg: FigureConfig) -> tuple[float, float, int]:
    """CPU seconds of building one set, of bare renders of its charts, and the chart count."""
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder)
        (out / "images").mkdir()
        start = time.process_time()
        build_set(load_scenario(name), seed=seed, index=0, out=out, cfg=cfg)
        built = time.process_time() - start
        settings = PngSettings.of(cfg.image)
        records = [open_record(p) for p in sorted((out / "images").glob("*.json"))]
        bare = sum(bare_render(spec_from_record(r), settings)[0] for r in records)
    return built, bare, len(records)


PAPER = {"hops_mean": 1.41, "hops_range": (0, 8), "images_mean": 6.5, "images_range": (3, 18)}


def hop_histogram(root: Path) -> None:
    sets = load_sets(root)
    questions = [q for s in sets for q in s.questions]
    print(f"{len(sets)} sets, {len(questions)} questions per mode; hops (questions per hop count):")
    print("  hops " + " ".join(f"{h:>5d}" for h in range(9)) + "   mean  max")
    for mode in MODES:
        counts = Counter(q.modes[mode].hops for q in questions)
        hops = [q.modes[mode].hops for q in questions]
        row = " ".join(f"{counts.get(h, 0):5d}" for h in range(9))
        print(f"  {mode:11s}{row}  {np.mean(hops):5.2f}  {max(hops):3d}")
    both = [q.modes[m].hops for q in questions for m in MODES]
    images = [len(s.modes["extended"]) for s in sets]
    low, high = PAPER["hops_range"]
    print(
        f"  figgen, both modes: mean {np.mean(both):.2f}, range {min(both)}-{max(both)}; "
        f"the paper: mean {PAPER['hops_mean']}, range {low}-{high} (no histogram in its text)"
    )
    low, high = PAPER["images_range"]
    print(
        f"  images per set (extended): mean {np.mean(images):.1f}, range {min(images)}-"
        f"{max(images)}; the paper: mean {PAPER['images_mean']}, range {low}-{high}"
    )


def run_overhead(root: Path, n_sets: int = 10) -> tuple[float, float, int]:
    """Seconds per question of a mock run in conversation mode and one call per question."""
    dataset = load_dataset(root)
    figures = {f"{s.id}-{m}" for s in load_sets(root, n_sets) for m in MODES}
    items = [i for i in dataset.items if i.figure_id in figures]
    reply = json.dumps({"LLM_answer_initial": 1, "LLM_answer_final": 1})
    seconds = []
    with tempfile.TemporaryDirectory() as folder:
        for k, runner in enumerate((run_conversations, run_questions)):
            provider = MockProvider("bench", answer=lambda prompt: reply)
            start = time.perf_counter()
            options = RunOptions(
                "mock:bench",
                Path(folder) / f"{k}.jsonl",
                prices=PriceTable({}),
                free=True,
                progress=False,
            )
            asyncio.run(runner(dataset, items, provider, options))
            seconds.append((time.perf_counter() - start) / len(items))
    return seconds[0], seconds[1], len(items)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--sets", type=int, default=50, help="Sets of the hop-histogram build.")
    args = parser.parse_args()
    cfg = FigureConfig()
    totals: dict[str, list[float]] = {}
    for r in range(args.repeat):
        for name in scenario_names():
            for part, seconds in one_set(name, args.seed + r, cfg).items():
                totals.setdefault(part, []).append(seconds)
    n = len(next(iter(totals.values())))
    whole = sum(sum(v) for v in totals.values())
    print(f"{n} sets ({len(scenario_names())} scenarios x {args.repeat}), seconds per set:")
    for part, values in totals.items():
        print(f"  {part:7s} {np.mean(values):7.3f} s  ({sum(values) / whole:.1%} of the total)")

    graphs = {name: build_graph(plan_set(load_scenario(name)).spec) for name in scenario_names()}
    small = {k: g for k, g in graphs.items() if len(g.members) <= 16}
    name, graph = max(small.items(), key=lambda kv: len(kv[1].members))
    start = time.perf_counter()
    result = minimal_sets(graph)
    fast = time.perf_counter() - start
    start = time.perf_counter()
    count = brute_force(graph)
    slow = time.perf_counter() - start
    print(
        f"{name}: {len(graph.members)} equivalence classes, "
        f"{1 + len(result.alternatives)} minimal generative sets (brute force finds {count})"
    )
    print(f"lucchesi-osborn {fast * 1000:.1f} ms, brute force {slow * 1000:.0f} ms")
    print(f"lucchesi-osborn speed-up over brute force: {slow / fast:.0f}")

    built = bare = 0.0
    charts = 0
    for r in range(args.repeat):
        for name in scenario_names():
            b, plain, n = build_against_bare(name, args.seed + r, cfg)
            built, bare, charts = built + b, bare + plain, charts + n
    print(
        f"{charts} charts: build {built / charts:.3f} CPU s per chart, bare render "
        f"{bare / charts:.3f} s; build cost per chart / bare render: {built / bare:.2f}"
    )

    with tempfile.TemporaryDirectory() as folder:
        root = Path(folder) / "mc"
        start = time.perf_counter()
        build_sets(root, n=args.sets, seed=args.seed, workers=os.cpu_count() or 1)
        print(f"{args.sets}-set build: {time.perf_counter() - start:.0f} s wall on every core")
        hop_histogram(root)
        conversation, single, n = run_overhead(root)
        print(
            f"run overhead per question over {n} questions (mock provider): conversation "
            f"{conversation * 1000:.1f} ms, one call per question {single * 1000:.1f} ms"
        )


if __name__ == "__main__":
    main()
