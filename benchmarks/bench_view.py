"""Time writing the viewer page against just reading the build it shows.

read:  load every figure record and qa.jsonl with ``json`` (what any viewer must read).
page:  ``figgen view DIR --answers ORACLE --out PAGE``'s work: read, trim, score the answers
       with figgen's parser and scorer, serialise and write the page.

Both run in this process on the same build, interleaved, so machine load hits both alike. The
build is made first (``--n`` figures of the small test config) unless ``--data`` names one.
The last line is ``page/read ratio: X.XX``.

    python benchmarks/bench_view.py --n 12 --repeats 5
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from figgen.build.dataset import build_dataset
from figgen.config.load import load_config
from figgen.schema.answers import AnswerRow
from figgen.view import write_view


def read_build(root: Path) -> int:
    records = [json.loads(p.read_text()) for p in sorted((root / "figures").glob("*.json"))]
    with (root / "qa.jsonl").open() as handle:
        items = [json.loads(line) for line in handle if line.strip()]
    return len(records) + len(items)


def oracle_answers(root: Path, out: Path) -> Path:
    with (root / "qa.jsonl").open() as source, out.open("w") as sink:
        for line in source:
            item = json.loads(line)
            raw = json.dumps({item["answer_key"]: item["answer"]})
            sink.write(json.dumps(AnswerRow(item["qid"], "oracle", raw).to_dict()) + "\n")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="an existing build (default: build one)")
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = args.data or Path(tmp) / "build"
        if args.data is None:
            build_dataset(
                root,
                n=args.n,
                seed=args.seed,
                workers=1,
                config=load_config("small"),
                progress=False,
            )
        answers = oracle_answers(root, Path(tmp) / "oracle.jsonl")
        page = Path(tmp) / "view.html"
        reads, pages = [], []
        for _ in range(args.repeats):
            start = time.perf_counter()
            read_build(root)
            reads.append(time.perf_counter() - start)
            start = time.perf_counter()
            write_view(root, page, answers=[answers])
            pages.append(time.perf_counter() - start)
        n_figures = len(list((root / "figures").glob("*.json")))
        n_items = sum(1 for _ in (root / "qa.jsonl").open())
        read_s, page_s = statistics.median(reads), statistics.median(pages)
        print(
            f"{n_figures} figures, {n_items} questions, page {page.stat().st_size / 1e6:.2f} MB"
            f" ({page.stat().st_size / n_figures / 1e3:.0f} kB per figure)"
        )
        print(
            f"read: {read_s * 1e3:.0f} ms   page: {page_s * 1e3:.0f} ms (medians of {args.repeats})"
        )
        print(f"page/read ratio: {page_s / read_s:.2f}")


if __name__ == "__main__":
    main()
