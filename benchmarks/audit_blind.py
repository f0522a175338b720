"""Audit a build for questions a blind reader can answer: baselines that never see the image.

``python benchmarks/audit_blind.py --n 150 --seed 31`` builds (or resumes) the default build
of that size and seed, makes its questions with this figgen, fits the blind baselines of
:mod:`figgen.eval.blind` (majority, masked-template majority, TF-IDF + logistic regression,
choice prior) with 5-fold cross-validation grouped by figure, scores their answers with
figgen's scorer and prints, per family: questions, chance, each baseline's accuracy, the best
and its lift over chance. Then the families where a blind baseline beats chance by more than
10 points, the ones docs/vqa.md names as fixed by the paper's distribution apart, and last
the accuracy of the choice prior on ``colormap`` (1/choices when the distractors do not leak).

``--qa FILE`` audits the questions of that ``qa.jsonl`` (or of a build folder's) instead (e.g.
made by another figgen version from the same records); ``--out`` keeps the build somewhere else
than the temp folder.
"""

from __future__ import annotations

import argparse
import tempfile
from collections import defaultdict
from pathlib import Path

from figgen.build.dataset import build_dataset
from figgen.eval.blind.compare import chance_accuracy, correct
from figgen.eval.blind.fit import FOLDS, cross_fit
from figgen.eval.blind.models import BASELINES, answer_class
from figgen.schema.qa_item import QAItem, read_items
from figgen.schema.record import open_record
from figgen.vqa import questions_for_record
from figgen.vqa.api.balance import FIXED_BY_PAPER
from figgen.vqa.files import record_paths

MARGIN = 0.10
"""A blind baseline more than this above chance means a family can be gamed."""

TOO_FEW = 30
"""Below this many questions a family's blind accuracy is mostly noise: listed apart."""


def build_items(out: Path, n: int, seed: int, workers: int) -> list[QAItem]:
    """The build's questions, made by this figgen from its records."""
    build_dataset(out, n=n, seed=seed, workers=workers, progress=False, questions=False)
    items: list[QAItem] = []
    for path in record_paths(out)[:n]:
        items += questions_for_record(open_record(path))
    return items


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=150)
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--folds", type=int, default=FOLDS)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--qa", type=Path, default=None)
    args = parser.parse_args()
    out = args.out or Path(tempfile.gettempdir()) / f"figgen-audit-blind-n{args.n}-s{args.seed}"
    if args.qa:  # a qa.jsonl, or a build folder holding one
        items = list(read_items(args.qa / "qa.jsonl" if args.qa.is_dir() else args.qa))
    else:
        items = build_items(out, args.n, args.seed, args.workers)
    predictions = cross_fit(items, folds=args.folds)

    families: dict[str, list[QAItem]] = defaultdict(list)
    for item in items:
        families[item.family].append(item)
    header = ["family", "n", "classes", "chance", *BASELINES, "best", "lift"]
    print(f"{len(items)} questions in {len({i.figure_id for i in items})} figures; "
          f"{args.folds}-fold cross-validation grouped by figure")  # fmt: skip
    print(" | ".join(header))
    gamed: list[str] = []
    fixed: list[str] = []
    small: list[str] = []
    results: dict[str, dict[str, float]] = {}
    for family in sorted(families):
        group = families[family]
        classes = len({answer_class(item) for item in group})
        chance = chance_accuracy(group, classes)
        scores = {
            name: sum(correct(item, predictions[name].get(item.qid)) for item in group) / len(group)
            for name in BASELINES
            if any(predictions[name].get(item.qid) is not None for item in group)
        }
        if not scores:  # no baseline could be fitted (e.g. every question in one fold's figures)
            print(" | ".join([family, str(len(group)), str(classes), "no blind answers"]))
            continue
        best = max(scores.values())
        lift = best - (chance or 0.0)
        results[family] = scores
        cells = [f"{scores[name]:.3f}" if name in scores else "–" for name in BASELINES]
        chance_text = "–" if chance is None else f"{chance:.3f}"
        print(" | ".join([family, str(len(group)), str(classes), chance_text, *cells,
                          f"{best:.3f}", f"{lift:+.3f}"]))  # fmt: skip
        if lift > MARGIN:
            if family in FIXED_BY_PAPER:
                fixed.append(family)
            else:
                (small if len(group) < TOO_FEW else gamed).append(family)
    print(f"gamed beyond chance: {', '.join(gamed) or 'none'}")
    print(f"beyond chance with under {TOO_FEW} questions (too few to measure): "
          f"{', '.join(small) or 'none'}")  # fmt: skip
    print(
        f"fixed by the paper's distribution (docs/vqa.md), beyond chance: "
        f"{', '.join(fixed) or 'none'}"
    )
    print(f"families where a blind baseline beats chance by more than 10 points: {len(gamed)}")
    colormap = results.get("colormap", {}).get("choice")
    print(f"colormap choice-prior accuracy: {'n/a' if colormap is None else f'{colormap:.3f}'}")


if __name__ == "__main__":
    main()
