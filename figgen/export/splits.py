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
