"""Plain colour names for drawn colours, only where the name is beyond doubt.

A colour is named after the nearest of a few anchor colours per name (the pure colour and
the matplotlib/tableau shades) in CIELAB. The name is unambiguous when the nearest anchor is
within ``MAX_DISTANCE`` and every anchor of another name is at least ``MARGIN`` farther.
"""

from __future__ import annotations

import math
from functools import lru_cache

from figgen._util.colour_distance import hex_to_rgb, rgb_to_lab

__all__ = ["COLOR_NAMES", "color_matches", "color_name", "hex_to_rgb", "rgb_to_lab"]

COLOR_NAMES = (
    "black",
    "gray",
    "white",
    "red",
    "orange",
    "yellow",
    "green",
    "blue",
    "purple",
    "pink",
    "brown",
    "cyan",
)

_ANCHORS: dict[str, tuple[str, ...]] = {
    "black": ("#000000", "#1a1a1a"),
    "gray": ("#808080", "#7f7f7f", "#a0a0a0", "#555555", "#bbbbbb"),
    "white": ("#ffffff", "#f0f0f0"),
    "red": ("#ff0000", "#d62728", "#e41a1c", "#cc0000", "#b22222", "#e24a33", "#fc4f30"),
    "orange": ("#ff7f0e", "#ffa500", "#ff8c00", "#f28e2b", "#e5ae38"),
    "yellow": ("#ffff00", "#ffd700", "#f0e442", "#eeee00"),
    "green": (
        "#00ff00",
        "#2ca02c",
        "#008000",
        "#4daf4a",
        "#6d904f",
        "#8eba42",
        "#009e73",
        "#006400",
        "#59a14f",
    ),
    "blue": (
        "#0000ff",
        "#1f77b4",
        "#348abd",
        "#0072b2",
        "#4e79a7",
        "#000080",
        "#30a2da",
        "#377eb8",
        "#56b4e9",
    ),
    "cyan": ("#00ffff", "#17becf", "#00bfbf", "#00ced1"),
    "purple": ("#800080", "#9467bd", "#988ed5", "#984ea3", "#7a68a6", "#8b008b", "#b07aa1"),
    "pink": ("#ffc0cb", "#e377c2", "#ff69b4", "#f781bf", "#ffb5b8", "#ff9da7"),
    "brown": ("#8c564b", "#a52a2a", "#8b4513", "#a65628", "#9c755f"),
}

MAX_DISTANCE = 30.0
MARGIN = 12.0


@lru_cache(maxsize=4096)
def _distances(color: str) -> dict[str, float]:
    lab = rgb_to_lab(hex_to_rgb(color))
    return {
        name: min(math.dist(lab, rgb_to_lab(hex_to_rgb(anchor))) for anchor in anchors)
        for name, anchors in _ANCHORS.items()
    }


def color_matches(color: str, name: str) -> bool:
    """Whether a reader could call ``color`` by ``name``: one of the name's anchors lies within
    ``MAX_DISTANCE`` of it (a dull purple-blue matches both "purple" and "blue")."""
    return _distances(color)[name] <= MAX_DISTANCE


@lru_cache(maxsize=4096)
def color_name(color: str) -> str | None:
    """The plain name of a hex colour, or None where two names are about as close."""
    distances = sorted(_distances(color).items(), key=lambda item: item[1])
    (best, d0), (_, d1) = distances[0], distances[1]
    if d0 > MAX_DISTANCE or d1 - d0 < MARGIN:
        return None
    return best
