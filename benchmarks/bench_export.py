"""Time the commands that read a build against the floor of reading it, in one run.

Each command is timed next to the least any implementation must do for the same output, on
the same build, interleaved over ``--repeats`` rounds so machine load hits both alike:

- ``figgen qa``: rebuild qa.jsonl and descriptions.jsonl from the records, against parsing
  every record with ``json`` (the least a question builder reads);
- ``figgen export --format hf``: both configs as parquet shards plus the card, against
  reading every PNG and writing figure bytes and question rows with pyarrow, no card, no
  splits (the bytes a Hub folder must hold);
- ``--format vlmevalkit``: the two TSV files, against base64-encoding every PNG once;
- ``--format coco`` and ``--format lmms-eval``: seconds only (their floors are the two above).

Prints ``<command>/floor ratio: X.XX`` and seconds per figure; read the ratios, not the
seconds.

    python benchmarks/bench_export.py --data dataset --repeats 3
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from figgen.build.dataset import build_dataset
from figgen.config.load import FigureConfig
from figgen.export.coco import export_coco
from figgen.export.hf import export_hf
from figgen.harness.lmms.export import export_lmms_eval
from figgen.harness.vlmevalkit.export import export_vlmevalkit
from figgen.vqa.files import write_qa


def read_records(data: Path, _out: Path) -> None:
    for path in sorted((data / "figures").glob("*.json")):
        json.loads(path.read_text(encoding="utf-8"))


def bare_parquet(data: Path, out: Path) -> None:
    pngs = sorted((data / "figures").glob("*.png"))
    figures = pa.table({"id": [p.stem for p in pngs], "image": [p.read_bytes() for p in pngs]})
    with (data / "qa.jsonl").open(encoding="utf-8") as handle:
        rows = [json.loads(line) for line in handle if line.strip()]
    questions = pa.table(
        {
            "qid": [r["qid"] for r in rows],
            "question": [r["question"] for r in rows],
            "answer": [json.dumps(r["answer"]) for r in rows],
        }
    )
    out.mkdir(parents=True, exist_ok=True)
    pq.write_table(figures, out / "figures.parquet")
    pq.write_table(questions, out / "qa.parquet")


def bare_base64(data: Path, _out: Path) -> None:
    for path in sorted((data / "figures").glob("*.png")):
        base64.b64encode(path.read_bytes())


def qa_command(data: Path, _out: Path) -> None:
    write_qa(data)


COMMANDS: dict[str, tuple[Callable[[Path, Path], object], Callable[[Path, Path], None] | None]] = {
    "figgen qa": (qa_command, read_records),
    "export hf": (lambda d, o: export_hf(d, o), bare_parquet),
    "export vlmevalkit": (lambda d, o: export_vlmevalkit(d, o), bare_base64),
    "export coco": (lambda d, o: export_coco(d, o), None),
    "export lmms-eval": (lambda d, o: export_lmms_eval(d, o), None),
}


def timed(action: Callable[[Path, Path], object], data: Path, out: Path) -> float:
    start = time.perf_counter()
    action(data, out)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, help="a build (default: build --n figures)")
    parser.add_argument("--n", type=int, default=40, help="figures to build without --data")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average (1, 5, 15 min): {load} on {os.cpu_count()} cores")
    with tempfile.TemporaryDirectory(prefix="figgen-bench-export-") as tmp:
        work = Path(tmp)
        data = args.data
        if data is None:
            data = work / "build"
            build_dataset(
                data, n=args.n, seed=args.seed, workers=2, config=FigureConfig(), progress=False
            )
        n_figures = len(list((data / "figures").glob("*.png")))
        with (data / "qa.jsonl").open(encoding="utf-8") as handle:
            n_questions = sum(1 for line in handle if line.strip())
        print(f"{data}: {n_figures} figures, {n_questions} questions; best of {args.repeats}")
        seconds: dict[str, list[float]] = {name: [] for name in COMMANDS}
        floors: dict[str, list[float]] = {name: [] for name in COMMANDS}
        for round_ in range(args.repeats):
            for name, (command, floor) in COMMANDS.items():
                slug = name.replace(" ", "-")
                seconds[name].append(timed(command, data, work / f"{slug}-{round_}"))
                if floor is not None:
                    floors[name].append(timed(floor, data, work / f"{slug}-floor-{round_}"))
        for name in COMMANDS:
            best = min(seconds[name])
            line = f"{name}: {best:.2f} s ({1000 * best / n_figures:.1f} ms per figure"
            line += f", spread {statistics.pstdev(seconds[name]):.2f} s)"
            print(line)
            if floors[name]:
                print(f"{name}/floor ratio: {best / min(floors[name]):.2f}")


if __name__ == "__main__":
    main()
