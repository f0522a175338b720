"""The record's visibility fields agree with the pixels of the saved PNG, in every style.

The checks here read the PNG with Pillow and take each mark's colour from the record's data
(series colours, the histogram's colour), not from the renderer: a mark flagged visible has
pixels of its colour under its box, one flagged hidden has none.
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest
from matplotlib.colors import to_rgb
from PIL import Image

from figgen.build.figure import GeneratedFigure, generate_figure
from figgen.config.load import FigureConfig, config_from_dict
from figgen.kinds.bar import BarData, BarStyle
from figgen.kinds.histogram import HistogramData, HistogramStyle
from figgen.kinds.line_data import LineData, LineStyle
from figgen.kinds.pie import PieData
from figgen.kinds.scatter import ScatterData, ScatterStyle
from figgen.render import legend_place
from figgen.schema.elements import BBox, Element
from figgen.schema.panel import PanelRecord
from figgen.schema.record import read_record
from figgen.vqa import questions_for_record

STYLES = [*FigureConfig().style.styles, "dark_background"]
KINDS = {"line": 3.0, "histogram": 1.5, "scatter": 1.0, "bar": 1.0, "pie": 0.3, "contour": 0.3}
NEAR = 60
"""A visible mark has a pixel this close to its colour (max channel difference, 0..255):
looser than the renderer's own tolerance, so anti-aliased strokes pass."""
EXACT = 8
"""A hidden mark has no pixel this close to its colour: stricter than the renderer's."""


def _config(style: str) -> FigureConfig:
    dark = style == "dark_background"
    return config_from_dict(
        {
            "panels": {"mean": 3.0, "std": 2.0, "count": [2, 6]},
            "image": {"dpi": [60, 90], "panel_inches": [2.2, 3.0]},
            "style": {
                "styles": ["default" if dark else style],
                "dark_p": 1.0 if dark else 0.0,
                "legend_p": 1.0,
            },
            "kinds": KINDS,
        }
    )


@pytest.fixture(scope="module")
def figures() -> list[GeneratedFigure]:
    return [generate_figure(_config(style), 3, i) for style in STYLES for i in range(2)]


@pytest.fixture(scope="module")
def unplaced() -> list[GeneratedFigure]:
    """Figures whose legends stay where the spec put them: more marks hidden under them."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(legend_place.LegendPlacer, "draw", lambda self, renderer: None)
        return [generate_figure(_config(style), 4, 0) for style in STYLES]


def _pixels(figure: GeneratedFigure) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(figure.png)).convert("RGB")).astype(int)


def _colours(panel: PanelRecord, element: Element) -> list[np.ndarray]:
    """The mark's own colours: its fill and, for bars with an outline, the outline's."""
    fill = _colour(panel, element)
    if fill is None:
        return []
    style = panel.style
    outlined = element.kind == "bar" and isinstance(style, BarStyle | HistogramStyle)
    edge = style.edgecolor if outlined else None
    return [fill] + ([np.asarray(to_rgb(edge)) * 255] if edge else [])


def _colour(panel: PanelRecord, element: Element) -> np.ndarray | None:
    """The colour the record's data says the mark was drawn in (None: not checked here)."""
    kind, series, item = panel.kind, element.series, element.item
    colour: Any
    if kind == "line" and series is not None:
        colour = panel.data_as(LineData).series[series].color
    elif kind == "histogram" and element.kind == "bar":
        colour = panel.style_as(HistogramStyle).color
    elif kind == "bar" and series is not None:
        colour = panel.data_as(BarData).series[series].color
    elif kind == "scatter" and element.kind == "point" and panel.data_as(ScatterData).c is None:
        colour = panel.style_as(ScatterStyle).color
    elif kind == "pie" and element.kind == "wedge" and item is not None:
        colour = panel.data_as(PieData).colors[item]
    else:
        return None
    return np.asarray(to_rgb(colour)) * 255


def _closest(pixels: np.ndarray, box: BBox, colour: np.ndarray) -> float:
    x0, y0, x1, y1 = (int(v) for v in box)
    region = pixels[y0:y1, x0:x1].reshape(-1, 3)
    if not len(region):
        return float("inf")
    return float(np.abs(region - colour).max(axis=1).min())


def test_visibility_flags_agree_with_the_pixels_in_every_style(
    figures: list[GeneratedFigure], unplaced: list[GeneratedFigure]
) -> None:
    checked: dict[str, int] = {"visible": 0, "hidden": 0}
    occluders: set[str] = set()
    styles = set()
    for figure in figures + unplaced:
        record, pixels = figure.record, _pixels(figure)
        styles.add(record.style.mpl_style)
        for e in record.elements:
            if e.visible is None or e.empty:
                continue
            assert e.visible_fraction is not None and 0.0 <= e.visible_fraction <= 1.0
            assert e.occluded_by is not None and set(e.occluded_by) <= {"legend", "frame", "marks"}
            assert e.visible == (e.visible_fraction > 0), e
            occluders.update(e.occluded_by)
            assert e.panel is not None
            colours = _colours(record.panel(e.panel), e)
            if not colours:
                continue
            closest = min(_closest(pixels, e.bbox, colour) for colour in colours)
            where = f"{record.id} ({record.style.mpl_style}) element {e.id}"
            if e.visible:
                assert closest <= NEAR, f"{where} is flagged visible but shows no ink of its colour"
                checked["visible"] += 1
            else:
                assert closest > EXACT, f"{where} is flagged hidden but its colour shows"
                checked["hidden"] += 1
    assert styles == {*STYLES}
    # outlined bars count their outline as ink now: fewer hidden marks than the 20-odd before
    assert checked["visible"] > 1000 and checked["hidden"] > 10, checked
    assert {"legend", "frame"} <= occluders


def test_marks_hidden_by_the_legend_lie_under_it(figures: list[GeneratedFigure]) -> None:
    seen = 0
    for figure in figures:
        elements = figure.record.elements
        legends = {e.panel: e.bbox for e in elements if e.kind == "legend"}
        for e in elements:
            if "legend" in (e.occluded_by or []):
                lx0, ly0, lx1, ly1 = legends[e.panel]
                x0, y0, x1, y1 = e.bbox
                assert x0 < lx1 and lx0 < x1 and y0 < ly1 and ly0 < y1, e
                seen += 1
    assert seen


def test_panels_record_background_and_frame(figures: list[GeneratedFigure]) -> None:
    for figure in figures:
        pixels = _pixels(figure)
        for e in figure.record.elements:
            if e.kind != "panel":
                continue
            frame = e.frame
            assert frame is not None and e.background is not None
            assert e.background.startswith("#") and len(e.background) == 7
            assert frame["width"] >= 0 and set(frame["sides"]) <= {"left", "right", "top", "bottom"}
            if not frame["sides"] or frame["width"] < 2 or not frame["over_data"]:
                continue
            # the frame's colour is drawn along the panel's left edge, halfway down
            x0, y0, _, y1 = (int(v) for v in e.bbox)
            middle = (y0 + y1) // 2
            colour = np.asarray(to_rgb(frame["color"])) * 255
            strip = pixels[middle, max(x0 - 1, 0) : x0 + 2]
            assert float(np.abs(strip - colour).max(axis=1).min()) <= NEAR, e


def _histogram_config(style: str, *, horizontal: bool = False) -> FigureConfig:
    return config_from_dict(
        {
            "panels": {"mean": 1.0, "std": 0.0, "count": [1, 1]},
            "image": {"dpi": [100, 100], "panel_inches": [3.0, 3.0]},
            "style": {"styles": [style], "dark_p": 0.0, "log_y_p": 0.0},
            "kinds": {"histogram": 1.0},
            "histogram": {
                "samples": [40, 60],
                "bins": [30, 40],
                "horizontal_p": 1.0 if horizontal else 0.0,
                "yerr_p": 0.0,
            },
        }
    )


@pytest.mark.parametrize("style", ["fivethirtyeight", "Solarize_Light2"])
def test_background_coloured_frames_do_not_hide_bars(style: str) -> None:
    for index in range(3):
        figure = generate_figure(_histogram_config(style), 1, index)
        elements = figure.record.elements
        panel = next(e for e in elements if e.kind == "panel")
        assert panel.frame is not None and panel.frame["over_data"] is False
        look = figure.record.panels[0].style_as(HistogramStyle)
        colours = [np.asarray(to_rgb(c)) * 255 for c in (look.color, look.edgecolor) if c]
        pixels = _pixels(figure)
        bars = [e for e in elements if e.kind == "bar" and not e.empty]
        assert bars
        for bar in bars:
            assert bar.visible and bar.occluded_by == [], bar
            # the bar's bottom row, inside the frame's band at the panel's edge (the frame's
            # inner half is 2 px wide or more), shows the bar: its fill or its outline
            x0, _, x1, _ = (int(v) for v in bar.bbox)
            row = pixels[int(panel.bbox[3]) - 2, x0:x1]
            assert min(float(np.abs(row - c).max(axis=1).min()) for c in colours) <= NEAR, bar


@pytest.mark.parametrize("horizontal", [False, True])
def test_empty_bins_keep_a_zero_height_element(horizontal: bool) -> None:
    seen = 0
    for index in range(4):
        figure = generate_figure(_histogram_config("default", horizontal=horizontal), 2, index)
        counts = figure.record.panels[0].data_as(HistogramData).counts
        bars = [e for e in figure.record.elements if e.kind == "bar"]
        assert [b.item for b in bars] == list(range(len(counts)))
        for bar, count in zip(bars, counts, strict=True):
            x0, y0, x1, y1 = bar.bbox
            length, breadth = (x1 - x0, y1 - y0) if horizontal else (y1 - y0, x1 - x0)
            if count == 0:
                assert bar.empty is True and bar.visible is False
                assert length == 0 and breadth > 0 and bar.value is not None and bar.value[1] == 0
                seen += 1
            else:
                assert bar.empty is None and length > 0
    assert seen


def _legend_occluded(figure: GeneratedFigure) -> int:
    return sum("legend" in (e.occluded_by or []) for e in figure.record.elements)


def test_legends_move_off_the_data(monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = _config("default")
    placed = [generate_figure(cfg, 5, i) for i in range(8)]
    monkeypatch.setattr(legend_place.LegendPlacer, "draw", lambda self, renderer: None)
    fixed = [generate_figure(cfg, 5, i) for i in range(8)]
    assert sum(map(_legend_occluded, placed)) < sum(map(_legend_occluded, fixed))
    moved = 0
    for figure in placed:
        record = figure.record
        for legend in (e for e in record.elements if e.kind == "legend" and e.loc is not None):
            assert legend.panel is not None
            preferred = record.panel(legend.panel).style_as(LineStyle).legend_loc
            hidden = [
                e
                for e in record.elements
                if e.panel == legend.panel and "legend" in (e.occluded_by or [])
            ]
            if legend.loc != preferred:
                moved += 1
            if not hidden:  # a free spot: no marker box reaches under the legend
                lx0, ly0, lx1, ly1 = legend.bbox
                for e in record.elements:
                    if e.panel == legend.panel and e.kind == "marker":
                        x0, y0, x1, y1 = e.bbox
                        assert not (x0 < lx1 - 1 and lx0 + 1 < x1 and y0 < ly1 - 1 and ly0 + 1 < y1)
    assert moved


def test_records_without_visibility_fields_still_parse_and_ask_the_same(
    figures: list[GeneratedFigure],
) -> None:
    import json

    new = ("visible", "visible_fraction", "occluded_by", "empty", "background", "frame", "loc")
    record = figures[0].record
    old = record.to_dict()  # the stored JSON, as a record written before these fields
    for e in old["elements"]:
        for key in new:
            e.pop(key, None)
    parsed = read_record(json.dumps(old), "old.json")
    assert [q.to_dict() for q in questions_for_record(parsed)] == [
        q.to_dict() for q in questions_for_record(record)
    ]
