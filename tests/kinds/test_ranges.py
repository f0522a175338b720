"""The range-plot kind: bands and min-max bars, their statistics, boxes and questions, each
checked against an independent computation (the ``statistics`` module, plain loops)."""

from __future__ import annotations

import re
import statistics

import numpy as np
import pytest
from matplotlib.colors import to_rgb

from benchmarks.audit_answerable import axis_map
from figgen.build.figure import GeneratedFigure, generate_figure
from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig, config_from_dict
from figgen.eval.scoring.scoring import score_value
from figgen.kinds.ranges_data import RangeData, RangeSeries, range_stats, range_table
from figgen.schema.panel import PanelRecord
from figgen.vqa import QAItem, describe_record
from tests.kinds.figures import closest, elements_of, items_of, panels_of, pixels_of

RANGES_ONLY = {
    "kinds": {"range": 1.0},
    "panels": {"mean": 2.0, "std": 2.0, "count": [1, 4]},
    "image": {"dpi": [60, 90], "panel_inches": [2.6, 3.4]},
}
NEAR = 60


@pytest.fixture(scope="module")
def range_config() -> FigureConfig:
    return config_from_dict(RANGES_ONLY)


@pytest.fixture(scope="module")
def figures(range_config: FigureConfig) -> list[GeneratedFigure]:
    return [generate_figure(range_config, 5, i) for i in range(8)]


def _series(panel: PanelRecord, item: QAItem) -> RangeSeries:
    name = re.search(r'series "([^"]+)"', item.question)
    wanted = name.group(1) if name else None
    (series,) = [s for s in panel.data_as(RangeData).series if s.label == wanted]
    return series


def test_the_default_mix_never_draws_ranges() -> None:
    assert FigureConfig().kinds["range"] == 0.0


def test_range_statistics_by_hand() -> None:
    rng = np.random.default_rng(3)
    replicates = rng.normal(10.0, 2.0, (6, 25))
    for stat in ("sd", "quantile", "minmax"):
        centre, low, high = range_stats(replicates, stat)  # type: ignore[arg-type]
        for row, c, lo, hi in zip(replicates.tolist(), centre, low, high, strict=True):
            if stat == "sd":
                mean, sd = statistics.fmean(row), statistics.stdev(row)
                expected = (mean, mean - sd, mean + sd)
            elif stat == "quantile":
                deciles = statistics.quantiles(row, n=10, method="inclusive")
                expected = (statistics.median(row), deciles[0], deciles[-1])
            else:
                expected = (statistics.fmean(row), min(row), max(row))
            assert (c, lo, hi) == pytest.approx(expected)


def test_sampled_ranges_vary(range_config: FigureConfig) -> None:
    panels = [p for i in range(40) for p in sample_figure(range_config, 2, i).panels]
    ranges = [RangeData.from_dict(p.data) for p in panels]
    assert {r.mode for r in ranges} == {"band", "bars"}
    assert {(r.mode, r.stat) for r in ranges} == {
        ("band", "sd"),
        ("band", "quantile"),
        ("bars", "minmax"),
        ("bars", "quantile"),
    }
    assert {len(r.series) for r in ranges} == {1, 2, 3}
    for r in ranges:
        n = len(r.x) if r.mode == "band" else len(r.categories)
        for s in r.series:
            assert len(s.low) == len(s.high) == len(s.centre) == n
            assert all(lo <= c <= hi for lo, c, hi in zip(s.low, s.centre, s.high, strict=True))


def test_ground_truth_table(figures: list[GeneratedFigure]) -> None:
    for _, panel in panels_of(figures):
        data = panel.data_as(RangeData)
        rows = range_table(panel.stored_data)
        n = len(data.x) if data.mode == "band" else len(data.categories)
        assert len(rows) == n * len(data.series)
        assert all(lo <= hi for _, _, lo, hi in rows)


def test_every_range_is_boxed_over_its_ink(figures: list[GeneratedFigure]) -> None:
    """A band per series (its blended fill under its box), a centre line per band, a bar per
    series and category; the colours are recomputed from the record's data."""
    checked = 0
    for figure, panel in panels_of(figures):
        data, pixels = panel.data_as(RangeData), pixels_of(figure)
        elements = elements_of(figure, panel)
        (frame,) = [e for e in elements if e.kind == "panel"]
        behind = np.asarray(to_rgb(str(frame.background))) * 255
        for s, series in enumerate(data.series):
            colour = np.asarray(to_rgb(series.color)) * 255
            mine = [e for e in elements if e.series == s]
            if data.mode == "band":
                assert sorted(e.kind for e in mine) == ["band", "line"]
                colours = {"band": data.alpha * colour + (1 - data.alpha) * behind}
                colours["line"] = colour
            else:
                assert [e.item for e in mine if e.kind == "range_bar"] == list(
                    range(len(data.categories))
                )
                colours = {"range_bar": colour}
            for e in mine:
                if not e.visible:
                    continue
                assert closest(pixels, e.bbox, colours[e.kind]) <= NEAR, e
                checked += 1
    assert checked > 100


def test_bar_ends_and_lengths(figures: list[GeneratedFigure]) -> None:
    asked = 0
    for family in ("range_bar_ends", "range_bar_length"):
        for panel, item in items_of(figures, family):
            category = re.search(r'for "([^"]+)"', item.question)
            assert category is not None
            i = panel.data_as(RangeData).categories.index(category.group(1))
            series = _series(panel, item)
            low, high = series.low[i], series.high[i]
            expected = [low, high] if family == "range_bar_ends" else high - low
            metric = "ssmape" if family == "range_bar_ends" else "axis_2pct"
            assert item.answer == pytest.approx(expected, rel=1e-5) and item.metric == metric
            asked += 1
    assert asked > 10


def test_bar_lengths_are_scored_against_the_drawn_axis(figures: list[GeneratedFigure]) -> None:
    """A length carries the span of every bar's ends, is asked only where it is 4% of it or
    more on a y axis of 100 px or more (mapped by the tick labels; rule: readable lengths), and
    its bar, read off that axis, scores as correct."""
    by_id = {f.record.id: f for f in figures}
    asked = 0
    for panel, item in items_of(figures, "range_bar_length"):
        figure = by_id[item.figure_id]
        (plot,) = [e for e in elements_of(figure, panel) if e.kind == "panel"]
        stored = figure.record.to_dict()  # the audit maps the axis from the stored JSON alone
        ticks = axis_map(stored, stored["panels"][panel.index], "y")
        assert ticks is not None
        data = panel.data_as(RangeData)
        span = max(max(s.high) for s in data.series) - min(min(s.low) for s in data.series)
        assert item.axis_span == pytest.approx(span)
        assert item.answer >= 0.04 * span and plot.bbox[3] - plot.bbox[1] >= 100
        (bar,) = [e for e in elements_of(figure, panel) if e.id in item.evidence]
        reading = (bar.bbox[3] - bar.bbox[1] - 1.0) / abs(ticks.slope)  # rounded out: -1 px
        assert score_value(item.metric, reading, item.answer, item.axis_span).correct
        asked += 1
    assert asked > 5


def test_widest_point_of_a_band(figures: list[GeneratedFigure]) -> None:
    items = items_of(figures, "band_widest_at")
    assert items
    for panel, item in items:
        series = _series(panel, item)
        widths = [hi - lo for lo, hi in zip(series.low, series.high, strict=True)]
        widest = max(range(len(widths)), key=widths.__getitem__)
        assert item.answer == pytest.approx(panel.data_as(RangeData).x[widest])


def test_widest_range_and_overlaps(figures: list[GeneratedFigure]) -> None:
    answers = set()
    for panel, item in items_of(figures, "widest_range"):
        series = panel.data_as(RangeData).series
        if len(series) > 1:
            means = {
                s.label: statistics.fmean(h - lo for lo, h in zip(s.low, s.high, strict=True))
                for s in series
            }
            assert max(means, key=means.__getitem__) == item.answer
        else:
            (s,) = series
            widths = [h - lo for lo, h in zip(s.low, s.high, strict=True)]
            assert panel.data_as(RangeData).categories[widths.index(max(widths))] == item.answer
    for panel, item in items_of(figures, "ranges_overlap"):
        names = re.findall(r'"([^"]+)"', item.question)[:2]  # then the answer's own words
        a, b = (next(s for s in panel.data_as(RangeData).series if s.label == n) for n in names)
        overlaps = any(
            min(ah, bh) > max(al, bl)
            for al, ah, bl, bh in zip(a.low, a.high, b.low, b.high, strict=True)
        )
        assert item.answer == ("yes" if overlaps else "no") and item.level == 3
        answers.add(item.answer)
    assert answers == {"yes", "no"}


def test_descriptions_and_alt_text(figures: list[GeneratedFigure]) -> None:
    for figure in figures:
        rows = describe_record(figure.record)
        for panel in figure.record.panels:
            mine = {
                r["level"]: r for r in rows if r["scope"] == "panel" and r["panel"] == panel.index
            }
            assert "range plot" in mine[1]["text"] and "range plot" in mine[1]["alt_text"].lower()
            assert mine[2]["text"].count(" runs from ") == len(panel.data_as(RangeData).series)
