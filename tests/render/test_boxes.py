from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from figgen.render.boxes import intersect, overlaps, to_pixels

coord = st.floats(-1e4, 1e4, allow_nan=False)


def test_flip_puts_the_origin_top_left() -> None:
    # A display box near the bottom-left corner of a 100 px tall canvas.
    assert to_pixels((10.2, 5.5, 20.7, 15.0), 100) == (10.0, 85.0, 21.0, 95.0)


@given(coord, coord, coord, coord, st.integers(1, 5000))
def test_flip_rounds_outward_and_keeps_order(
    x0: float, y0: float, x1: float, y1: float, height: int
) -> None:
    box = to_pixels((x0, y0, x1, y1), height)
    assert box[0] <= min(x0, x1) and box[2] >= max(x0, x1)
    assert box[1] <= height - max(y0, y1) and box[3] >= height - min(y0, y1)
    assert all(float(v).is_integer() for v in box)


def test_intersect_and_overlap() -> None:
    assert intersect((0, 0, 10, 10), (5, 5, 20, 20)) == (5, 5, 10, 10)
    assert intersect((0, 0, 4, 4), (5, 5, 20, 20)) is None
    assert overlaps((0, 0, 10, 10), (9, 9, 12, 12))
    assert not overlaps((0, 0, 10, 10), (10, 0, 20, 10))  # touching edges only


def test_repair_checks_the_record_text_kinds_with_legends_whole() -> None:
    from figgen.kinds import element_tables
    from figgen.render.repair import TEXT_BOX_KINDS

    tables = element_tables()
    assert (tables.text - tables.mark_text - {"legend_entry"}) | {"legend"} == TEXT_BOX_KINDS
