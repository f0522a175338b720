"""Warps: every point of a box lands inside the moved box; fitted canvases cut nothing."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from figgen.perturb.geometry import Warp, fitted, rotation, scaling, shearing

transforms = st.tuples(
    st.floats(-30, 30), st.floats(-0.4, 0.4), st.floats(0.3, 2.0), st.floats(0.3, 2.0)
).map(lambda t: rotation(t[0]) @ shearing(t[1]) @ scaling(t[2], t[3]))
boxes = st.tuples(
    st.integers(0, 150), st.integers(0, 100), st.integers(0, 40), st.integers(0, 40)
).map(lambda t: (float(t[0]), float(t[1]), float(t[0] + t[2]), float(t[1] + t[3])))


@settings(max_examples=200, deadline=None)
@given(transforms, boxes, st.floats(0, 1), st.floats(0, 1))
def test_points_of_a_box_stay_in_the_moved_box(matrix, box, u, v) -> None:
    moved, size = fitted(matrix, 200, 150)
    warp = Warp(moved, size)
    x0, y0, x1, y1 = warp.box(box)
    px = box[0] + u * (box[2] - box[0])
    py = box[1] + v * (box[3] - box[1])
    qx, qy, _ = moved @ np.array([px, py, 1.0])
    assert x0 - 1e-6 <= qx <= x1 + 1e-6 and y0 - 1e-6 <= qy <= y1 + 1e-6
    assert 0 <= x0 <= x1 <= size[0] and 0 <= y0 <= y1 <= size[1]
    whole = warp.box((0.0, 0.0, 200.0, 150.0))
    assert whole == (0.0, 0.0, float(size[0]), float(size[1]))  # nothing falls off the canvas


def test_rotating_a_box_gives_the_box_of_its_rotated_corners() -> None:
    warp = Warp(rotation(90), (100, 100))  # about the origin: (x, y) -> (y, -x)
    assert warp.box((0.0, -50.0, 10.0, -30.0)) == (0.0, 0.0, 0.0, 0.0)  # clipped: off canvas
    moved, size = fitted(rotation(90), 40, 20)
    assert size == (20, 40)
    # the box [0, 0, 10, 5] of a 40 x 20 image, turned a quarter counter-clockwise
    assert Warp(moved, size).box((0.0, 0.0, 10.0, 5.0)) == (0.0, 30.0, 5.0, 40.0)


def test_a_rotation_below_the_snap_keeps_the_canvas_and_the_whole_box() -> None:
    moved, size = fitted(rotation(5.96e-8), 200, 150)  # once grew the canvas to 201 x 151
    assert size == (200, 150)
    assert Warp(moved, size).box((0.0, 0.0, 200.0, 150.0)) == (0.0, 0.0, 200.0, 150.0)
