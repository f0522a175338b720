"""Choice lists for "which colormap is this": the generator's own maps, in fixed groups of five.

A question-only reader must not learn which names are answers. So the choices come from the
pool the generator draws from (:data:`figgen.kinds.api.COLORMAPS`), split once into groups of
five clearly different maps: a map's choices are its group. Every map of a group is offered
exactly when one of the group is the answer, and the generator draws maps uniformly, so each
offered name is the answer one time in five whatever the name (the "choice prior" is chance).
"""

from __future__ import annotations

from functools import cache

import numpy as np

from figgen.words.colour_names import rgb_to_lab

N_CHOICES = 5
MIN_DIFFERENCE = 25.0
"""Mean CIELAB distance (over 16 samples) two maps offered together keep, in either direction."""

CHOICE_GROUPS: tuple[tuple[str, ...], ...] = (
    ("BrBG", "Greens", "cividis", "nipy_spectral", "turbo"),
    ("PuOr", "jet", "plasma", "terrain", "viridis"),
    ("Reds", "Spectral", "cubehelix", "magma", "ocean"),
    ("Blues", "coolwarm", "copper", "gnuplot2", "twilight"),
    ("RdBu_r", "YlGnBu", "hot", "inferno", "rainbow"),
)
"""A partition of the generator's 25 maps whose members differ by at least 45 (found by a
seeded random search over partitions; ``tests/vqa/questions/test_colormap_choices.py`` checks
it)."""

_GROUP_OF = {name: group for group in CHOICE_GROUPS for name in group}


@cache
def _lab_samples(name: str) -> np.ndarray:
    import matplotlib as mpl

    cmap = mpl.colormaps[name]
    rgba = cmap(np.linspace(0, 1, 16))
    return np.array([rgb_to_lab(tuple(row[:3])) for row in rgba])


def colormap_difference(a: str, b: str) -> float:
    """Mean CIELAB distance of two maps, the smaller of same and reversed direction."""
    la, lb = _lab_samples(a), _lab_samples(b)
    forward = float(np.mean(np.linalg.norm(la - lb, axis=1)))
    backward = float(np.mean(np.linalg.norm(la - lb[::-1], axis=1)))
    return min(forward, backward)


def colormap_choices(answer: str) -> list[str] | None:
    """The answer's group in alphabetical order; None for a map outside the generator's pool.

    Such a map (the ``Greys`` a filled contour falls back to without a sampled colormap, or a
    record made elsewhere) is not asked about: among distractors from the pool it would be
    the odd one out, the answer every time it is offered.
    """
    group = _GROUP_OF.get(answer)
    return None if group is None else sorted(group, key=str.lower)
