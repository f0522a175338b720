"""Choice lists for "which colormap is this": the true map and clearly different distractors."""

from __future__ import annotations

import hashlib
from functools import cache

import numpy as np

from figgen.vqa.colors import rgb_to_lab

DISTRACTORS = (
    "viridis",
    "plasma",
    "inferno",
    "magma",
    "cividis",
    "Greys",
    "Blues",
    "Reds",
    "Greens",
    "Oranges",
    "Purples",
    "coolwarm",
    "RdBu",
    "seismic",
    "jet",
    "rainbow",
    "terrain",
    "ocean",
    "spring",
    "summer",
    "autumn",
    "winter",
    "cool",
    "hot",
    "copper",
    "twilight",
    "PiYG",
    "YlGnBu",
    "BrBG",
    "gnuplot",
)
N_CHOICES = 5
MIN_DIFFERENCE = 25.0
"""Mean CIELAB distance (over 16 samples) a distractor keeps from the answer and its reverse."""


@cache
def _lab_samples(name: str) -> np.ndarray:
    import matplotlib as mpl

    cmap = mpl.colormaps[name]
    rgba = cmap(np.linspace(0, 1, 16))
    return np.array([rgb_to_lab(tuple(row[:3])) for row in rgba])


def _difference(a: str, b: str) -> float:
    la, lb = _lab_samples(a), _lab_samples(b)
    forward = float(np.mean(np.linalg.norm(la - lb, axis=1)))
    backward = float(np.mean(np.linalg.norm(la - lb[::-1], axis=1)))
    return min(forward, backward)


def colormap_choices(answer: str, seed_text: str) -> list[str] | None:
    """``N_CHOICES`` names in alphabetical order, one of them ``answer``; None if unknown.

    Distractors are drawn deterministically from ``seed_text`` (e.g. the qid stem) among maps
    that differ clearly from the answer and from each other, in either direction.
    """
    import matplotlib as mpl

    if answer not in mpl.colormaps:
        return None
    digest = hashlib.sha256(seed_text.encode()).digest()
    rng = np.random.default_rng(int.from_bytes(digest[:8], "little"))
    picked = [answer]
    for name in rng.permutation(DISTRACTORS):
        name = str(name)
        if all(_difference(name, other) >= MIN_DIFFERENCE for other in picked):
            picked.append(name)
        if len(picked) == N_CHOICES:
            break
    return sorted(picked, key=str.lower)
