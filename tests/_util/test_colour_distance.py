"""CIEDE2000 against Sharma, Wu and Dalal's published test data; series colours kept apart."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from figgen._util.colour_distance import (
    MIN_SERIES_DELTA_E,
    ciede2000,
    colour_difference,
    hex_to_lab,
    spread_colours,
)

# G. Sharma, W. Wu, E. N. Dalal, "The CIEDE2000 color-difference formula: implementation notes,
# supplementary test data, and mathematical observations", Color Res. Appl. 30 (2005), Table 1:
# (L1, a1, b1, L2, a2, b2, dE00), the 34 pairs as published (4 decimals).
SHARMA_PAIRS = [
    (50.0000, 2.6772, -79.7751, 50.0000, 0.0000, -82.7485, 2.0425),
    (50.0000, 3.1571, -77.2803, 50.0000, 0.0000, -82.7485, 2.8615),
    (50.0000, 2.8361, -74.0200, 50.0000, 0.0000, -82.7485, 3.4412),
    (50.0000, -1.3802, -84.2814, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, -1.1848, -84.8006, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, -0.9009, -85.5211, 50.0000, 0.0000, -82.7485, 1.0000),
    (50.0000, 0.0000, 0.0000, 50.0000, -1.0000, 2.0000, 2.3669),
    (50.0000, -1.0000, 2.0000, 50.0000, 0.0000, 0.0000, 2.3669),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0009, 7.1792),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0010, 7.1792),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0011, 7.2195),
    (50.0000, 2.4900, -0.0010, 50.0000, -2.4900, 0.0012, 7.2195),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0009, -2.4900, 4.8045),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0010, -2.4900, 4.8045),
    (50.0000, -0.0010, 2.4900, 50.0000, 0.0011, -2.4900, 4.7461),
    (50.0000, 2.5000, 0.0000, 50.0000, 0.0000, -2.5000, 4.3065),
    (50.0000, 2.5000, 0.0000, 73.0000, 25.0000, -18.0000, 27.1492),
    (50.0000, 2.5000, 0.0000, 61.0000, -5.0000, 29.0000, 22.8977),
    (50.0000, 2.5000, 0.0000, 56.0000, -27.0000, -3.0000, 31.9030),
    (50.0000, 2.5000, 0.0000, 58.0000, 24.0000, 15.0000, 19.4535),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.1736, 0.5854, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.2972, 0.0000, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 1.8634, 0.5757, 1.0000),
    (50.0000, 2.5000, 0.0000, 50.0000, 3.2592, 0.3350, 1.0000),
    (60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644),
    (63.0109, -31.0961, -5.8663, 62.8187, -29.7946, -4.0864, 1.2630),
    (61.2901, 3.7196, -5.3901, 61.4292, 2.2480, -4.9620, 1.8731),
    (35.0831, -44.1164, 3.7933, 35.0232, -40.0716, 1.5901, 1.8645),
    (22.7233, 20.0904, -46.6940, 23.0331, 14.9730, -42.5619, 2.0373),
    (36.4612, 47.8580, 18.3852, 36.2715, 50.5065, 21.2231, 1.4146),
    (90.8027, -2.0831, 1.4410, 91.1528, -1.6435, 0.0447, 1.4441),
    (90.9257, -0.5406, -0.9208, 88.6381, -0.8985, -0.7239, 1.5381),
    (6.7747, -0.2908, -2.4247, 5.8714, -0.0985, -2.2286, 0.6377),
    (2.0776, 0.0795, -1.1350, 0.9033, -0.0636, -0.5514, 0.9082),
]


@pytest.mark.parametrize("pair", SHARMA_PAIRS, ids=[f"pair{i + 1}" for i in range(34)])
def test_ciede2000_matches_sharma_table(pair: tuple[float, ...]) -> None:
    l1, a1, b1, l2, a2, b2, expected = pair
    assert ciede2000((l1, a1, b1), (l2, a2, b2)) == pytest.approx(expected, abs=5e-5)
    # the formula is symmetric in its two colours
    assert ciede2000((l2, a2, b2), (l1, a1, b1)) == pytest.approx(expected, abs=5e-5)


def test_lab_of_srgb_primaries_matches_published_values() -> None:
    # CIELAB (D65) of sRGB white, red and blue as tabulated by Lindbloom's calculator
    assert hex_to_lab("#ffffff") == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert hex_to_lab("#ff0000") == pytest.approx((53.24, 80.09, 67.20), abs=0.02)
    assert hex_to_lab("#0000ff") == pytest.approx((32.30, 79.19, -107.86), abs=0.02)


def test_the_issue_look_alike_pairs_are_close() -> None:
    assert colour_difference("#864444", "#8f4156") < MIN_SERIES_DELTA_E
    assert colour_difference("#4b4a97", "#5f53a5") < MIN_SERIES_DELTA_E


def test_spread_colours_keeps_far_colours_and_turns_near_ones() -> None:
    far = ["#d62728", "#1f77b4", "#2ca02c"]
    assert spread_colours(far) == far
    near = ["#864444", "#8f4156", "#894a4a"]
    spread = spread_colours(near)
    assert spread[0] == near[0]
    for a, b in itertools.combinations(spread, 2):
        assert colour_difference(a, b) >= MIN_SERIES_DELTA_E


def test_spread_colours_keeps_saturation_and_brightness() -> None:
    import colorsys

    first, second = spread_colours(["#864444", "#8f4156"])
    rgb = [int(second[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    _, sat, val = colorsys.rgb_to_hsv(*rgb)
    _, sat0, val0 = colorsys.rgb_to_hsv(0x8F / 255, 0x41 / 255, 0x56 / 255)
    assert np.isclose(sat, sat0, atol=0.02) and np.isclose(val, val0, atol=0.01)
