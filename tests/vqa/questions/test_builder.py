"""Every family of a mixed record (all four default kinds) against a second, independently
written computation; each kind's own cases are in tests/kinds/test_<kind>.py."""

from __future__ import annotations

import json
import re
from typing import Any

import numpy as np
import pytest

from figgen.vqa import QAItem, parse_location, questions_for_record
from tests.vqa.records import (
    family,
    make_record,
    mixed_record,
    scatter_panel,
)

pytestmark = pytest.mark.usefixtures("unbalanced")  # rules, not balancing: see test_balance.py

SERIES_COLOURS = {"blue": "#1f77b4", "orange": "#ff7f0e", "green": "#2ca02c"}


def panel_of(record: dict[str, Any], item: QAItem) -> dict[str, Any]:
    """The panel an item names, found by parsing its location words (not its index)."""
    rows, cols = record["layout"]["rows"], record["layout"]["cols"]
    row, col = parse_location(item.location or "", rows, cols)
    (panel,) = [p for p in record["panels"] if (p["row"], p["col"]) == (row, col)]
    assert panel["index"] == item.panel
    return panel


def series_of(panel: dict[str, Any], item: QAItem) -> dict[str, Any]:
    colour = re.search(r"the (\w+) line", item.question).group(1)  # type: ignore[union-attr]
    (series,) = [s for s in panel["data"]["series"] if s["color"] == SERIES_COLOURS[colour]]
    return series


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    return mixed_record(seed=3)


@pytest.fixture(scope="module")
def items(record: dict[str, Any]) -> list[QAItem]:
    return questions_for_record(record)


def test_figure_scope_level1(record: dict[str, Any], items: list[QAItem]) -> None:
    (count,) = family(items, "panel_count")
    assert count.answer == 6 and count.scope == "figure" and count.level == 1
    (layout,) = family(items, "layout")
    assert layout.answer == [2, 3]
    (types,) = family(items, "plot_types")
    assert set(types.answer) == {p["kind"] for p in record["panels"]}
    reading = sorted(record["panels"], key=lambda p: p["row"] * 100 + p["col"])
    for name, field in (("titles", "title"), ("xlabels", "xlabel"), ("ylabels", "ylabel")):
        (item,) = family(items, name)
        assert item.answer == [p[field] for p in reading if p[field] is not None]


def test_panel_scope_level1(record: dict[str, Any], items: list[QAItem]) -> None:
    for item in family(items, "plot_type"):
        assert item.answer == panel_of(record, item)["kind"]
    for name in ("title", "xlabel", "ylabel"):
        asked = family(items, name)
        assert len(asked) == sum(p[name] is not None for p in record["panels"])
        for item in asked:
            assert item.answer == panel_of(record, item)[name]
    for item in family(items, "n_points"):
        assert item.answer == len(panel_of(record, item)["data"]["y"])
    for item in family(items, "n_lines"):
        assert item.answer == len(panel_of(record, item)["data"]["series"])
    (colours,) = family(items, "line_colors")
    assert sorted(colours.answer) == ["blue", "orange"]
    for item in family(items, "n_bars"):
        counts = np.array(panel_of(record, item)["data"]["counts"])
        assert counts.min() > 0 and item.answer == counts.size
    for item in family(items, "contour_style"):
        assert item.answer == panel_of(record, item)["style"]["contour_style"]
    for item in family(items, "colormap"):
        assert item.answer == panel_of(record, item)["style"]["colormap"]
        assert item.answer in (item.choices or [])
    scales = family(items, "axis_scale")
    assert len(scales) == 2 * len(record["panels"])
    assert {item.answer for item in scales} == {"linear"}
    assert {item.answer for item in family(items, "error_bars")} == {"none"}


def test_tick_values_follow_drawn_order(items: list[QAItem]) -> None:
    ticks = family(items, "tick_values")
    assert {json.dumps(t.answer) for t in ticks if t.answer_key == "x_ticks"} == {
        "[0.0, 5.0, 10.0]"
    }
    # the y labels are "−2" (unicode minus) at the bottom and 10^1 above it
    assert {json.dumps(t.answer) for t in ticks if t.answer_key == "y_ticks"} == {"[-2.0, 10.0]"}


def test_level2_values_against_numpy(record: dict[str, Any], items: list[QAItem]) -> None:
    reducers = {"mean_y": np.mean, "median_y": np.median, "min_y": np.min, "max_y": np.max}
    checked = 0
    for name, reduce in reducers.items():
        for item in family(items, name):
            panel = panel_of(record, item)
            if panel["kind"] == "scatter":
                expected = reduce(panel["data"]["y"])
            elif panel["kind"] == "line":
                expected = reduce(series_of(panel, item)["y"])
            else:
                assert panel["kind"] == "contour" and name == "mean_y"
                z = np.array(panel["data"]["z"])
                w = z - z.min()
                expected = np.sum(w * np.array(panel["data"]["y"])[:, None]) / w.sum()
            assert item.answer == pytest.approx(expected, rel=1e-5)
            checked += 1
    assert checked >= 12  # the smallest scatter values and the contour mean lie near zero
    for item in family(items, "value_at_x"):
        series = series_of(panel_of(record, item), item)
        x_quoted = float(re.search(r"x = (\S+)\?", item.question).group(1))  # type: ignore
        k = int(np.argmin(np.abs(np.array(series["x"]) - x_quoted)))
        assert item.answer == pytest.approx(series["y"][k], rel=1e-5)
    for name, reduce in (("min_z", np.min), ("max_z", np.max)):
        for item in family(items, name):
            z = panel_of(record, item)["data"]["z"]
            assert item.answer == pytest.approx(reduce(z), rel=1e-5)
    # the bump's smallest value is ~0 of a span of 1: sSMAPE cannot score it, so not asked
    assert not family(items, "min_z") and len(family(items, "max_z")) == 1
    for item in family(items, "hist_mean"):
        assert item.answer == pytest.approx(np.mean(panel_of(record, item)["data"]["samples"]))
    for item in family(items, "max_count"):
        assert item.answer == max(panel_of(record, item)["data"]["counts"])
    for item in family(items, "x_range"):
        panel = panel_of(record, item)
        xs = (
            np.concatenate([s["x"] for s in panel["data"]["series"]])
            if panel["kind"] == "line"
            else np.array(panel["data"]["x"])
        )
        assert item.answer == pytest.approx([xs.min(), xs.max()], rel=1e-5)
    for item in family(items, "bin_range"):
        data = panel_of(record, item)["data"]
        nonzero = np.flatnonzero(data["counts"])
        edges = data["bin_edges"]
        expected = [edges[nonzero[0]], edges[nonzero[-1] + 1]]
        assert item.answer == pytest.approx(expected, rel=1e-5)


def test_cross_panel_answers(record: dict[str, Any], items: list[QAItem]) -> None:
    for item in family(items, "count_kind"):
        kind = item.answer_key.removeprefix("n_").removesuffix("_panels")
        assert item.answer == sum(p["kind"] == kind for p in record["panels"])
        assert item.scope == "cross-panel"
    for item in family(items, "largest_mean"):
        kind = "histogram" if "histogram" in item.question else "scatter"
        candidates = [p for p in record["panels"] if p["kind"] == kind]
        key = "samples" if kind == "histogram" else "y"
        best = max(candidates, key=lambda p: np.mean(p["data"][key]))
        rows, cols = record["layout"]["rows"], record["layout"]["cols"]
        assert parse_location(item.answer, rows, cols) == (best["row"], best["col"])
    (strongest,) = family(items, "strongest_linear")
    scatters = [p for p in record["panels"] if p["kind"] == "scatter"]
    r = [abs(np.corrcoef(p["data"]["x"], p["data"]["y"])[0, 1]) for p in scatters]
    best = scatters[int(np.argmax(r))]
    assert parse_location(strongest.answer, 2, 3) == (best["row"], best["col"])


def test_same_trend_pairs_panels_with_clear_slopes() -> None:
    rng = np.random.default_rng(5)
    up = scatter_panel(rng)
    down = scatter_panel(rng)
    down["data"]["y"] = [-v for v in down["data"]["y"]]
    down["params"]["slope"] = -down["params"]["slope"]
    cloud = scatter_panel(rng, distribution="random")
    up2 = scatter_panel(rng)
    record = make_record([up, down, cloud, up2], 2, 2)
    items = family(questions_for_record(record), "same_trend")
    # the random cloud has no trend: pairs are (up, down) and (down, up2)
    assert [item.answer for item in items] == ["no", "no"]
    assert "the top-left panel and the top-right panel" in items[0].question
    assert "the top-right panel and the bottom-right panel" in items[1].question


def test_trend_follows_the_generating_slope_and_the_drawing(
    record: dict[str, Any], items: list[QAItem]
) -> None:
    trends_asked = family(items, "trend")
    assert len(trends_asked) >= 3  # two lines and the linear scatter
    for item in trends_asked:
        panel = panel_of(record, item)
        data = series_of(panel, item) if panel["kind"] == "line" else panel["data"]
        slope = np.polyfit(data["x"], data["y"], 1)[0]
        assert item.answer == ("increasing" if slope > 0 else "decreasing")
    rng = np.random.default_rng(5)
    contrary = scatter_panel(rng)
    contrary["params"]["slope"] = -3.0  # the drawing rises: the record contradicts itself
    assert family(questions_for_record(make_record([contrary], 1, 1)), "trend") == []
