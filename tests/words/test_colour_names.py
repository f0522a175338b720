import pytest

from figgen.vqa.questions.colormap_choices import colormap_choices
from figgen.words.colour_names import color_name, rgb_to_lab


def test_lab_of_white_black_and_red() -> None:
    assert rgb_to_lab((1, 1, 1)) == pytest.approx((100, 0, 0), abs=0.05)
    assert rgb_to_lab((0, 0, 0)) == pytest.approx((0, 0, 0), abs=1e-6)
    # published CIELAB of sRGB red (D65): 53.24, 80.09, 67.20
    assert rgb_to_lab((1, 0, 0)) == pytest.approx((53.24, 80.09, 67.20), abs=0.05)


@pytest.mark.parametrize(
    ("hex_color", "name"),
    [
        ("#1f77b4", "blue"),
        ("#ff7f0e", "orange"),
        ("#2ca02c", "green"),
        ("#d62728", "red"),
        ("#000000", "black"),
        ("#7f7f7f", "gray"),
        ("#17becf", "cyan"),
        ("#e377c2", "pink"),
    ],
)
def test_matplotlib_default_cycle_is_named(hex_color: str, name: str) -> None:
    assert color_name(hex_color) == name


def test_in_between_colours_have_no_name() -> None:
    assert color_name("#bcbd22") is None  # olive: yellow or green?
    assert color_name("#cc79a7") is None  # between pink and purple


def test_colormap_choices_are_the_answers_group_sorted() -> None:
    choices = colormap_choices("viridis")
    assert choices is not None and "viridis" in choices and len(choices) == 5
    assert choices == sorted(choices, key=str.lower)
    assert all(colormap_choices(name) == choices for name in choices)
    assert colormap_choices("Greys") is None  # outside the generator's pool: not asked
    assert colormap_choices("no_such_map") is None
