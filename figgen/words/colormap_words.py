"""Colormaps spoken as the colours they show: "from dark blue through white to dark red".

A listener gains nothing from "RdBu_r" or "nipy_spectral". The words come from the map's own
colours: it is sampled at ``STOPS`` evenly spaced points, each sample is named in CIELAB
(greys by lightness, other colours by their CIELAB hue angle, called dark or light by
lightness), and repeats of the same word next to each other merge.
"""

from __future__ import annotations

import math
from functools import cache

from figgen.words.colour_names import rgb_to_lab
from figgen.words.wording import join

STOPS = 5
GREY_CHROMA = 12.0
"""Below this CIELAB chroma a colour reads as black, grey or white."""
DARK, LIGHT, PALE = 35.0, 80.0, 60.0
"""A hue is dark below lightness ``DARK``; light above ``LIGHT`` when its chroma is under
``PALE`` (a bright saturated yellow is just yellow)."""
HUES = (
    (15.0, "pink"),
    (50.0, "red"),
    (85.0, "orange"),
    (120.0, "yellow"),
    (180.0, "green"),
    (235.0, "cyan"),
    (310.0, "blue"),
    (345.0, "purple"),
    (360.0, "pink"),
)
"""Upper bounds of CIELAB hue angles (degrees) and their names, checked on the pure colours
and the tableau shades (red 34-40, orange 59-73, yellow 100-103, green 136-138, cyan
196-211, blue 251-306, purple 312-328, pink 338-8)."""


def lab_name(lab: tuple[float, float, float]) -> str:
    """The plain name of a CIELAB colour, always one, with dark / light where it applies."""
    lightness, a, b = lab
    chroma = math.hypot(a, b)
    if chroma < GREY_CHROMA:
        if lightness < 20:
            return "black"
        if lightness > 92:
            return "white"
        if lightness < 40:
            return "dark grey"
        return "light grey" if lightness > 72 else "grey"
    angle = math.degrees(math.atan2(b, a)) % 360
    hue = next(name for bound, name in HUES if angle < bound)
    # brown is a dark orange, or a dull dark red (a deep crimson stays red)
    if lightness < 50 and (hue == "orange" or (hue == "red" and chroma < 35)):
        return "brown"
    if lightness < DARK:
        return "dark red" if hue == "pink" else f"dark {hue}"  # a dark pink reads as crimson
    if lightness > LIGHT and chroma < PALE:
        return f"light {hue}"
    return hue


@cache
def colormap_colours(name: str) -> tuple[str, ...]:
    """The colour words of a matplotlib colormap from its low to its high end, merged."""
    import matplotlib as mpl

    cmap = mpl.colormaps[name]
    words: list[str] = []
    for i in range(STOPS):
        r, g, b, _ = cmap(i / (STOPS - 1))
        word = lab_name(rgb_to_lab((float(r), float(g), float(b))))
        if not words or words[-1] != word:
            words.append(word)
    return tuple(words)


def colormap_phrase(name: str) -> str:
    """ "from dark blue through white to dark red" (or "in shades of blue" for one colour)."""
    words = colormap_colours(name)
    if len(words) == 1:
        return f"in shades of {words[0]}"
    if len(words) == 2:
        return f"from {words[0]} to {words[1]}"
    return f"from {words[0]} through {join(list(words[1:-1]))} to {words[-1]}"


def colormap_sentence(name: str) -> str:
    """The Level 1 sentence about a panel's colours: "Colours run from ... to ..."."""
    return f"Colours run {colormap_phrase(name)}, from low to high values."
