"""Time perturbations and grounding scores against the work they sit on, in one run.

perturb:  for every perturbation kind, plan + apply + encode one figure, against the copy
          baseline (decode the PNG and encode it again), interleaved figure by figure so that
          machine load hits both alike; prints ``<kind>/copy ratio: X.XX``.
scoring:  scoring an oracle's grounded (pointed) replies including the location scores
          (box/point parsing, mDIoU or Chamfer) against scoring the same answers plainly;
          prints ``grounded scoring/plain scoring ratio: X.XX``.

    python benchmarks/bench_grounding.py --data dataset --figures 20
"""

from __future__ import annotations

import argparse
import asyncio
import io
import tempfile
import time
from pathlib import Path

from PIL import Image

from figgen.eval.cost.prices import PriceTable
from figgen.eval.providers import make_provider
from figgen.eval.report.aggregate import score_rows
from figgen.eval.report.grounding import location_scores
from figgen.eval.run.dataset import load_dataset
from figgen.eval.run.prompt import locatable
from figgen.eval.run.runner import RunOptions, run_questions
from figgen.perturb import KINDS, apply_plan, parse_kinds, plan_figure
from figgen.schema.answers import read_answers
from figgen.schema.record import open_record


def _copy(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.convert("RGB").save(buffer, format="PNG")
    return buffer.getvalue()


def bench_perturb(data: Path, figures: int) -> None:
    specs = parse_kinds(",".join(KINDS))
    totals = {spec.label: 0.0 for spec in specs}
    copy = 0.0
    paths = sorted((data / "figures").glob("*.json"))[:figures]
    for path in paths:
        record = open_record(path)
        with Image.open(data / record.image.file) as opened:
            opened.load()
            started = time.perf_counter()
            _copy(opened)
            copy += time.perf_counter() - started
            for spec in specs:
                started = time.perf_counter()
                apply_plan(opened, plan_figure(opened, record, spec, seed=0))
                totals[spec.label] += time.perf_counter() - started
    print(f"{len(paths)} figures; copy (decode + PNG encode): {copy / len(paths):.3f} s/figure")
    for label, seconds in totals.items():
        print(f"{label}/copy ratio: {seconds / copy:.2f}")


def bench_scoring(data: Path, repeats: int) -> None:
    dataset = load_dataset(data)
    with tempfile.TemporaryDirectory() as tmp:
        for mode in ("grounded", "pointed"):
            items = [i for i in dataset.items if locatable(i, dataset.record(i.figure_id), mode)]
            out = Path(tmp) / f"{mode}.jsonl"
            asyncio.run(
                run_questions(
                    dataset,
                    items,
                    make_provider("oracle"),
                    RunOptions(
                        "oracle",
                        out,
                        prices=PriceTable({}),
                        progress=False,
                        announce=lambda _: None,
                        free=True,
                        mode=mode,
                    ),
                )
            )
            rows = read_answers(out)
            plain = located = 0.0
            for _ in range(repeats):
                started = time.perf_counter()
                answers = score_rows(dataset, rows)
                plain += time.perf_counter() - started
                started = time.perf_counter()
                location_scores(dataset, score_rows(dataset, rows))
                located += time.perf_counter() - started
            per = 1e6 * located / repeats / len(rows)
            print(f"{mode}: {len(answers)} answers, {per:.0f} us per answer with location")
            print(f"{mode} scoring/plain scoring ratio: {located / plain:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", type=Path, required=True, help="a built dataset")
    parser.add_argument("--figures", type=int, default=10, help="figures to perturb")
    parser.add_argument("--repeats", type=int, default=3, help="scoring repeats")
    args = parser.parse_args()
    bench_perturb(args.data, args.figures)
    bench_scoring(args.data, args.repeats)


if __name__ == "__main__":
    main()
