"""The by-eye rules of figgen.vqa.api.answerable on hand-made records, each against its own
independent computation."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pytest

from benchmarks.audit_answerable import covered_share
from figgen._util.discs import disc_overlaps
from figgen.schema.panel import PanelRecord
from figgen.schema.record import Record
from figgen.vqa import questions_for_record
from figgen.vqa.api.answerable import (
    MAX_MARKER_OVERLAP,
    MIN_TREND_PX,
    look_alike_lines,
    trend_pixels,
)
from figgen.vqa.api.context import FigureContext
from figgen.vqa.api.reading.line_names import colour_words
from figgen.vqa.questions.family_table import series_families
from tests.vqa.records import family, line_panel, make_record, scatter_panel, typed

LINE_FAMILIES = series_families()


def _first_panel(record: dict[str, Any]) -> tuple[FigureContext, PanelRecord]:
    ctx = FigureContext(Record.from_dict(record))
    return ctx, ctx.record.panels[0]


def _two_lines(colors: tuple[str, str], styles: tuple[str, str] = ("-", "-")) -> dict[str, Any]:
    panel = line_panel(np.random.default_rng(4), colors=colors, legend=True)
    for series, style in zip(panel["data"]["series"], styles, strict=True):
        series["linestyle"] = style
    panel["style"]["linewidth"] = 2.0
    return panel


def _with_legend(record: dict[str, Any], handle: float | None) -> dict[str, Any]:
    """A legend in the panel's top-right corner whose samples are ``handle`` points long."""
    legend = {"id": 900, "kind": "legend", "panel": 0, "bbox": [150, 2, 178, 12]}
    if handle is not None:
        legend["handle"] = handle
    record["elements"].append(legend)
    record["style"] = {"mpl_style": "default", "sizes": {"legend": 8.0}}
    return record


def test_look_alike_lines_of_one_style_get_no_question_naming_them() -> None:
    record = _with_legend(make_record([_two_lines(("#864444", "#8f4156"))], 1, 1), 20.0)
    assert look_alike_lines(*_first_panel(record)) == {0, 1}
    items = questions_for_record(record)
    assert not [item for item in items if item.family in LINE_FAMILIES]
    assert family(items, "n_lines")  # the panel is still asked about as a whole


def test_a_dash_pattern_tells_look_alikes_apart_only_where_the_legend_shows_it() -> None:
    panel = _two_lines(("#4b4a97", "#5f53a5"), ("-", "-."))
    # dash-dot at line width 2: (6.4 + 1.6 + 1 + 1.6) * 2 = 21.2 pt a period; 1.5 of them is 31.8
    short = _with_legend(make_record([panel], 1, 1), 16.0)  # matplotlib's 2 x 8 pt font
    long = _with_legend(make_record([panel], 1, 1), 32.0)
    assert look_alike_lines(*_first_panel(short)) == {0, 1}
    assert look_alike_lines(*_first_panel(long)) == set()
    # a record written before legends recorded their samples drew matplotlib's 2 font sizes
    old = _with_legend(make_record([panel], 1, 1), None)
    assert look_alike_lines(*_first_panel(old)) == {0, 1}
    assert any(item.family == "mean_y" for item in questions_for_record(long))


def test_far_colours_are_never_look_alike() -> None:
    record = _with_legend(make_record([_two_lines(("#d62728", "#1f77b4"))], 1, 1), 16.0)
    assert look_alike_lines(*_first_panel(record)) == set()


def test_colour_words_only_where_no_other_line_matches_the_word() -> None:
    rng = np.random.default_rng(1)
    # "#5f53a5" is named purple; "#4b4a97" has no sure name but could be called purple
    clash = line_panel(rng, colors=("#5f53a5", "#4b4a97"))
    assert colour_words(typed(clash)) == [None, None]
    plain = line_panel(rng, colors=("#d62728", "#1f77b4"))
    assert colour_words(typed(plain)) == ["red", "blue"]
    items = questions_for_record(make_record([clash], 1, 1))
    assert not [item for item in items if "purple" in item.question]


def test_disc_overlaps_match_the_circle_lens_and_a_sampled_count() -> None:
    # two unit discs one radius apart overlap 2pi/3 - sqrt(3)/2 of area pi each
    boxes = [[0, 0, 2, 2], [1, 0, 3, 2]]
    lens = (2 * math.pi / 3 - math.sqrt(3) / 2) / math.pi
    assert disc_overlaps(boxes)[0, 1] == pytest.approx(lens, abs=1e-9)
    rng = np.random.default_rng(0)
    for _ in range(5):
        centres, radii = rng.uniform(0, 10, (3, 2)), rng.uniform(1, 4, 3)
        boxes = [[*(c - r), *(c + r)] for c, r in zip(centres, radii, strict=True)]
        # the audit counts grid points of each disc inside the other: within 1% of the area
        assert disc_overlaps(boxes).max() == pytest.approx(covered_share(boxes), abs=0.01)
    assert disc_overlaps([[0, 0, 2, 2], [5, 5, 7, 7]]).max() == 0.0


def _scatter_with_points(distance: float) -> dict[str, Any]:
    """A scatter record whose first two point boxes (radius 5 px) lie ``distance`` apart."""
    panel = scatter_panel(np.random.default_rng(3), n=12)
    record = make_record([panel], 1, 1)
    for i in range(12):
        cx, cy = (10 + 14 * i, 60) if i > 1 else (100 + distance * i, 100)
        record["elements"].append(
            {
                "id": 100 + i,
                "kind": "point",
                "panel": 0,
                "item": i,
                "bbox": [cx - 5, cy - 5, cx + 5, cy + 5],
            }
        )
    return record


def test_n_points_only_where_no_two_markers_overlap_past_the_share() -> None:
    # discs of radius 5 at distance 1: a lens of ~87% of each disc; at 6: ~25%
    assert covered_share([[95, 95, 105, 105], [96, 95, 106, 105]]) > MAX_MARKER_OVERLAP
    assert covered_share([[95, 95, 105, 105], [101, 95, 111, 105]]) < MAX_MARKER_OVERLAP
    assert family(questions_for_record(_scatter_with_points(1.0)), "n_points") == []
    (count,) = family(questions_for_record(_scatter_with_points(6.0)), "n_points")
    assert count.answer == 12


def test_a_trend_of_a_few_pixels_is_not_asked() -> None:
    rng = np.random.default_rng(5)
    panel = line_panel(rng, n_series=2)
    x = np.linspace(0, 10, 11)
    flat, steep = panel["data"]["series"]
    flat["y"] = (40 + 0.02 * x + rng.normal(0, 0.0005, x.size)).round(5).tolist()
    steep["y"] = (8.0 * x + 5).round(4).tolist()
    panel["params"]["series"] = [
        {"slope": 0.02, "intercept": 40.0, "noise": 0.0},
        {"slope": 8.0, "intercept": 5.0, "noise": 0.0},
    ]
    record = make_record([panel], 1, 1)
    ctx = FigureContext(Record.from_dict(record))
    # the plot box is 130 px tall; the drawn y values span 5..85 at 1/1.1 of it
    per_unit = 130 / 1.1 / (85 - 5)
    assert trend_pixels(ctx, ctx.record.panels[0], flat["x"], flat["y"]) == pytest.approx(
        0.2 * per_unit, rel=0.01
    )
    assert 0.2 * per_unit < MIN_TREND_PX <= 80 * per_unit
    trends = family(questions_for_record(record), "trend")
    assert [item.answer for item in trends] == ["increasing"]
    assert "orange line" in trends[0].question  # the steep one (no legend: named by colour)


def test_values_on_a_log_axis_need_two_labelled_ticks() -> None:
    rng = np.random.default_rng(6)
    panel = scatter_panel(rng, n=40)
    panel["data"]["y"] = [10 ** (1 + v / 20) for v in panel["data"]["y"]]
    record = make_record([panel], 1, 1)
    record["panels"][0]["yscale"] = "log"
    assert family(questions_for_record(record), "mean_y")  # "-2" and "10^1" labelled
    one = dict(record, elements=[e for e in record["elements"] if e.get("text") != "\u22122"])
    assert family(questions_for_record(one), "mean_y") == []
    assert family(questions_for_record(one), "n_points") == family(
        questions_for_record(record), "n_points"
    )  # counts do not read the axis
