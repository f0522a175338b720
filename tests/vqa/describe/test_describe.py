"""Series names, axis readings and alt text: the parts every description is built from."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from figgen.vqa.api.reading.line_names import described_names
from figgen.vqa.api.reading.readout import (
    AxisReading,
    axis_reading,
    axis_unit,
    nice_step,
    resolution_for,
    spoken_number,
)
from figgen.vqa.describe.alt_text import MAX_ALT, figure_alt_text, fit, panel_alt_text
from tests.vqa.records import line_panel, typed


def _lines(colors: tuple[str, ...], styles: tuple[str, ...], *, legend: bool = False) -> dict:
    panel = line_panel(np.random.default_rng(0), n_series=len(colors), colors=colors, legend=legend)
    for series, style in zip(panel["data"]["series"], styles, strict=True):
        series["linestyle"] = style
    return panel


def test_legend_labels_name_lines_first_and_are_spoken() -> None:
    panel = _lines(("#1f77b4", "#1f77b4"), ("-", "-"), legend=True)
    panel["data"]["series"][0]["label"] = r"$\alpha_1$"
    assert described_names(typed(panel)) == [
        'the line labelled "alpha sub 1"',
        'the line labelled "series 1"',
    ]


def test_same_colour_lines_are_told_apart_by_line_style() -> None:
    panel = _lines(("#d62728", "#d62728", "#1f77b4"), ("-", "--", ":"))
    assert described_names(typed(panel)) == [
        "the solid red line",
        "the dashed red line",
        "the dotted blue line",
    ]


def test_indistinct_lines_are_named_by_their_height_at_the_left_edge() -> None:
    panel = _lines(("#d62728", "#d62728", "#d62728"), ("-", "-", "-"))
    third = panel["data"]["series"][2]
    third["y"] = [v + 15 for v in third["y"]]  # the same relation as the first, drawn higher
    starts = [s["y"][0] for s in panel["data"]["series"]]
    names = described_names(typed(panel))
    assert len(set(names)) == 3
    top, bottom = int(np.argmax(starts)), int(np.argmin(starts))
    assert names[top] == "the top line at the left edge"
    assert names[bottom] == "the bottom line at the left edge"
    assert "the middle line at the left edge" in names


def test_lines_starting_together_are_named_at_the_right_edge() -> None:
    panel = _lines(("#d62728", "#d62728"), ("-", "-"))
    first, second = panel["data"]["series"]
    second["y"][0] = first["y"][0]  # they start at one point, apart at the end
    higher_at_end = int(second["y"][-1] > first["y"][-1])
    names = described_names(typed(panel))
    assert names[higher_at_end] == "the top line at the right edge"


@pytest.mark.parametrize(
    ("step", "value", "said"),
    [(0.5, 0.3712, "0.37"), (50.0, 37.26, "37"), (2000.0, 37281.0, "37300"), (1.0, 0.0371, "0")],
)
def test_values_are_rounded_one_digit_finer_than_the_ticks(
    step: float, value: float, said: str
) -> None:
    reading = AxisReading(resolution_for(step))
    assert reading.resolution == 10 ** math.floor(math.log10(step / 10))
    assert reading.number(value) == said


def test_tick_spacing_comes_from_the_drawn_tick_labels() -> None:
    from figgen.schema.record import Record
    from figgen.vqa.api.context import FigureContext
    from tests.vqa.records import make_record

    record = Record.from_dict(make_record([line_panel(np.random.default_rng(0))], 1, 1))
    panel = record.panels[0]
    reading = axis_reading(FigureContext(record), panel, "x", [0.0, 10.0])  # ticks 0, 5, 10
    assert reading.resolution == 0.1
    assert axis_reading(None, panel, "x", [0.0, 0.9]).resolution == 0.01  # 1-2-5 step 0.2


def test_log_axes_and_units_are_said() -> None:
    panel = typed({"kind": "line", "xscale": "log", "xlabel": r"frequency [$\mu$Hz]"})
    reading = axis_reading(None, panel, "x", [1.0, 1000.0])
    assert reading.log and reading.unit == "mu Hz"
    assert reading.span(0.0123, 4567.0) == "from 0.012 to 4600 mu Hz on a logarithmic scale"
    assert axis_unit("time (s)") == "s" and axis_unit("$\\sigma(x)$") is None


def test_numbers_read_aloud() -> None:
    assert spoken_number(-0.0004) == "-4 times 10 to the power -4"
    assert spoken_number(2.5e7, digits=2) == "2.5 times 10 to the power 7"
    assert spoken_number(-0.01, decimals=1) == "0"
    assert nice_step(37.0) == 10.0 and nice_step(0.9) == 0.2


@given(st.text(min_size=0, max_size=300), st.text(min_size=0, max_size=80))
def test_alt_text_always_fits(head: str, subject: str) -> None:
    alt = fit(head[:120], subject)
    assert len(alt) <= MAX_ALT
    assert alt in (f"{head[:120]}{subject}.", f"{head[:120]}.")  # whole, never cut


def test_alt_text_names_kind_count_and_subject() -> None:
    panel = {"kind": "line", "title": None, "xlabel": "time", "ylabel": r"$\Phi$ flux"}
    assert panel_alt_text(typed(panel)) == 'Line plot of "capital phi flux" against "time".'
    panels = [dict(panel, kind="histogram", title="A " * 100)] + [panel] * 3
    alt = figure_alt_text([typed(p) for p in panels], 2, 2)
    assert alt.startswith("Figure of 4 panels in two rows and two columns: three line plots")
    assert len(alt) < 150 and "..." not in alt and "A A" not in alt  # the long title left out
    assert alt.count('"') % 2 == 0 and alt.endswith('"capital phi flux".')


@given(st.text(alphabet="ab ", min_size=1, max_size=200), st.integers(1, 25))
def test_alt_text_quotes_only_whole_labels(title: str, n: int) -> None:
    panel = {"kind": "scatter", "title": title, "xlabel": "x", "ylabel": "y"}
    for alt in (panel_alt_text(typed(panel)), figure_alt_text([typed(panel)] * n, 1, n)):
        assert 0 < len(alt) <= MAX_ALT and "..." not in alt
        quoted = alt.split('"')[1::2]
        assert all(q in (" ".join(title.split()), "x", "y") for q in quoted), alt
