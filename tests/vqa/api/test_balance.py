"""Balanced answers at the source: deterministic keep draws, and the shares a build reaches."""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from pathlib import Path
from types import SimpleNamespace

import pytest

import figgen.kinds  # noqa: F401  (the kinds declare their own families)
from figgen.config.sections.balance import BalanceConfig
from figgen.vqa.api.balance import (
    FIXED_BY_PAPER,
    answer_class,
    declared_keep,
    declared_share_bounds,
    keep_item,
    stratum,
)

RECORD = SimpleNamespace(seed=3, index=7)

# The default tables as figgen/config/sections/balance.py held them (KEEP, SHARE_BOUNDS) before
# each family declared its own balance (issue 40).
# fmt: off
KEEP_BEFORE = {
    "axis_scale": {"linear": 0.08},
    "error_bars/histogram": {"none": 0.1, "y only": 0.4},
    "error_bars/scatter": {"none": 0.13},
    "error_bars/line": {"none": 0.35, "y only": 0.89},
    "linearity/line-legend": {"nonlinear": 0.29},
    "linearity/line": {"nonlinear": 0.17},
    "linearity/scatter": {"nonlinear": 0.16},
    "symmetry": {"symmetric": 0.5},
    "n_clusters": {"1": 0.3},
    "n_modes": {"2": 0.6},
    "n_peaks": {"1": 0.5},
    "plot_types": {"1 kinds": 0.35, "4 kinds": 0.1},
    "titles": {"[]": 0.2},
}
SHARE_BOUNDS_BEFORE = {
    "axis_scale": 0.6, "error_bars": 0.36, "linearity": 0.6, "symmetry": 0.43,
    "n_clusters": 0.5, "n_modes": 0.6, "n_peaks": 0.5, "plot_types": 0.2, "titles": 0.1,
    "colormap": 0.2,
}
# fmt: on


def test_the_declared_tables_are_the_tables_the_config_held_before() -> None:
    """For the families balanced then, the same rows, probabilities and bounds; a family
    balanced later brings rows of its own."""
    before = set(SHARE_BOUNDS_BEFORE)
    keep = {name: t for name, t in declared_keep().items() if name.split("/")[0] in before}
    assert keep == KEEP_BEFORE
    bounds = {name: b for name, b in declared_share_bounds().items() if name in before}
    assert bounds == SHARE_BOUNDS_BEFORE


def test_keep_draws_are_fixed_by_seed_figure_family_and_slot() -> None:
    slots = [f"{p}-x_scale-0" for p in range(200)]
    first = [keep_item(RECORD, "axis_scale", "linear", s) for s in slots]
    assert first == [
        keep_item(SimpleNamespace(seed=3, index=7), "axis_scale", "linear", s) for s in slots
    ]
    other_seed = SimpleNamespace(seed=4, index=7)
    assert first != [keep_item(other_seed, "axis_scale", "linear", s) for s in slots]
    # classes not listed, and families not balanced, are always kept
    assert all(keep_item(RECORD, "axis_scale", "logarithmic", s) for s in slots)
    assert all(keep_item(RECORD, "plot_type", "line", s) for s in slots)


@pytest.mark.parametrize(
    ("family", "kind", "answer"),
    [("axis_scale", "line", "linear"), ("linearity", "scatter", "nonlinear")],
)
def test_kept_share_is_the_listed_probability(family: str, kind: str, answer: str) -> None:
    keep = declared_keep()
    p = (keep.get(f"{family}/{kind}") or keep[family])[answer]
    n = 20_000
    kept = sum(
        keep_item(SimpleNamespace(seed=0, index=i // 10), family, answer, str(i % 10), kind)
        for i in range(n)
    )
    assert abs(kept / n - p) < 4 * math.sqrt(p * (1 - p) / n)


def test_plot_types_classes_count_kinds() -> None:
    assert answer_class("plot_types", ["line", "scatter"]) == "2 kinds"
    assert answer_class("n_clusters", 1) == "1"
    assert set(FIXED_BY_PAPER) == {"panel_count", "layout"}
    keep = declared_keep()
    assert {name.split("/")[0] for name in keep} <= set(declared_share_bounds())
    assert keep["linearity/line"] != keep["linearity/scatter"]


def test_a_line_named_by_its_legend_label_is_its_own_stratum() -> None:
    labelled = stratum("line", {"name": 'the data points of the line labelled "a" in the legend'})
    assert labelled == "line-legend"
    assert stratum("line", {"name": "the data points of the blue line"}) == "line"
    assert stratum("scatter", {}) == "scatter" and stratum(None, {}) is None
    # a stratum without its own table falls back to the kind's, then the family's
    slots = [str(i) for i in range(300)]
    assert [keep_item(RECORD, "error_bars", "none", s, "line-legend") for s in slots] == [
        keep_item(RECORD, "error_bars", "none", s, "line") for s in slots
    ]


@pytest.mark.slow
def test_a_generated_build_keeps_every_balanced_family_within_its_bound(tmp_path: Path) -> None:
    """Default-config figures (the paper's distributions): each balanced family's largest
    answer share stays within its stated bound, up to the sampling error of this build."""
    from figgen.build.dataset import build_dataset
    from figgen.config.load import load_config
    from figgen.eval.run.dataset import load_dataset

    out = tmp_path / "ds"
    build_dataset(out, n=40, seed=2, workers=1, progress=False)
    # the build's manifest names no table of its own: the declared ones
    assert load_config(out / "manifest.json").balance == BalanceConfig()
    balanced = {name.split("/")[0] for name in declared_keep()}
    share_bounds = declared_share_bounds()
    shares: dict[str, Counter[str]] = defaultdict(Counter)
    for item in load_dataset(out).items:
        if item.family in balanced:
            shares[item.family][answer_class(item.family, item.answer)] += 1
    checked = 0
    for family, counts in shares.items():
        n = sum(counts.values())
        if n < 30:
            continue
        bound = share_bounds[family]
        top = max(counts.values()) / n
        assert top <= bound + 3 * math.sqrt(bound * (1 - bound) / n), (family, counts)
        checked += 1
    assert checked >= 2  # axis_scale and error_bars at least
