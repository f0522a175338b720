"""Per-figure random streams derived from (seed, index), so work order never changes results."""

from __future__ import annotations

from typing import overload

import numpy as np


def figure_rng(seed: int, index: int, stream: str, attempt: int = 0) -> np.random.Generator:
    """An independent generator for one named part of one figure.

    Separate streams ("layout", "content") let a resample after a failed repair redraw the
    content while keeping the panel layout, so resampling does not bias the panel counts.
    """
    tag = int.from_bytes(stream.encode("utf-8")[:8].ljust(8, b"\0"), "little")
    return np.random.default_rng(np.random.SeedSequence([seed, index, tag, attempt]))


def choose(rng: np.random.Generator, weights: dict[str, float]) -> str:
    """Pick a key with probability proportional to its weight (stable key order)."""
    keys = list(weights)
    p = np.array([weights[k] for k in keys], dtype=float)
    return keys[int(rng.choice(len(keys), p=p / p.sum()))]


def uniform(rng: np.random.Generator, bounds: tuple[float, float]) -> float:
    return float(rng.uniform(bounds[0], bounds[1]))


def integer(rng: np.random.Generator, bounds: tuple[int, int]) -> int:
    """An integer in the closed range ``bounds``."""
    return int(rng.integers(bounds[0], bounds[1] + 1))


@overload
def sig(values: float, digits: int = 6) -> float: ...
@overload
def sig(values: np.ndarray | list[float], digits: int = 6) -> list[float]: ...
def sig(values: np.ndarray | list[float] | float, digits: int = 6) -> list[float] | float:
    """Round to ``digits`` significant digits: what is stored is exactly what is drawn."""
    arr = np.asarray(values, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        mags = np.where(arr == 0, 0, np.floor(np.log10(np.abs(arr))))
    factor = 10.0 ** (digits - 1 - mags)
    rounded = np.round(arr * factor) / factor
    rounded = np.where(arr == 0, 0.0, rounded) + 0.0  # turn -0.0 into 0.0
    if rounded.ndim == 0:
        return float(rounded)
    return rounded.tolist()  # type: ignore[no-any-return]
