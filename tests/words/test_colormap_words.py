"""Colormaps said as colours, checked against the maps' own colours; contour places apart."""

from __future__ import annotations

import colorsys

import matplotlib as mpl
import pytest

from figgen.kinds.api import COLORMAPS
from figgen.words.colormap_words import colormap_colours, colormap_phrase, colormap_sentence

HUES = {  # HSV hue ranges (degrees) each colour word may take: a wide, independent check
    "red": (330, 30),
    "pink": (290, 20),
    "orange": (10, 50),
    "brown": (0, 50),
    "yellow": (40, 75),
    "green": (65, 170),
    "cyan": (160, 205),
    "blue": (190, 260),
    "purple": (250, 320),
}


def _in(hue: float, band: tuple[int, int]) -> bool:
    low, high = band
    return low <= hue <= high if low <= high else hue >= low or hue <= high


@pytest.mark.parametrize("name", COLORMAPS)
def test_colour_words_match_the_maps_own_ends(name: str) -> None:
    words = colormap_colours(name)
    assert len(words) >= 1 and all(a != b for a, b in zip(words, words[1:], strict=False))
    for end, word in ((0.0, words[0]), (1.0, words[-1])):
        r, g, b, _ = mpl.colormaps[name](end)
        hue, saturation, value = colorsys.rgb_to_hsv(r, g, b)
        base = word.split()[-1]
        if base in ("black", "white", "grey"):
            assert saturation < 0.35 or value < 0.25, (name, end, word)
        else:
            assert _in(hue * 360, HUES[base]), (name, end, word, hue * 360)
    assert name not in colormap_sentence(name)


def test_known_maps_read_as_expected() -> None:
    assert colormap_phrase("RdBu_r").startswith("from dark blue")
    assert colormap_phrase("RdBu_r").endswith("to dark red")
    assert colormap_phrase("Greys") == "from white through light grey, grey and dark grey to black"
    assert colormap_colours("RdBu") == tuple(reversed(colormap_colours("RdBu_r")))
    assert colormap_phrase("viridis").endswith("to yellow")


def test_contour_places_never_contain_one_another() -> None:
    import numpy as np

    from figgen.kinds.contour import _where

    places = set()
    for row in range(3):
        for col in range(3):
            z = np.zeros((9, 9))
            z[3 * row + 1, 3 * col + 1] = 1.0
            places.add(_where(z, np.argmax))
    assert len(places) == 9
    for a in places:
        for b in places - {a}:
            assert a.removeprefix("the ") not in b, (a, b)
