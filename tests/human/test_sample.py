"""The stratified sample: balanced over level, then family, then panel count; seeded."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from figgen.errors import FiggenError
from figgen.eval.run.dataset import load_dataset
from figgen.human.sample import interleave, load_or_start_plan, plan_path, stratified_sample


def test_interleave_takes_turns_between_groups() -> None:
    values = ["a1", "a2", "a3", "a4", "b1", "c1", "c2"]
    ordered = interleave(values, [lambda v: v[0]], random.Random(0))
    assert sorted(ordered) == sorted(values)
    # every prefix of 3 holds one of each letter; then b is used up and a, c alternate
    assert {v[0] for v in ordered[:3]} == {"a", "b", "c"}
    assert {v[0] for v in ordered[3:5]} == {"a", "c"}
    assert ordered[5:] == [v for v in ordered[5:] if v[0] == "a"]


def _assert_fair(got: Counter, have: Counter) -> None:
    """Two groups' shares differ by more than one only when the smaller ran out."""
    for small in have:
        for large in have:
            if got[large] > got[small] + 1:
                assert got[small] == have[small], (small, large, got, have)


@pytest.mark.parametrize("size", [10, 30, 60])
def test_sample_is_balanced_over_level_family_and_panels(built: Path, size: int) -> None:
    dataset = load_dataset(built)
    chosen = stratified_sample(dataset, size, seed=4)
    assert len(chosen) == size == len({i.qid for i in chosen})
    levels = Counter(i.level for i in dataset.items)
    _assert_fair(Counter(i.level for i in chosen), levels)
    for level in levels:
        in_level = [i for i in dataset.items if i.level == level]
        picked = [i for i in chosen if i.level == level]
        families = Counter(i.family for i in in_level)
        _assert_fair(Counter(i.family for i in picked), families)
        for family in families:
            _assert_fair(
                Counter(dataset.n_panels(i.figure_id) for i in picked if i.family == family),
                Counter(dataset.n_panels(i.figure_id) for i in in_level if i.family == family),
            )


def test_sample_is_seeded_and_capped(built: Path) -> None:
    dataset = load_dataset(built)
    first = [i.qid for i in stratified_sample(dataset, 20, seed=1)]
    assert first == [i.qid for i in stratified_sample(dataset, 20, seed=1)]
    assert first != [i.qid for i in stratified_sample(dataset, 20, seed=2)]
    everything = stratified_sample(dataset, 10_000, seed=1)
    assert sorted(i.qid for i in everything) == sorted(i.qid for i in dataset.items)
    with pytest.raises(FiggenError, match="--sample 0 must be at least 1"):
        stratified_sample(dataset, 0, seed=1)


def test_plan_is_kept_and_a_different_restart_refused(built: Path, tmp_path: Path) -> None:
    dataset = load_dataset(built)
    answers = tmp_path / "human-ana.jsonl"
    plan = load_or_start_plan(dataset, answers, 12, 3)
    saved = json.loads(plan_path(answers).read_text())
    assert plan_path(answers).name == "human-ana.sample.json"
    assert saved == {"data": built.name, "sample": 12, "seed": 3, "qids": plan.qids}
    assert load_or_start_plan(dataset, answers, 12, 3) == plan
    with pytest.raises(FiggenError, match="started with --sample 12 --seed 3"):
        load_or_start_plan(dataset, answers, 12, 4)
    saved["qids"] = saved["qids"][::-1]
    plan_path(answers).write_text(json.dumps(saved))
    with pytest.raises(FiggenError, match="another build"):
        load_or_start_plan(dataset, answers, 12, 3)
    plan_path(answers).write_text("{cut")
    with pytest.raises(FiggenError, match="is damaged"):
        load_or_start_plan(dataset, answers, 12, 3)
