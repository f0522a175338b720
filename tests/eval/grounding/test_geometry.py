"""DIoU and Chamfer distance against hand-worked cases and brute-force computations."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from figgen.eval.grounding.geometry import chamfer, diou, iou, matched_diou, normalised_chamfer

A = (0.0, 0.0, 10.0, 10.0)


@pytest.mark.parametrize(
    ("predicted", "truth", "expected"),
    [
        (A, A, 1.0),  # identical
        # disjoint: IoU 0, centres 20 apart, enclosing box 30 x 10
        ((20.0, 0.0, 30.0, 10.0), A, 0.0 - 400 / (30**2 + 10**2)),
        # nested: IoU 100/400, centres (5,5) and (10,10), enclosing box 20 x 20
        (A, (0.0, 0.0, 20.0, 20.0), 0.25 - 50 / 800),
        # offset by 5 in x: IoU 50/150, centres 5 apart, enclosing box 15 x 10
        ((5.0, 0.0, 15.0, 10.0), A, 50 / 150 - 25 / (15**2 + 10**2)),
        # far apart diagonally: the penalty approaches 1
        ((1000.0, 1000.0, 1001.0, 1001.0), (0.0, 0.0, 1.0, 1.0), -(1000**2 * 2) / (1001**2 * 2)),
    ],
)
def test_diou_hand_cases(predicted, truth, expected) -> None:
    assert diou(predicted, truth) == pytest.approx(expected)
    assert diou(truth, predicted) == pytest.approx(expected)  # symmetric


def _raster_iou(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    grid = np.zeros((2, 60, 60), dtype=bool)
    grid[0, a[1] : a[3], a[0] : a[2]] = True
    grid[1, b[1] : b[3], b[0] : b[2]] = True
    return float((grid[0] & grid[1]).sum() / (grid[0] | grid[1]).sum())


def _brute_diou(a: tuple[int, ...], b: tuple[int, ...]) -> float:
    ca = ((a[0] + a[2]) / 2, (a[1] + a[3]) / 2)
    cb = ((b[0] + b[2]) / 2, (b[1] + b[3]) / 2)
    corners_x = [a[0], a[2], b[0], b[2]]
    corners_y = [a[1], a[3], b[1], b[3]]
    d = math.dist((min(corners_x), min(corners_y)), (max(corners_x), max(corners_y)))
    return _raster_iou(a, b) - math.dist(ca, cb) ** 2 / d**2


boxes = st.tuples(
    st.integers(0, 50), st.integers(0, 50), st.integers(1, 10), st.integers(1, 10)
).map(lambda t: (t[0], t[1], t[0] + t[2], t[1] + t[3]))


@settings(max_examples=150, deadline=None)
@given(boxes, boxes)
def test_diou_equals_a_rasterised_computation(a, b) -> None:
    fa, fb = tuple(map(float, a)), tuple(map(float, b))
    assert iou(fa, fb) == pytest.approx(_raster_iou(a, b))
    assert diou(fa, fb) == pytest.approx(_brute_diou(a, b))
    assert -1.0 < diou(fa, fb) <= 1.0


def test_matched_diou_pairs_boxes_and_charges_the_unpaired() -> None:
    b = (100.0, 100.0, 120.0, 110.0)
    assert matched_diou([b, A], [A, b]) == pytest.approx(1.0)  # order does not matter
    assert matched_diou([A], [A, b]) == pytest.approx((1.0 - 1.0) / 2)  # one box missing
    assert matched_diou([A, b, b], [A]) == pytest.approx((1.0 - 2.0) / 3)  # two extra
    assert matched_diou([], [A]) == -1.0
    shifted = (5.0, 0.0, 15.0, 10.0)
    assert matched_diou([shifted], [A]) == pytest.approx(diou(shifted, A))


def _brute_chamfer(p: list[tuple[float, float]], t: list[tuple[float, float]]) -> float:
    forward = sum(min(math.dist(a, b) for b in t) for a in p) / len(p)
    backward = sum(min(math.dist(a, b) for a in p) for b in t) / len(t)
    return forward + backward


def test_chamfer_hand_cases() -> None:
    assert chamfer([(1.0, 2.0)], [(1.0, 2.0)]) == 0.0  # identical
    assert chamfer([(0.0, 0.0)], [(3.0, 4.0)]) == pytest.approx(10.0)  # offset 5, both ways
    # an extra predicted point 10 away costs half of 10 one way, nothing the other way
    assert chamfer([(0.0, 0.0), (10.0, 0.0)], [(0.0, 0.0)]) == pytest.approx(5.0)
    # nested sets: the truth is a subset of the prediction
    assert chamfer([(0.0, 0.0), (0.0, 6.0), (8.0, 0.0)], [(0.0, 0.0)]) == pytest.approx(14 / 3)
    # normalised by the diagonal of a 300 x 400 image
    assert normalised_chamfer([(0.0, 0.0)], [(3.0, 4.0)], 300, 400) == pytest.approx(10 / 500)
    with pytest.raises(ValueError):
        chamfer([], [(0.0, 0.0)])


points = st.lists(
    st.tuples(st.floats(0, 500, allow_nan=False), st.floats(0, 500, allow_nan=False)),
    min_size=1,
    max_size=12,
)


@settings(max_examples=100, deadline=None)
@given(points, points)
def test_chamfer_equals_brute_force(p, t) -> None:
    assert chamfer(p, t) == pytest.approx(_brute_chamfer(p, t), abs=1e-9)
    assert chamfer(p, t) == pytest.approx(chamfer(t, p), abs=1e-9)
