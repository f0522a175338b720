"""Which questions a person answers: a seeded sample stratified by level, family and panels.

The sample interleaves strata rather than drawing in proportion: levels take turns, within a
level its families take turns, within a family its panel counts take turns, and each turn
takes the next of that stratum's shuffled questions. So a sample of 40 from a build where
one family holds half the questions still covers every family and panel count it can, which
is what a per-family human baseline needs. The same build, size and seed give the same
sample, so two people given the same ``--sample`` and ``--seed`` answer the same items.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from figgen.errors import FiggenError
from figgen.eval.run.dataset import EvalDataset
from figgen.schema.qa_item import QAItem
from figgen.store.storage import atomic_write_text

T = TypeVar("T")


def interleave(
    values: Sequence[T], keys: Sequence[Callable[[T], Hashable]], rng: random.Random
) -> list[T]:
    """``values`` ordered so the groups of ``keys[0]`` take turns, recursively for the rest.

    Groups are visited in a seeded random order and the values of the last grouping are
    shuffled, so any prefix of the result is as balanced over every key as it can be.
    """
    if not keys:
        shuffled = list(values)
        rng.shuffle(shuffled)
        return shuffled
    groups: dict[Hashable, list[T]] = {}
    for value in values:
        groups.setdefault(keys[0](value), []).append(value)
    names = sorted(groups, key=repr)  # a fixed order first, so the seed alone decides
    rng.shuffle(names)
    queues = [interleave(groups[name], keys[1:], rng) for name in names]
    out: list[T] = []
    depth = 0
    while len(out) < len(values):
        out.extend(queue[depth] for queue in queues if depth < len(queue))
        depth += 1
    return out


def stratified_sample(dataset: EvalDataset, size: int, seed: int) -> list[QAItem]:
    """``size`` questions balanced over level, then family, then panel count, in shown order."""
    if size < 1:
        raise FiggenError(f"--sample {size} must be at least 1")
    if not dataset.items:
        raise FiggenError(f"{dataset.root}/qa.jsonl holds no questions; build with questions")
    rng = random.Random(seed)
    ordered = interleave(
        dataset.items,
        [
            lambda item: item.level,
            lambda item: item.family,
            lambda item: dataset.n_panels(item.figure_id) or 0,
        ],
        rng,
    )
    chosen = ordered[:size]
    rng.shuffle(chosen)  # shown in random order, so no family comes in a block
    return chosen


@dataclass(frozen=True)
class StudyPlan:
    """What a study was started with; kept beside the answers so a restart asks the same."""

    data: str
    sample: int
    seed: int
    qids: list[str]

    def to_dict(self) -> dict[str, Any]:
        return {"data": self.data, "sample": self.sample, "seed": self.seed, "qids": self.qids}


def plan_path(answers: Path) -> Path:
    """``human-ana.jsonl`` -> ``human-ana.sample.json`` (not matched by ``*.jsonl``)."""
    return answers.with_name(answers.stem + ".sample.json")


def load_or_start_plan(dataset: EvalDataset, answers: Path, size: int, seed: int) -> StudyPlan:
    """The study's plan: the saved one when it matches these options, else a new one.

    Raises a one-line error when the answers file belongs to a study started with another
    sample, seed or build, since continuing would mix two samples in one file.
    """
    items = stratified_sample(dataset, size, seed)
    plan = StudyPlan(dataset.root.resolve().name, size, seed, [item.qid for item in items])
    path = plan_path(answers)
    if path.is_file():
        try:
            saved = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            raise FiggenError(
                f"{path} is damaged; delete it and the answers, or use another --out"
            ) from None
        if (saved.get("sample"), saved.get("seed")) != (size, seed):
            raise FiggenError(
                f"{answers} belongs to a study started with --sample {saved.get('sample')} "
                f"--seed {saved.get('seed')}; pass those again or use another --out"
            )
        if saved.get("qids") != plan.qids:
            raise FiggenError(
                f"{answers} belongs to a study of another build (its questions differ); "
                "pass that build or use another --out"
            )
        return plan
    answers.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(plan.to_dict(), indent=1) + "\n")
    return plan


def sample_counts(items: list[QAItem], dataset: EvalDataset) -> dict[str, dict[str, int]]:
    """How many sampled questions fall in each level, family and panel count (for the log)."""
    counts: dict[str, dict[str, int]] = {"level": {}, "family": {}, "panels": {}}
    for item in items:
        for name, key in (
            ("level", str(item.level)),
            ("family", item.family),
            ("panels", str(dataset.n_panels(item.figure_id))),
        ):
            counts[name][key] = counts[name].get(key, 0) + 1
    return counts
