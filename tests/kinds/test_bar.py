"""The categorical bar kind: sampling, drawing, boxes and questions, each checked independently."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from PIL import Image

from figgen.build.figure import GeneratedFigure, generate_figure
from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig, config_from_dict
from figgen.errors import ConfigError
from figgen.kinds.bar import BarData, bar_table
from figgen.schema.panel import PanelRecord
from figgen.schema.record import spec_from_record
from figgen.vqa import QAItem, describe_record, questions_for_record

BARS_ONLY = {
    "kinds": {"bar": 1.0},
    "panels": {"mean": 2.0, "std": 2.0, "count": [1, 4]},
    "image": {"dpi": [60, 90], "panel_inches": [2.6, 3.4]},
}


@pytest.fixture(scope="module")
def bar_config() -> FigureConfig:
    return config_from_dict(BARS_ONLY)


@pytest.fixture(scope="module")
def figures(bar_config: FigureConfig) -> list[GeneratedFigure]:
    return [generate_figure(bar_config, 5, i) for i in range(6)]


def bar_panels(figures: list[GeneratedFigure]) -> list[tuple[GeneratedFigure, PanelRecord]]:
    return [(f, p) for f in figures for p in f.record.panels]


def _bars(panel: PanelRecord) -> BarData:
    return panel.data_as(BarData)


def test_the_default_mix_never_draws_bars() -> None:
    cfg = FigureConfig()
    assert cfg.kinds["bar"] == 0.0
    kinds = {p.kind for i in range(40) for p in sample_figure(cfg, 0, i).panels}
    assert kinds == {"line", "histogram", "scatter", "contour"}


def test_bar_weights_and_modes_are_checked() -> None:
    with pytest.raises(ConfigError, match="unknown plot kind 'radar'; known: line"):
        config_from_dict({"kinds": {"radar": 1.0}})
    with pytest.raises(ConfigError, match="unknown bar mode 'radial'"):
        config_from_dict({"bar": {"mode": {"radial": 1.0}}})


def test_sampled_bars_cover_every_mode_and_orientation(bar_config: FigureConfig) -> None:
    panels = [p for i in range(30) for p in sample_figure(bar_config, 2, i).panels]
    assert {p.kind for p in panels} == {"bar"}
    assert {p.data["mode"] for p in panels} == {"single", "grouped", "stacked"}
    assert {p.data["orientation"] for p in panels} == {"vertical", "horizontal"}
    for p in panels:
        series, categories = p.data["series"], p.data["categories"]
        assert len(set(categories)) == len(categories) >= 2
        assert all(len(s["values"]) == len(categories) for s in series)
        assert all(v > 0 for s in series for v in s["values"])
        multi = p.data["mode"] != "single"
        assert (len(series) > 1) == multi
        assert all((s["label"] is not None) == multi for s in series)


def test_ground_truth_table_is_every_drawn_value(figures: list[GeneratedFigure]) -> None:
    for _, panel in bar_panels(figures):
        stored = panel.to_dict()["data"]  # the table reads the stored dict as the typed data
        expected = [
            (s["label"] or "", c, v)
            for s in stored["series"]
            for c, v in zip(stored["categories"], s["values"], strict=True)
        ]
        assert bar_table(stored) == bar_table(_bars(panel)) == expected


def test_the_record_renders_again_to_the_same_image(figures: list[GeneratedFigure]) -> None:
    from figgen.render import render

    figure = figures[0]
    again = render(spec_from_record(figure.record), config_from_dict(BARS_ONLY))
    assert again.png == figure.png


def _pixels(figure: GeneratedFigure) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(figure.png)).convert("RGB")).astype(int)


def _rgb(hex_colour: str) -> np.ndarray:
    return np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)])


def test_one_box_per_bar_in_its_series_colour(figures: list[GeneratedFigure]) -> None:
    for figure, panel in bar_panels(figures):
        pixels = _pixels(figure)
        bars = [e for e in figure.record.elements if e.kind == "bar" and e.panel == panel.index]
        series = _bars(panel).series
        expected = {(s, i) for s in range(len(series)) for i in range(len(series[0].values))}
        assert {(e.series, e.item) for e in bars} == expected
        for e in bars:
            assert e.series is not None and e.item is not None and e.value is not None
            x0, y0, x1, y1 = e.bbox
            centre = pixels[int((y0 + y1) / 2), int((x0 + x1) / 2)]
            assert np.abs(centre - _rgb(series[e.series].color)).max() <= 3, e
            assert e.value[1] == series[e.series].values[e.item]


def test_bar_lengths_are_proportional_to_values(figures: list[GeneratedFigure]) -> None:
    """Pixels per unit are the same for every bar of a panel (the value axis starts at 0)."""
    for figure, panel in bar_panels(figures):
        horizontal = _bars(panel).orientation == "horizontal"
        measured = []
        for e in figure.record.elements:
            if e.kind != "bar" or e.panel != panel.index:
                continue
            assert e.value is not None
            x0, y0, x1, y1 = e.bbox
            measured.append(((x1 - x0) if horizontal else (y1 - y0), e.value[1]))
        longest, value = max(measured)
        scale = longest / value
        for length, value in measured:  # boxes are whole pixels: 2 px of rounding either end
            assert abs(length - value * scale) <= 2.5, (length, value * scale)


def test_stacked_segments_touch_and_grouped_bars_sit_side_by_side(
    figures: list[GeneratedFigure],
) -> None:
    checked = set()
    for figure, panel in bar_panels(figures):
        mode = _bars(panel).mode
        if mode == "single" or _bars(panel).orientation == "horizontal":
            continue
        boxes = {
            (e.series, e.item): e.bbox
            for e in figure.record.elements
            if e.kind == "bar" and e.panel == panel.index
        }
        for (s, i), (x0, y0, x1, _) in boxes.items():
            if (s + 1, i) not in boxes:
                continue
            nx0, _, _, ny1 = boxes[(s + 1, i)]
            if mode == "stacked":  # the next segment starts where this one ends (above it)
                assert abs(ny1 - y0) <= 2.5 and abs(nx0 - x0) <= 1.0
            else:  # the next series' bar starts where this one ends (to its right)
                assert abs(nx0 - x1) <= 2.5  # whole pixels, edge lines
        checked.add(mode)
    assert checked == {"grouped", "stacked"}


def test_category_tick_labels_and_legend(figures: list[GeneratedFigure]) -> None:
    for figure, panel in bar_panels(figures):
        elements = [e for e in figure.record.elements if e.panel == panel.index]
        bars = _bars(panel)
        horizontal = bars.orientation == "horizontal"
        kind = "ytick_label" if horizontal else "xtick_label"
        ticks = [e for e in elements if e.kind == kind]
        along = 1 if horizontal else 0
        ordered = sorted(ticks, key=lambda e: e.bbox[along] + e.bbox[along + 2])
        assert [e.text for e in ordered] == bars.categories
        entries = [e.text for e in elements if e.kind == "legend_entry"]
        labels = [s.label for s in bars.series if s.label]
        assert entries == labels


def _items(figures: list[GeneratedFigure], family: str) -> list[tuple[BarData | None, QAItem]]:
    """The items of ``family``, each with the bar data of the panel it asks about (None: a
    figure-scope item)."""
    out = []
    for figure in figures:
        for item in questions_for_record(figure.record):
            if item.family == family:
                panel = figure.record.panel(item.panel) if item.panel is not None else None
                out.append((_bars(panel) if panel else None, item))
    return out


def _table(data: BarData | None) -> list[tuple[str, str, float]]:
    assert data is not None
    return bar_table(data)


def test_level1_bar_questions(figures: list[GeneratedFigure]) -> None:
    for data, item in _items(figures, "n_categories"):
        assert item.answer == len({c for _, c, _ in _table(data)})
    for data, item in _items(figures, "categories"):
        assert item.answer == list(dict.fromkeys(c for _, c, _ in _table(data)))
        assert item.metric == "cer_list" and item.level == 1
    for data, item in _items(figures, "n_bar_series"):
        assert item.answer == len({s for s, _, _ in _table(data)})
    modes = _items(figures, "bar_mode")
    assert modes and all(data and item.answer == data.mode for data, item in modes)
    for _, item in _items(figures, "plot_type"):
        assert item.answer == "bar" and "bar" in (item.choices or [])


def test_bar_value_answers_the_named_bar(figures: list[GeneratedFigure]) -> None:
    items = _items(figures, "bar_value")
    assert items
    for data, item in items:
        series = re.search(r'the series "([^"]+)"', item.question)
        category = re.search(r'category "([^"]+)"', item.question)
        assert category is not None
        wanted = series.group(1) if series else ""
        (value,) = [v for s, c, v in _table(data) if s == wanted and c == category.group(1)]
        assert item.answer == pytest.approx(value) and item.metric == "ssmape"


def test_largest_category_and_series(figures: list[GeneratedFigure]) -> None:
    asked = 0
    for data, item in _items(figures, "max_category"):
        totals: dict[str, float] = {}
        for _, c, v in _table(data):
            totals[c] = totals.get(c, 0.0) + v
        ranked = sorted(totals.values(), reverse=True)
        assert totals[item.answer] == ranked[0] and ranked[0] - ranked[1] >= 0.1 * ranked[0]
        asked += 1
    for data, item in _items(figures, "largest_series"):
        sums: dict[str, float] = {}
        for s, _, v in _table(data):
            sums[s] = sums.get(s, 0.0) + v
        assert max(sums, key=sums.__getitem__) == item.answer and item.level == 3
        asked += 1
    assert asked


def test_descriptions_name_the_categories(figures: list[GeneratedFigure]) -> None:
    for figure in figures:
        rows = describe_record(figure.record)
        panel_rows = [r for r in rows if r["scope"] == "panel" and r["level"] == 1]
        for row, panel in zip(panel_rows, figure.record.panels, strict=True):
            assert "bar chart" in row["text"]
            assert all(f'"{c}"' in row["text"] for c in _bars(panel).categories)
