"""How far apart two colours look: CIEDE2000, and series colours kept that far apart.

CIEDE2000 (CIE 142-2001) is the colour difference of the CIE that best follows what people
judge; the formula is implemented as Sharma, Wu and Dalal (2005) write it out, and
``tests/_util/test_colour_distance.py`` checks it against their 34 published test pairs.
The sRGB (D65) to CIELAB conversion lives here too, for the colour names of
:mod:`figgen.words.colour_names`.
"""

from __future__ import annotations

import colorsys
import math
from collections.abc import Sequence

MIN_SERIES_DELTA_E = 20.0
"""Series of one panel are drawn at least this CIEDE2000 apart: two lines crossing each other
in 1-3 px strokes are then told apart by colour alone (near 10, #864444 and #8f4156 are one
dull red to a reader)."""
HUE_STEPS = 24
"""A colour too close to an earlier one turns its hue by 1/24 of the circle at a time."""

Lab = tuple[float, float, float]


def hex_to_rgb(color: str) -> tuple[float, float, float]:
    """``"#rrggbb"`` (or ``"#rrggbbaa"``) to sRGB components in [0, 1]."""
    text = color.lstrip("#")
    if len(text) not in (6, 8):
        raise ValueError(f"not a hex colour: {color!r}")
    return (int(text[0:2], 16) / 255, int(text[2:4], 16) / 255, int(text[4:6], 16) / 255)


def _linear(channel: float) -> float:
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def rgb_to_lab(rgb: tuple[float, float, float]) -> Lab:
    """sRGB in [0, 1] to CIELAB (D65 white)."""
    r, g, b = (_linear(c) for c in rgb)
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > (6 / 29) ** 3 else t / (3 * (6 / 29) ** 2) + 4 / 29

    fx, fy, fz = f(x), f(y), f(z)
    return (116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz))


def hex_to_lab(color: str) -> Lab:
    """``"#rrggbb"`` to CIELAB (D65 white)."""
    return rgb_to_lab(hex_to_rgb(color))


def _hue(b: float, a: float) -> float:
    """Hue angle in degrees, 0..360; 0 for a neutral colour (as Sharma et al. define it)."""
    if a == 0 and b == 0:
        return 0.0
    return math.degrees(math.atan2(b, a)) % 360


def ciede2000(lab1: Lab, lab2: Lab) -> float:
    """The CIEDE2000 colour difference of two CIELAB colours (k_L = k_C = k_H = 1)."""
    l1, a1, b1 = lab1
    l2, a2, b2 = lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar**7 / (c_bar**7 + 25**7)))
    a1p, a2p = (1 + g) * a1, (1 + g) * a2
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p, h2p = _hue(b1, a1p), _hue(b2, a2p)

    dl = l2 - l1
    dc = c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    elif abs(h2p - h1p) <= 180:
        dh = h2p - h1p
    else:
        dh = h2p - h1p - 360 if h2p > h1p else h2p - h1p + 360
    d_big_h = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))

    l_bar = (l1 + l2) / 2
    cp_bar = (c1p + c2p) / 2
    if c1p * c2p == 0:
        hp_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        hp_bar = (h1p + h2p) / 2
    elif h1p + h2p < 360:
        hp_bar = (h1p + h2p + 360) / 2
    else:
        hp_bar = (h1p + h2p - 360) / 2
    t = (
        1
        - 0.17 * math.cos(math.radians(hp_bar - 30))
        + 0.24 * math.cos(math.radians(2 * hp_bar))
        + 0.32 * math.cos(math.radians(3 * hp_bar + 6))
        - 0.20 * math.cos(math.radians(4 * hp_bar - 63))
    )
    d_theta = 30 * math.exp(-(((hp_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(cp_bar**7 / (cp_bar**7 + 25**7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c = 1 + 0.045 * cp_bar
    s_h = 1 + 0.015 * cp_bar * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt(
        (dl / s_l) ** 2
        + (dc / s_c) ** 2
        + (d_big_h / s_h) ** 2
        + r_t * (dc / s_c) * (d_big_h / s_h)
    )


def colour_difference(first: str, second: str) -> float:
    """CIEDE2000 between two hex colours."""
    return ciede2000(hex_to_lab(first), hex_to_lab(second))


def _turned(color: str, turns: float) -> str:
    hue, sat, val = colorsys.rgb_to_hsv(*hex_to_rgb(color))
    r, g, b = colorsys.hsv_to_rgb((hue + turns) % 1.0, sat, val)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


def spread_colours(colors: Sequence[str], minimum: float = MIN_SERIES_DELTA_E) -> list[str]:
    """The colours in order, each turned in hue (saturation and brightness kept) until it is
    at least ``minimum`` CIEDE2000 from every earlier one.

    A colour already far enough stays as it is, so panels whose colours were apart are drawn
    as before; no random numbers are drawn. Where no hue is far enough (a grey), the farthest
    turn is taken.
    """
    out: list[str] = []
    for color in colors:
        candidates = [_turned(color, k / HUE_STEPS) if k else color for k in range(HUE_STEPS)]
        nearest = [
            min((colour_difference(c, o) for o in out), default=math.inf) for c in candidates
        ]
        good = [c for c, d in zip(candidates, nearest, strict=True) if d >= minimum]
        out.append(good[0] if good else candidates[max(range(HUE_STEPS), key=nearest.__getitem__)])
    return out
