"""Question-building time of this checkout against another source tree, on one build's records.

``python benchmarks/bench_questions.py DIR BASELINE_SRC [--rounds 3]`` times
``questions_for_record`` over every record of ``DIR/figures`` in a child process per variant
(this checkout, then ``BASELINE_SRC`` on ``PYTHONPATH``, e.g. ``git archive main`` unpacked),
alternating for ``--rounds`` rounds, and prints each variant's median CPU seconds and their ratio.
Measured in one run on a shared machine, so only the ratio means much.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

CHILD = """
import json, sys, time
from pathlib import Path
from figgen.vqa import questions_for_record
records = [json.loads(p.read_text()) for p in sorted(Path(sys.argv[1]).glob("figures/*.json"))]
start = time.process_time()
n = sum(len(questions_for_record(r)) for r in records)
print(time.process_time() - start, n)
"""


def _time(folder: Path, pythonpath: str | None) -> tuple[float, int]:
    env = dict(os.environ)
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    # run in the build folder: with ``-c`` the working directory comes first on sys.path
    command = [sys.executable, "-c", CHILD, str(folder.resolve())]
    done = subprocess.run(command, env=env, cwd=folder, capture_output=True, text=True, check=True)
    out = done.stdout.split()
    return float(out[0]), int(out[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("baseline", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    here, there = [], []
    for _ in range(args.rounds):
        seconds, n_here = _time(args.folder, str(Path(__file__).resolve().parents[1]))
        here.append(seconds)
        seconds, n_there = _time(args.folder, str(args.baseline.resolve()))
        there.append(seconds)
    a, b = statistics.median(here), statistics.median(there)
    print(f"this checkout: {a:.2f} s CPU, {n_here} questions")
    print(f"baseline:      {b:.2f} s CPU, {n_there} questions")
    print(f"ratio this / baseline: {a / b:.2f}")


if __name__ == "__main__":
    main()
