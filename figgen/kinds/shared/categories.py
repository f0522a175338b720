"""What the category kinds share (bar, box, range and heatmap): names drawn from the
vocabulary, series colours told apart by hue, a clear leader and a spoken list of names."""

from __future__ import annotations

import colorsys

import numpy as np

from figgen.sample.text import Vocabulary
from figgen.words.spoken import spoken
from figgen.words.wording import join

MAX_WORD = 10
"""Category and series names are vocabulary words of at most this many letters."""
CLEAR_LEAD = 0.1
"""A category or series "has the largest" value only when it leads the runner-up by this share."""


def category_words(
    rng: np.random.Generator, vocab: Vocabulary, n: int, *, longest: int = MAX_WORD
) -> list[str]:
    """``n`` distinct alphabetic vocabulary words of at most ``longest`` letters."""
    pool = sorted({w for w in vocab.words if w.isalpha() and len(w) <= longest})
    picked = rng.choice(len(pool), size=n, replace=False)
    return [pool[int(i)] for i in picked]


def distinct_colors(rng: np.random.Generator, n: int, *, dark: bool) -> list[str]:
    """``n`` saturated colours with evenly spaced hues, so series are told apart at a glance."""
    hue = rng.random()
    out = []
    for i in range(n):
        r, g, b = colorsys.hsv_to_rgb(
            (hue + i / n) % 1.0,
            rng.uniform(0.55, 0.95),
            rng.uniform(0.7, 1.0) if dark else rng.uniform(0.45, 0.8),
        )
        out.append(f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}")
    return out


def clear_leader(values: list[float]) -> int | None:
    """The index of the largest value when it leads the runner-up by :data:`CLEAR_LEAD`."""
    if len(values) < 2:
        return None
    order = sorted(range(len(values)), key=values.__getitem__, reverse=True)
    first, second = values[order[0]], values[order[1]]
    return order[0] if first - second >= CLEAR_LEAD * abs(first) else None


def quoted_names(words: list[str]) -> str:
    """ "a", "a" and "b", "a", "b" and "c": names as a description quotes them, spoken."""
    return join([f'"{spoken(w)}"' for w in words])
