"""Balanced answers at the source: which asked items a family keeps, so no answer dominates.

A figure's truths follow the core paper's distributions (panel counts, kind mix, generating
parameters), which make some answers far more common than others: most axes are linear, most
histograms' fields have one peak. A question-only reader would score well by always giving
the common answer. So a family that declares a :class:`~figgen.vqa.api.families.Balance`
keeps an item whose answer is of a dominant class only with the class's probability; the draw
is a hash of (build seed, figure index, family, slot), so a build stays reproducible and a
figure's items do not depend on the rest of the build. The probabilities bring each family's
answer shares within its declared bound (measured on ``figgen build --n 200 --seed 0``; tested
on a build). Figures and their distributions are unchanged: only which questions are asked
changes.

The tables are measured on one distribution, so a config that draws other figures (another
kind mix, other parameters) carries its own in its ``[balance]`` section
(:class:`figgen.config.sections.balance.BalanceConfig`; the ``longchart`` preset does), which
replaces the declared table whole; its default, None, is :func:`declared_keep`.
"""

from __future__ import annotations

import hashlib
from typing import Any, Protocol

from figgen.config.sections.balance import KeepTable
from figgen.vqa.api.families import FAMILIES

FIXED_BY_PAPER: dict[str, str] = {
    "panel_count": "the paper's panel counts (about 37% of figures have one panel)",
    "layout": "the paper's panel counts and grid rule (single panels give [1, 1])",
}
"""Families whose imbalance the paper's figure distribution fixes, and why; the report gives
them balanced accuracy (docs/vqa.md, "Balanced answers")."""


def declared_keep() -> dict[str, dict[str, float]]:
    """The keep table of the declared families: per family its ``keep`` under its name and each
    stratum's table under ``family/stratum`` (the default of a config's ``[balance.keep]``).

    Complete once :mod:`figgen.kinds` is imported (the kinds declare their own families).
    """
    table: dict[str, dict[str, float]] = {}
    for name, family in FAMILIES.items():
        if family.balance is None:
            continue
        if family.balance.keep:
            table[name] = dict(family.balance.keep)
        for stratum_name, classes in family.balance.by_kind.items():
            table[f"{name}/{stratum_name}"] = dict(classes)
    return table


def declared_share_bounds() -> dict[str, float]:
    """Per balanced family, its declared largest answer share (the default of a config's
    ``[balance.share_bounds]``)."""
    return {
        name: family.balance.share_bound
        for name, family in FAMILIES.items()
        if family.balance is not None
    }


def keep_table(keep: KeepTable | None) -> KeepTable:
    """A config's own table, or for None (a default config's) the declared one."""
    return declared_keep() if keep is None else keep


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


def keep_item(
    record: Figure,
    family: str,
    answer: Any,
    slot: str,
    kind: str | None = None,
    keep: KeepTable | None = None,
) -> bool:
    """Whether the item of ``family`` with ``answer`` at ``slot`` (panel, key) is asked, for
    a panel of ``kind`` (a :func:`stratum`), under the ``keep`` table (default: the declared
    one, :func:`declared_keep`)."""
    keep = keep_table(keep)
    base = kind.split("-")[0] if kind else None
    table = keep.get(f"{family}/{kind}") or keep.get(f"{family}/{base}") or keep.get(family)
    if not table:
        return True
    probability = table.get(answer_class(family, answer), 1.0)
    return probability >= 1.0 or unit_draw(record, family, slot) < probability
