"""Node values and their shapes: a vector over index labels, one number, or one label."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from figgen.multichart.spec import Label
from figgen.schema.longchart import Shape, ShapeKind

__all__ = ["Shape", "ShapeKind", "Value", "Vector", "rounded"]


@dataclass(frozen=True)
class Vector:
    labels: tuple[Label, ...]
    values: tuple[float, ...]

    def at(self, label: Label) -> float:
        return self.values[self.labels.index(label)]

    def array(self) -> np.ndarray:
        return np.asarray(self.values, dtype=float)

    def on(self, labels: tuple[Label, ...]) -> np.ndarray:
        return np.asarray([self.at(label) for label in labels], dtype=float)


Value = Vector | float | Label
"""A vector, one number (always a float), or one index label (an int or a str)."""


def rounded(value: Value, digits: int = 10) -> Value:
    """Values to ``digits`` significant digits, so stored data do not carry float noise."""
    if isinstance(value, Vector):
        return Vector(value.labels, tuple(_sig(v, digits) for v in value.values))
    if isinstance(value, float):
        return _sig(value, digits)
    return value


def _sig(value: float, digits: int) -> float:
    return float(f"{value:.{digits}g}")
