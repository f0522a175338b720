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
completeness and independence (the brute force the tests use), on the largest scenario graph.
The last line is ``lucchesi-osborn speed-up over brute force: X``.

    python benchmarks/bench_multichart.py --repeat 3
"""

from __future__ import annotations

import argparse
import itertools
import time

import numpy as np

from figgen.config import FigureConfig
from figgen.multichart.build import _rng, sample_values
from figgen.multichart.graph import build_graph
from figgen.multichart.minimal import minimal_sets
from figgen.multichart.modes import MODES, plan_set
from figgen.multichart.questions import candidates, choose_questions
from figgen.multichart.render import render_image
from figgen.multichart.scenarios import load_scenario, scenario_names
from figgen.multichart.sufficiency import evidence_boxes, mode_facts, verify_mode


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
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
    name, graph = max(graphs.items(), key=lambda kv: len(kv[1].members))
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


if __name__ == "__main__":
    main()
