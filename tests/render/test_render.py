"""Rendered figures: boxes agree with the pixels, marks agree with the data."""

from __future__ import annotations

import io

import numpy as np
import pytest
from matplotlib.figure import Figure
from matplotlib.ticker import FixedLocator
from PIL import Image

from figgen.build.figure import GeneratedFigure, generate_figure
from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig
from figgen.kinds.contour import ContourData, ContourStyle
from figgen.kinds.histogram import HistogramData
from figgen.kinds.line_data import LineData, LineStyle
from figgen.kinds.scatter import ScatterData
from figgen.render import render
from figgen.render.canvas import build_figure, encode_png, style_context
from figgen.render.elements import measure
from figgen.render.png import PngSettings
from figgen.render.tick_memo import memoize_ticks
from figgen.schema.elements import BBox
from figgen.schema.record import spec_from_record

SEEDS = range(14)


@pytest.fixture(scope="module")
def figures(small_config: FigureConfig) -> list[GeneratedFigure]:
    return [generate_figure(small_config, 7, i) for i in SEEDS]


def _pixels(figure: GeneratedFigure) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(figure.png)).convert("RGB")).astype(int)


def _background(pixels: np.ndarray, box: BBox) -> np.ndarray:
    """The most common colour in a region: the axes or figure face colour."""
    x0, y0, x1, y1 = (int(v) for v in box)
    region = pixels[y0:y1, x0:x1].reshape(-1, 3)
    colours, counts = np.unique(region, axis=0, return_counts=True)
    return colours[np.argmax(counts)]


def _has_ink(pixels: np.ndarray, box: BBox, background: np.ndarray) -> bool:
    x0, y0, x1, y1 = (int(v) for v in box)
    region = pixels[y0 : max(y1, y0 + 1), x0 : max(x1, x0 + 1)]
    return bool((np.abs(region - background).sum(axis=-1) > 30).any())


def test_image_matches_the_record(figures: list[GeneratedFigure]) -> None:
    for figure in figures:
        image = Image.open(io.BytesIO(figure.png))
        record = figure.record
        assert image.size == (record.image.width, record.image.height)
        assert record.elements[0].to_dict() == {
            "id": 0,
            "kind": "figure",
            "panel": None,
            "bbox": [0.0, 0.0, *map(float, image.size)],
        }
        assert [e.id for e in record.elements] == list(range(len(record.elements)))


def test_every_box_inside_canvas_and_marks_inside_their_panel(
    figures: list[GeneratedFigure],
) -> None:
    for figure in figures:
        record = figure.record
        width, height = record.image.width, record.image.height
        panels = {e.panel: e.bbox for e in record.elements if e.kind == "panel"}
        assert len(panels) == record.layout.n_panels
        for e in record.elements:
            x0, y0, x1, y1 = e.bbox
            assert 0 <= x0 <= x1 <= width and 0 <= y0 <= y1 <= height, e
            if e.kind in (
                "bar",
                "point",
                "marker",
                "line",
                "errorbar",
                "contour_level",
                "contour_band",
            ):
                px0, py0, px1, py1 = panels[e.panel]
                assert px0 <= x0 and py0 <= y0 and x1 <= px1 and y1 <= py1, e


def test_marks_and_text_carry_ink(figures: list[GeneratedFigure]) -> None:
    checked = {"point": 0, "marker": 0, "bar": 0, "text": 0}
    for figure in figures:
        pixels = _pixels(figure)
        record = figure.record
        panel_bg = {
            e.panel: _background(pixels, e.bbox) for e in record.elements if e.kind == "panel"
        }
        figure_bg = _background(pixels, record.elements[0].bbox)
        for e in record.elements:
            if e.kind in ("point", "marker"):
                assert _has_ink(pixels, e.bbox, panel_bg[e.panel]), e
                checked[e.kind] += 1
            elif e.kind == "bar" and e.value is not None and e.value[1] > 0:
                assert _has_ink(pixels, e.bbox, panel_bg[e.panel]), e
                checked["bar"] += 1
            elif e.text is not None and e.kind != "legend_entry":
                assert _has_ink(pixels, e.bbox, figure_bg) or _has_ink(
                    pixels, e.bbox, panel_bg[e.panel]
                ), e
                checked["text"] += 1
    assert all(n > 0 for n in checked.values()), checked


def test_mark_counts_match_the_data(figures: list[GeneratedFigure]) -> None:
    for figure in figures:
        elements = figure.record.elements
        for panel in figure.record.panels:
            mine = [e for e in elements if e.panel == panel.index]
            kinds = [e.kind for e in mine]
            count = kinds.count
            if panel.kind == "histogram":
                bins = panel.data_as(HistogramData)
                assert count("bar") == len(bins.counts) == len(bins.bin_edges) - 1
                assert [e.item for e in mine if e.kind == "bar"] == list(range(len(bins.counts)))
                assert sum(bins.counts) == len(bins.samples)
            elif panel.kind == "scatter":
                points = panel.data_as(ScatterData)
                assert count("point") == len(points.x) == len(points.y)
            elif panel.kind == "line":
                series = panel.data_as(LineData).series
                assert count("line") == len(series)
                marked = panel.style_as(LineStyle).marker
                assert count("marker") == (sum(len(s.x) for s in series) if marked else 0)
                for e in mine:
                    if e.kind == "marker":
                        assert e.series is not None and e.item is not None
                        s = series[e.series]
                        assert e.value == [s.x[e.item], s.y[e.item]]
            elif panel.kind == "contour" and panel.style_as(ContourStyle).contour_style != "image":
                levels = [e.item for e in mine if e.kind == "contour_level"]
                assert set(levels) <= set(range(len(panel.data_as(ContourData).levels))) and levels


def test_tick_labels_lie_inside_the_view_limits(figures: list[GeneratedFigure]) -> None:
    for figure in figures:
        elements = figure.record.elements
        panels = {e.panel: e.bbox for e in elements if e.kind == "panel"}
        for e in elements:
            # A label is centred on its tick up to its descent: allow a third of its size.
            x0, y0, x1, y1 = e.bbox
            if e.kind == "xtick_label":
                slack = (x1 - x0) / 3
                assert panels[e.panel][0] - slack <= (x0 + x1) / 2 <= panels[e.panel][2] + slack
            if e.kind == "ytick_label":
                slack = (y1 - y0) / 3
                assert panels[e.panel][1] - slack <= (y0 + y1) / 2 <= panels[e.panel][3] + slack


def test_no_text_overlaps_and_no_text_on_other_panels(figures: list[GeneratedFigure]) -> None:
    from figgen.render.boxes import overlaps

    text_kinds = {
        "title",
        "xlabel",
        "ylabel",
        "xtick_label",
        "ytick_label",
        "offset_text",
        "colorbar_label",
        "colorbar_tick_label",
    }
    for figure in figures:
        elements = figure.record.elements
        texts = [e for e in elements if e.kind in text_kinds]
        for i, a in enumerate(texts):
            for b in texts[i + 1 :]:
                assert not overlaps(a.bbox, b.bbox), (a, b)
            for p in elements:
                if p.kind == "panel" and p.panel != a.panel:
                    assert not overlaps(a.bbox, p.bbox), (a, p)


def test_stored_spec_renders_the_same_bytes(
    figures: list[GeneratedFigure], small_config: FigureConfig
) -> None:
    for figure in figures[:4]:
        again = render(spec_from_record(figure.record), small_config)
        assert again.png == figure.png
        assert again.repair["actions"] == []  # the stored spec is already repaired


def test_memoized_ticks_draw_the_same_pixels_and_boxes_as_plain_matplotlib(
    figures: list[GeneratedFigure], small_config: FigureConfig
) -> None:
    for figure in figures[:6]:
        spec = spec_from_record(figure.record)
        drawn = []
        for memo in (False, True):
            with style_context(spec.style):
                fig, handles = build_figure(spec)
                if memo:
                    memoize_ticks(fig)
                fig.canvas.draw()
                boxes = [e.bbox for e in measure(fig, handles).elements]
                drawn.append((encode_png(fig, PngSettings.of(small_config.image)), boxes))
        assert drawn[0] == drawn[1]
        assert drawn[1][0] == figure.png


def test_memoized_ticks_follow_a_change_of_limits() -> None:
    fig = Figure(dpi=50)
    ax = fig.add_subplot()
    memoize_ticks(fig)
    ax.set_xlim(0, 1)
    first = [tick.get_loc() for tick in ax.xaxis._update_ticks()]
    ax.set_xlim(0, 100)
    second = [tick.get_loc() for tick in ax.xaxis._update_ticks()]
    assert max(first) <= 1 < max(second)
    ax.xaxis.set_major_locator(FixedLocator([10, 20]))
    assert [tick.get_loc() for tick in ax.xaxis._update_ticks()] == [10, 20]


def test_repair_is_logged_and_resolves_crowding() -> None:
    cfg = FigureConfig.model_validate(
        {
            "panels": {"mean": 12, "std": 0.1, "count": [12, 12]},
            "fonts": {"title": [20, 20], "label": [20, 20], "tick": [20, 20]},
            "image": {"dpi": [60, 60], "panel_inches": [2.0, 2.0]},
            "text": {"title_p": 1.0, "title_words": [5, 5], "title_formula_p": 0.0},
        }
    )
    figure = generate_figure(cfg, 3, 0)
    repair = figure.record.repair
    assert figure.record.layout.n_panels == 12
    assert repair["resampled"] == []
    # The sampled sizes were cut to fit, by sampling or by logged repair actions.
    assert figure.record.style.sizes.title < 20
    for action in repair["actions"]:
        assert action["action"] in {
            "shrink_font",
            "fewer_ticks",
            "hide_minor_labels",
            "grow_canvas",
        }


def test_a_repair_edits_a_copy_and_an_unrepaired_spec_is_returned_as_given() -> None:
    cfg = FigureConfig.model_validate(
        {
            "panels": {"mean": 12, "std": 0.1, "count": [12, 12]},
            "fonts": {"title": [20, 20], "label": [20, 20], "tick": [20, 20]},
            "image": {"dpi": [60, 60], "panel_inches": [2.0, 2.0]},
            "text": {"title_p": 1.0, "title_words": [5, 5], "title_formula_p": 0.0},
        }
    )
    spec = sample_figure(cfg, 3, 0)
    sampled = spec.to_dict()
    rendered = render(spec, cfg)
    assert rendered.repair["actions"]  # crowded: repaired
    assert spec.to_dict() == sampled  # the caller's spec is untouched
    assert rendered.spec.to_dict() != sampled  # the repair is in the returned copy
    clean = render(rendered.spec, cfg)
    assert clean.repair["actions"] == [] and clean.spec is rendered.spec
