"""Time the reference descriptions against the questions built from the same records.

describe:  ``describe_record`` (spoken text, names, readings, hedged Level 3, alt text).
questions: ``questions_for_record`` on the same record, the step every build already pays.
spoken:    ``figgen.words.spoken.spoken`` on every title and label, cache cleared, against
           pylatexenc's plain ``LatexNodes2Text`` on the same strings (what the LaTeX-normalised
           CER uses), also uncached.

Each pair runs interleaved in this process and is timed in CPU seconds of this process, so load
from other processes changes both alike; the ratios are the numbers to compare across machines::

    descriptions per CPU second: X    (figures described per CPU second)
    describe/questions ratio: X.XX
    spoken/plain-pylatexenc ratio: X.XX

Records are the build's in ``--data DIR`` (real, measured figures), else composed from
``--config`` specs without rendering.

    python benchmarks/bench_describe.py --n 200 --seed 5 --config small
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path
from typing import Any

from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig, load_config
from figgen.eval.scoring.metrics import normalize_text
from figgen.schema.record import Record, make_record, open_record
from figgen.vqa import describe_record, questions_for_record
from figgen.words.spoken import spoken


def composed(n: int, seed: int, config: FigureConfig) -> list[Record]:
    return [
        make_record(
            sample_figure(config, seed, i),
            elements=[],
            width=0,
            height=0,
            repair={},
            generator_version="bench",
            image_file="unrendered.png",
        )
        for i in range(n)
    ]


def cpu(call: Any, *args: Any) -> float:
    start = time.process_time()
    call(*args)
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--config", default="small", help="a preset name or a config file")
    parser.add_argument("--data", type=Path, help="a build folder to read records from")
    args = parser.parse_args()
    if args.data:
        paths = sorted((args.data / "figures").glob("*.json"))[: args.n]
        records = [open_record(p) for p in paths]
    else:
        records = composed(args.n, args.seed, load_config(args.config))

    describe = questions = 0.0
    for record in records:  # interleaved: load changes both alike
        describe += cpu(describe_record, record)
        questions += cpu(questions_for_record, record)

    texts = [t for r in records for p in r.panels for t in (p.title, p.xlabel, p.ylabel) if t]
    spoken_time = plain_time = 0.0
    for text in texts:
        spoken.cache_clear()
        normalize_text.cache_clear()
        spoken_time += cpu(spoken, text)
        plain_time += cpu(normalize_text, text)

    panels = sum(len(r.panels) for r in records)
    print(f"records: {len(records)} figures, {panels} panels, {len(texts)} titles and labels")
    print(f"descriptions per CPU second: {len(records) / describe:.1f}")
    print(f"describe/questions ratio: {describe / questions:.2f}")
    print(f"spoken/plain-pylatexenc ratio: {spoken_time / plain_time:.2f}")


if __name__ == "__main__":
    main()
