"""Deterministic train/validation/test assignment per figure."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Literal

from figgen.errors import FiggenError

Split = Literal["train", "validation", "test"]
SPLITS: tuple[Split, ...] = ("train", "validation", "test")


@dataclass(frozen=True)
class SplitFractions:
    """Share of figures per split; all questions about a figure follow it."""

    train: float = 0.8
    validation: float = 0.1
    test: float = 0.1

    def __post_init__(self) -> None:
        values = (self.train, self.validation, self.test)
        if any(v < 0 for v in values) or abs(sum(values) - 1.0) > 1e-9:
            raise FiggenError(
                f"split fractions must be >= 0 and sum to 1, got {list(values)}; "
                "e.g. --splits 0.8,0.1,0.1"
            )

    @classmethod
    def parse(cls, text: str) -> SplitFractions:
        """Read ``"train,validation,test"`` fractions, e.g. ``"0.8,0.1,0.1"``."""
        parts = text.split(",")
        try:
            values = [float(part) for part in parts]
        except ValueError:
            values = []
        if len(values) != 3:
            raise FiggenError(
                f"--splits takes three comma-separated fractions (train,validation,test), "
                f"got {text!r}; e.g. --splits 0.8,0.1,0.1"
            )
        return cls(*values)


def unit_hash(figure_id: str) -> float:
    """A uniform number in [0, 1) fixed by the figure id alone."""
    digest = hashlib.sha256(f"figgen-split:{figure_id}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2.0**64


def split_of(figure_id: str, fractions: SplitFractions) -> Split:
    """The split a figure belongs to.

    It depends only on the id and the fractions, so growing a dataset never moves an existing
    figure to another split, and raising the train share only moves figures into train.
    """
    u = unit_hash(figure_id)
    if u < fractions.train:
        return "train"
    if u < fractions.train + fractions.validation:
        return "validation"
    return "test"


def _distance(u: float, low: float, high: float) -> float:
    return low - u if u < low else (u - high if u >= high else 0.0)


def assign_splits(figure_ids: list[str], fractions: SplitFractions) -> dict[str, Split]:
    """The split of every figure in a dataset.

    Each figure takes :func:`split_of`. Only when that leaves a split with a positive share
    empty (small datasets) does the figure whose hash lies nearest to that split's interval
    move there from the largest split, so a 20-figure build still has all three splits while
    large datasets keep the pure hash rule.
    """
    shares = {"train": fractions.train, "validation": fractions.validation, "test": fractions.test}
    bounds: dict[Split, tuple[float, float]] = {}
    low = 0.0
    for split in SPLITS:
        bounds[split] = (low, low + shares[split])
        low += shares[split]
    assignment = {fid: split_of(fid, fractions) for fid in figure_ids}
    for split in SPLITS:
        if shares[split] == 0 or split in assignment.values():
            continue
        sizes = {s: sum(1 for v in assignment.values() if v == s) for s in SPLITS}
        donor = max(SPLITS, key=lambda s: sizes[s])
        if sizes[donor] < 2:
            continue
        candidates = sorted(
            (fid for fid, s in assignment.items() if s == donor),
            key=lambda fid: (_distance(unit_hash(fid), *bounds[split]), fid),
        )
        assignment[candidates[0]] = split
    return assignment
