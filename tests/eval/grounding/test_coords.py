"""Reading boxes and points from replies in every shape and coordinate frame."""

from __future__ import annotations

import pytest

from figgen.eval.grounding.coords import locate

W, H = 800, 600


@pytest.mark.parametrize(
    "reply",
    [
        '{"mean_y": 2.5, "boxes": [[10, 20, 110, 220]]}',
        '{"mean_y": 2.5, "bbox": [10, 20, 110, 220]}',
        '{"mean_y": 2.5, "boxes": [[110, 220, 10, 20]]}',  # corners in either order
        '```json\n{"mean_y": 2.5, "bbox": {"x_min": 10, "y_min": 20, "x_max": 110, '
        '"y_max": 220}}\n```',
        '{"mean_y": 2.5, "box": {"x": 10, "y": 20, "width": 100, "height": 200}}',
        '{"mean_y": 2.5, "boxes": ["(10, 20, 110, 220)"]}',
        '{"final_answer": 2.5, "final_bbox": {"img": {"bboxes": [[10, 20, 110, 220]]}}}',
        'The answer is {"mean_y": 2.5}. The bars sit in [10, 20, 110, 220].',
        '{"mean_y": 2.5, "boxes": [[0.0125, 0.0333333, 0.1375, 0.3666667]]}',  # 0-1
    ],
)
def test_one_box_in_many_shapes(reply: str) -> None:
    found = locate(reply, "boxes", W, H)
    assert not found.rejected, found.reason
    assert found.boxes == (pytest.approx((10, 20, 110, 220), abs=1e-3),)


def test_frames_are_detected_and_stated() -> None:
    assert locate('{"a": 1, "bbox": [10, 20, 110, 220]}', "boxes", W, H).frame == "pixels"
    unit = locate('{"a": 1, "points": [[0.5, 0.5]]}', "points", W, H)
    assert unit.frame == "unit" and unit.points == ((400.0, 300.0),)
    # 0-1000 grid: 900 is beyond the 600-pixel height, so this cannot be pixels
    grid = locate('{"a": 1, "points": [[500, 900], [250, 100]]}', "points", W, H)
    assert grid.frame == "per_mille"
    assert grid.points == (pytest.approx((400, 540)), pytest.approx((200, 60)))
    # beyond the image and beyond 1000: pixels (a wrong answer, scored as given)
    assert locate('{"a": 1, "points": [[1500, 20]]}', "points", W, H).frame == "pixels"


@pytest.mark.parametrize(
    "reply",
    [
        '{"n": 3, "points": [[12, 30], [40.5, 60]]}',
        '{"n": 3, "points": [{"x": 12, "y": 30}, {"x": 40.5, "y": 60}]}',
        '{"n": 3, "points": "(12, 30), (40.5, 60)"}',
        '{"n": 3, "points": ["(12, 30)", "[40.5, 60]"]}',
        '{"n": 3} I looked at (12, 30) and (40.5, 60).',
    ],
)
def test_points_in_many_shapes(reply: str) -> None:
    found = locate(reply, "points", W, H)
    assert found.points == ((12.0, 30.0), (40.5, 60.0)), found.reason


def test_the_answer_itself_is_not_read_as_coordinates() -> None:
    # a number_pair answer inside the JSON object is not a point
    found = locate('{"x_range": [0.5, 10]}', "points", W, H)
    assert found.rejected and found.reason == "no points in the reply"
    assert locate("", "boxes", W, H).rejected
    bad = locate('{"a": 1, "boxes": [[1, 2, 3]]}', "boxes", W, H)
    assert bad.rejected and "unreadable" in (bad.reason or "")
