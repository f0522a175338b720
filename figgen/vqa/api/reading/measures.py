"""Numbers read off a panel's data: fits, moments, modes and tick labels."""

from __future__ import annotations

import math
import re
from collections.abc import Sequence

import numpy as np

from figgen.schema.elements import Element


def display(values: Sequence[float], scale: str) -> np.ndarray:
    """Values in the coordinates the eye sees: log10 on a log axis."""
    array = np.asarray(values, dtype=float)
    if scale == "log":
        with np.errstate(divide="ignore", invalid="ignore"):
            logs: np.ndarray = np.log10(array)
            return logs
    return array


def linear_fit(x: Sequence[float], y: Sequence[float]) -> tuple[float, float, float]:
    """Least-squares ``(slope, intercept, r_squared)``; R^2 is 0 for a flat or degenerate fit."""
    xs, ys = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    keep = np.isfinite(xs) & np.isfinite(ys)
    xs, ys = xs[keep], ys[keep]
    if len(xs) < 3 or np.ptp(xs) == 0 or np.ptp(ys) == 0:
        return 0.0, float(np.mean(ys)) if len(ys) else 0.0, 0.0
    slope, intercept = np.polyfit(xs, ys, 1)
    residual = ys - (slope * xs + intercept)
    r2 = 1.0 - float(np.sum(residual**2)) / float(np.sum((ys - ys.mean()) ** 2))
    return float(slope), float(intercept), max(r2, 0.0)


def skewness(values: Sequence[float]) -> float:
    """Fisher-Pearson sample skewness (0 for a constant sample)."""
    array = np.asarray(values, dtype=float)
    spread = array.std()
    if spread == 0:
        return 0.0
    return float(np.mean((array - array.mean()) ** 3) / spread**3)


def count_peaks(
    heights: Sequence[float] | np.ndarray, *, dip: float = 0.75, floor: float = 0.1
) -> int:
    """Count the peaks of a sampled curve that a reader would call separate (see
    :func:`peak_indices`)."""
    return len(peak_indices(heights, dip=dip, floor=floor))


def peak_indices(
    heights: Sequence[float] | np.ndarray, *, dip: float = 0.75, floor: float = 0.1
) -> list[int]:
    """Where a sampled curve has peaks a reader would call separate (the middle of a plateau).

    A peak counts when it reaches ``floor`` of the tallest and, toward every taller peak, the
    curve dips below ``dip`` times its own height. Plateaus count once.
    """
    h = [float(v) for v in heights]
    top = max(h, default=0.0)
    if top <= 0:
        return []
    maxima = []
    i = 0
    while i < len(h):
        j = i
        while j + 1 < len(h) and h[j + 1] == h[i]:
            j += 1
        left = h[i - 1] if i > 0 else -math.inf
        right = h[j + 1] if j + 1 < len(h) else -math.inf
        if h[i] > left and h[i] > right and h[i] >= floor * top:
            maxima.append((i, j, h[i]))
        i = j + 1
    peaks = []
    for start, end, height in maxima:
        separate = True
        for other_start, other_end, other in maxima:
            if other < height or (other == height and other_start > start):
                continue
            if (other_start, other_end) == (start, end):
                continue
            lo, hi = (end, other_start) if other_start > end else (other_end, start)
            if min(h[lo : hi + 1]) >= dip * height:
                separate = False
                break
        if separate:
            peaks.append((start + end) // 2)
    return peaks


_MATHDEFAULT = re.compile(r"\\mathdefault\{(.*)\}")
_POWER = re.compile(r"^(?:([-+]?\d*\.?\d+)\s*\\times\s*)?([-+]?\d*\.?\d+)\^\{?([-+]?\d+)\}?$")


def tick_number(text: str) -> float | None:
    """The number a tick label shows ("−5", "2.5", "$\\mathdefault{10^{3}}$"), or None."""
    body = text.strip().replace("\u2212", "-").replace("$", "")
    match = _MATHDEFAULT.fullmatch(body)
    if match:
        body = match.group(1)
    body = body.replace("{", "").replace("}", "") if "^" not in body else body
    body = body.replace(",", "")
    try:
        return float(body)
    except ValueError:
        pass
    power = _POWER.fullmatch(body.replace(" ", ""))
    if power is None:
        return None
    factor = float(power.group(1)) if power.group(1) else 1.0
    return factor * float(power.group(2)) ** int(power.group(3))


def tick_values(elements: list[Element], axis: str) -> list[float] | None:
    """Tick label values along ``axis`` in drawn order (left to right, bottom to top)."""
    if not elements:
        return None
    values = [tick_number(e.text or "") for e in elements]
    if any(v is None for v in values):
        return None
    position = 0 if axis == "x" else 1
    centres = [(e.bbox[position] + e.bbox[position + 2]) / 2 for e in elements]
    order = sorted(range(len(values)), key=lambda i: centres[i], reverse=axis == "y")
    out: list[float] = []
    for i in order:  # styles that label both sides draw each value twice
        value = float(values[i])  # type: ignore[arg-type]
        if value not in out:
            out.append(value)
    return out
