"""Hash every output of a fixed set of commands, to prove a change leaves them byte-identical.

Runs, through the command line (``python -m figgen``) so that it works on any layout of the
package:

- ``build --n 20 --seed 0`` (default config) and ``build --n 10 --seed 32 --config longchart``;
- ``qa`` on a copy of the default build (questions rebuilt from the records alone);
- every export format of the default build (``hf``, ``coco``, ``lmms-eval``, ``vlmevalkit``,
  ``sft``);
- ``eval run --model oracle`` and ``--model chance`` on it, then ``eval score`` of both;
- ``multichart build --sets 4 --seed 1`` with an oracle ``eval run`` and ``multichart score``;
- ``density build --k 1,3`` (paper mode) from the default build, an oracle ``density run`` and
  ``density score``;

then writes ``path sha256`` per file (sorted) to ``--write FILE`` or compares with
``--against FILE``, printing what differs and, last, ``files that differ: N``.

Clock readings are not outputs: JSON files are hashed without keys that hold latencies
(``VOLATILE_KEYS``) and with rows of dicts sorted, answer rows in qid order (they are appended as
calls finish), the lmms-eval task with its folder's path masked, and the two multichart report files
that print latencies (``VOLATILE_FILES``) are left out.

    python benchmarks/reference_outputs.py --out /tmp/ref --write /tmp/ref.sha256
    python benchmarks/reference_outputs.py --out /tmp/ref2 --against /tmp/ref.sha256
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

VOLATILE_KEYS = ("latency_s", "mean_latency_s", "seconds", "seconds_per_question")
"""Keys of answer rows and reports whose values are clock readings, dropped before hashing."""
VOLATILE_FILES = ("report-sets/report.md", "report-sets/cost_performance.png")
"""Reports that print or plot latencies."""


def figgen(*args: str | Path) -> None:
    command = [sys.executable, "-m", "figgen", *map(str, args)]
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"failed ({done.returncode}): {' '.join(command)}\n{done.stderr[-3000:]}")
    print(f"{time.perf_counter() - started:7.1f} s  figgen {' '.join(map(str, args))}")


def run_all(out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    base, long = out / "base", out / "longchart"
    figgen("build", "--n", 20, "--seed", 0, "--out", base, "--workers", 2, "--no-progress")
    figgen(
        "build", "--n", 10, "--seed", 32, "--config", "longchart", "--out", long,
        "--workers", 2, "--no-progress",
    )  # fmt: skip
    shutil.copytree(base, out / "qa", ignore=shutil.ignore_patterns("qa.jsonl", "descriptions*"))
    figgen("qa", out / "qa")
    for fmt in ("hf", "coco", "lmms-eval", "vlmevalkit", "sft"):
        figgen("export", base, "--format", fmt, "--out", out / f"export-{fmt}")
    for model in ("oracle", "chance"):
        figgen(
            "eval", "run", "--data", base, "--model", model,
            "--out", out / f"answers-{model}.jsonl", "--no-progress",
        )  # fmt: skip
    figgen(
        "eval", "score", "--data", base, "--answers", out / "answers-oracle.jsonl",
        "--answers", out / "answers-chance.jsonl", "--out", out / "report",
    )  # fmt: skip
    sets = out / "multichart"
    figgen("multichart", "build", "--sets", 4, "--seed", 1, "--out", sets, "--no-progress")
    figgen(
        "eval", "run", "--data", sets, "--model", "oracle",
        "--out", out / "answers-sets.jsonl", "--no-progress",
    )  # fmt: skip
    figgen(
        "multichart", "score", "--data", sets, "--answers", out / "answers-sets.jsonl",
        "--out", out / "report-sets",
    )  # fmt: skip
    density = out / "density"
    figgen("density", "build", "--source", base, "--out", density, "--k", "1,3", "--no-progress")
    figgen(
        "density", "run", "--data", density, "--model", "oracle",
        "--out", out / "answers-density.jsonl", "--no-progress",
    )  # fmt: skip
    figgen(
        "density", "score", "--data", density, "--answers", out / "answers-density.jsonl",
        "--out", out / "report-density",
    )  # fmt: skip


def _without_clock(value: object) -> object:
    if isinstance(value, dict):
        return {k: _without_clock(v) for k, v in value.items() if k not in VOLATILE_KEYS}
    if isinstance(value, list):  # rows of a report follow the answers' order, which is the clock's
        rows = [_without_clock(v) for v in value]
        return sorted(rows, key=json.dumps) if all(isinstance(r, dict) for r in rows) else rows
    return value


def digest(path: Path, out: Path) -> str:
    data = path.read_bytes()
    if path.suffix == ".jsonl" and path.name.startswith("answers"):
        rows = [json.loads(line) for line in data.decode("utf-8").splitlines() if line.strip()]
        rows.sort(key=lambda row: json.dumps(row.get("qid", row.get("id")), sort_keys=True))
        data = json.dumps([_without_clock(r) for r in rows], sort_keys=True).encode()
    elif path.suffix == ".json" and path.parent.name.startswith("report"):
        data = json.dumps(_without_clock(json.loads(data)), sort_keys=True).encode()
    elif path.suffix == ".yaml":
        data = data.replace(str(out).encode(), b"OUT")
    return hashlib.sha256(data).hexdigest()


def hashes(out: Path) -> dict[str, str]:
    return {
        str(path.relative_to(out)): digest(path, out)
        for path in sorted(out.rglob("*"))
        if path.is_file()
        and "__pycache__" not in path.parts
        and str(path.relative_to(out)) not in VOLATILE_FILES
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="folder for the outputs")
    parser.add_argument("--write", type=Path, help="write the hashes here")
    parser.add_argument("--against", type=Path, help="compare with hashes written earlier")
    parser.add_argument("--reuse", action="store_true", help="hash --out as it is, run nothing")
    args = parser.parse_args()
    if not args.reuse:
        run_all(args.out)
    found = hashes(args.out)
    if args.write:
        args.write.write_text("".join(f"{p} {h}\n" for p, h in found.items()), encoding="utf-8")
        print(f"{len(found)} files hashed into {args.write}")
    if args.against:
        known = dict(
            line.rsplit(" ", 1) for line in args.against.read_text(encoding="utf-8").splitlines()
        )
        differ = sorted(p for p in known.keys() | found.keys() if known.get(p) != found.get(p))
        for path in differ:
            state = "missing" if path not in found else "new" if path not in known else "differs"
            print(f"{state}: {path}")
        print(f"files compared: {len(known.keys() | found.keys())}")
        print(f"files that differ: {len(differ)}")


if __name__ == "__main__":
    main()
