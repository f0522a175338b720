"""Balanced answers at the source: which asked items a family keeps, so no answer dominates.

A figure's truths follow the core paper's distributions (panel counts, kind mix, generating
parameters), which make some answers far more common than others: most axes are linear, most
histograms' fields have one peak. A question-only reader would score well by always giving
the common answer. So a family listed in :data:`KEEP` keeps an item whose answer is of a
dominant class only with the class's probability; the draw is a hash of (build seed, figure
index, family, slot), so a build stays reproducible and a figure's items do not depend on the
rest of the build. The probabilities bring each family's answer shares within the bounds of
:data:`SHARE_BOUNDS` (measured on ``figgen build --n 200 --seed 0``; tested on a build).
Figures and their distributions are unchanged: only which questions are asked changes.

The tables are measured on one distribution, so a config that draws other figures (another
kind mix, other parameters) carries its own in its ``[balance]`` section
(:class:`BalanceConfig`; the ``longchart`` preset does); its default is the tables below.
"""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from typing import Any, Protocol

from pydantic import Field

from figgen.sections import Probability, Section

# fmt: off
KEEP: dict[str, dict[str, float]] = {
    "axis_scale": {"linear": 0.08},
    # each kind on its own (lines named by legend label apart), so what the words tell of a
    # panel gains nothing
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
"""Per family (or ``family/kind`` where the question's words give the panel's kind away), the
probability an item of an answer class is kept (classes not listed: 1)."""

SHARE_BOUNDS: dict[str, float] = {
    "axis_scale": 0.6,
    "error_bars": 0.36,
    "linearity": 0.6,
    "symmetry": 0.43,
    "n_clusters": 0.5,
    "n_modes": 0.6,
    "n_peaks": 0.5,
    "plot_types": 0.2,
    "titles": 0.1,
    "colormap": 0.2,
}
"""Per balanced family, the largest share any one answer class may have in the default build
of 200 figures (``colormap``: of P(answer | offered), which its fixed groups keep flat)."""
# fmt: on

FIXED_BY_PAPER: dict[str, str] = {
    "panel_count": "the paper's panel counts (about 37% of figures have one panel)",
    "layout": "the paper's panel counts and grid rule (single panels give [1, 1])",
}
"""Families whose imbalance the paper's figure distribution fixes, and why; the report gives
them balanced accuracy (docs/vqa.md, "Balanced answers")."""


def answer_class(family: str, answer: Any) -> str:
    """The class an answer counts under for balancing (``plot_types``: how many kinds)."""
    if family == "plot_types" and isinstance(answer, list):
        return f"{len(answer)} kinds"
    if isinstance(answer, list):
        return "|".join(map(str, answer)) or "[]"
    return str(answer)


class Figure(Protocol):
    """What fixes a figure's draws: the build seed and the figure's index (a record's)."""

    seed: int
    index: int


def unit_draw(record: Figure, family: str, slot: str) -> float:
    """A uniform number in [0, 1) fixed by the build seed, figure index, family and slot."""
    text = f"figgen-balance:{record.seed}:{record.index}:{family}:{slot}"
    digest = hashlib.sha256(text.encode("utf-8")).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


def stratum(kind: str | None, words: dict[str, str]) -> str | None:
    """What a blind reader can tell of a panel from the question: its kind, and whether the
    question names a line by its legend label (labelled and colour-named lines differ)."""
    if kind is not None and "legend" in words.get("name", ""):
        return f"{kind}-legend"
    return kind


KeepTable = Mapping[str, Mapping[str, float]]
"""Per family (or ``family/kind``), per answer class, the probability an item is kept."""


def _default_keep() -> dict[str, dict[str, float]]:
    return {name: dict(classes) for name, classes in KEEP.items()}


class BalanceConfig(Section):
    """The ``[balance]`` section: which items of dominant answers a build keeps.

    ``keep`` replaces :data:`KEEP` as a whole (keys ``family`` or ``family/kind``, then answer
    class: probability); ``share_bounds`` states the largest answer share each balanced family
    keeps on this config's figures (what the tests check a build against).
    """

    keep: dict[str, dict[str, Probability]] = Field(default_factory=_default_keep)
    share_bounds: dict[str, Probability] = Field(default_factory=lambda: dict(SHARE_BOUNDS))


def keep_item(
    record: Figure,
    family: str,
    answer: Any,
    slot: str,
    kind: str | None = None,
    keep: KeepTable | None = None,
) -> bool:
    """Whether the item of ``family`` with ``answer`` at ``slot`` (panel, key) is asked, for
    a panel of ``kind`` (a :func:`stratum`), under the ``keep`` table (default :data:`KEEP`)."""
    keep = KEEP if keep is None else keep
    base = kind.split("-")[0] if kind else None
    table = keep.get(f"{family}/{kind}") or keep.get(f"{family}/{base}") or keep.get(family)
    if not table:
        return True
    probability = table.get(answer_class(family, answer), 1.0)
    return probability >= 1.0 or unit_draw(record, family, slot) < probability
