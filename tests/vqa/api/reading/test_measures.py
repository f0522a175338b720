import pytest

from figgen.schema.elements import Element
from figgen.vqa.api.reading.measures import tick_number, tick_values


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("0", 0.0),
        ("\u22125", -5.0),
        ("2.5", 2.5),
        ("1,000", 1000.0),
        ("$\\mathdefault{-50}$", -50.0),
        ("$\\mathdefault{10^{3}}$", 1000.0),
        ("$\\mathdefault{10^{-1}}$", 0.1),
        ("$\\mathdefault{2\\times10^{1}}$", 20.0),
        ("$\\mathdefault{0.0}$", 0.0),
        ("$10^{2}$", 100.0),
    ],
)
def test_tick_numbers(text: str, value: float) -> None:
    assert tick_number(text) == pytest.approx(value)


@pytest.mark.parametrize("text", ["", "abc", "$\\alpha$", "1e"])
def test_non_numbers_are_none(text: str) -> None:
    assert tick_number(text) is None


def label(text: str, x: float, y: float) -> Element:
    return Element(0, "xtick_label", 0, (x, y, x + 10, y + 8), text=text)


def test_ticks_in_drawn_order_without_repeats() -> None:
    xs = [label("2", 50, 100), label("0", 10, 100), label("2", 50, 0)]  # top and bottom copy
    assert tick_values(xs, "x") == [0.0, 2.0]
    ys = [label("10", 0, 20), label("0", 0, 80)]  # pixel y grows downward
    assert tick_values(ys, "y") == [0.0, 10.0]
    assert tick_values([label("x", 0, 0)], "x") is None
    assert tick_values([], "y") is None
