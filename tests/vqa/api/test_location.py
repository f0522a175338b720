import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from figgen.errors import FiggenError
from figgen.vqa.api.location import ordinal, panel_location, parse_location

GRIDS = [(r, c) for r in range(1, 6) for c in range(1, 6)] + [(1, 8), (8, 1), (1, 25), (25, 1)]


@pytest.mark.parametrize(("rows", "cols"), GRIDS)
def test_every_phrase_is_unique_and_parses_back(rows: int, cols: int) -> None:
    phrases = {
        (r, c): panel_location(r, c, rows, cols)
        for r, c in itertools.product(range(rows), range(cols))
    }
    assert len(set(phrases.values())) == rows * cols
    for (r, c), phrase in phrases.items():
        assert parse_location(phrase, rows, cols) == (r, c), phrase


@given(st.integers(1, 25), st.integers(1, 25), st.data())
def test_round_trip_on_any_grid(rows: int, cols: int, data: st.DataObject) -> None:
    r = data.draw(st.integers(0, rows - 1))
    c = data.draw(st.integers(0, cols - 1))
    assert parse_location(panel_location(r, c, rows, cols), rows, cols) == (r, c)


def test_phrases_read_as_people_say_them() -> None:
    assert panel_location(0, 0, 1, 1) == "the only panel"
    assert [panel_location(0, c, 1, 2) for c in range(2)] == ["the left panel", "the right panel"]
    assert [panel_location(r, 0, 3, 1) for r in range(3)] == [
        "the top panel",
        "the middle panel",
        "the bottom panel",
    ]
    assert panel_location(0, 0, 1, 4) == "the leftmost panel"
    assert panel_location(0, 2, 1, 4) == "the second panel from the right"
    assert panel_location(0, 2, 2, 3) == "the top-right panel"
    assert panel_location(1, 2, 4, 5) == "the middle panel in the second row from the top"
    assert panel_location(2, 1, 4, 5) == (
        "the second panel from the left in the second row from the bottom"
    )


def test_rows_count_from_the_top_and_columns_from_the_left() -> None:
    # The anchor code swaps rows and columns in one branch; a 3x2 grid catches that.
    assert panel_location(1, 0, 3, 2) == "the left panel in the middle row"
    assert panel_location(0, 1, 2, 3) == "the middle panel in the top row"
    assert parse_location("the left panel in the middle row", 3, 2) == (1, 0)


@pytest.mark.parametrize(
    ("phrase", "rows", "cols"),
    [
        ("the top panel", 1, 3),  # vertical words in a horizontal strip
        ("the middle row in the left panel", 3, 3),  # row and column swapped
        ("the third panel from the left", 1, 2),  # outside the strip
        ("the panel somewhere", 2, 2),
        ("the only panel", 2, 2),
    ],
)
def test_bad_phrases_are_rejected(phrase: str, rows: int, cols: int) -> None:
    with pytest.raises(FiggenError):
        parse_location(phrase, rows, cols)


def test_ordinals() -> None:
    assert [ordinal(n) for n in (1, 2, 3, 11, 25)] == [
        "first",
        "second",
        "third",
        "eleventh",
        "twenty-fifth",
    ]
    assert [ordinal(n) for n in (26, 31, 42, 113)] == ["26th", "31st", "42nd", "113th"]
