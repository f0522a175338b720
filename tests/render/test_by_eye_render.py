"""What a person can tell apart, on rendered panels: colours kept apart where they are sampled,
legend samples that show their dash pattern, and visibility flags proved from the pixels."""

from __future__ import annotations

import io
import itertools
from typing import Any

import matplotlib as mpl
import matplotlib.style
import numpy as np
import pytest
from matplotlib.colors import to_rgb
from PIL import Image
from scipy import ndimage

from figgen._util.colour_distance import MIN_SERIES_DELTA_E, colour_difference
from figgen.build import figure as generate
from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig, config_from_dict
from figgen.schema.record import Record
from figgen.schema.spec import FigureSpec
from figgen.vqa import questions_for_record
from figgen.vqa.questions.family_table import series_families

LINE_FAMILIES = series_families()


def _config(kind: str, **style: Any) -> FigureConfig:
    return config_from_dict(
        {
            "kinds": {kind: 1.0},
            "panels": {"count": [1, 1]},
            "image": {"dpi": [100, 100], "panel_inches": [3.0, 3.0]},
            "style": {
                "styles": ["default"],
                "dark_p": 0.0,
                "log_x_p": 0.0,
                "log_y_p": 0.0,
                **style,
            },
        }
    )


def _drawn(spec: FigureSpec, cfg: FigureConfig) -> tuple[Record, np.ndarray]:
    """The record and pixels of ``spec`` as a build makes them (the spec edited by hand)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(generate, "sample_figure", lambda *args, **kwargs: spec)
        figure = generate.generate_figure(cfg, spec.seed, spec.index)
    pixels = np.asarray(Image.open(io.BytesIO(figure.png)).convert("RGB")).astype(int)
    return figure.record, pixels


def test_sampled_line_colours_of_a_panel_are_far_apart() -> None:
    cfg = config_from_dict({"kinds": {"line": 1.0}, "line": {"series": [3, 3]}})
    pairs = 0
    for index in range(60):
        for panel in sample_figure(cfg, 9, index).panels:
            colours = [s["color"] for s in panel.data["series"]]
            for a, b in itertools.combinations(colours, 2):
                assert colour_difference(a, b) >= MIN_SERIES_DELTA_E, (index, a, b)
                pairs += 1
    assert pairs > 300


def test_a_rendered_panel_with_two_near_identical_colours_gets_no_line_question() -> None:
    cfg = _config("line", legend_p=1.0)
    spec = sample_figure(cfg, 3, 0)
    panel = spec.panels[0]
    panel.data["series"] = panel.data["series"][:2]
    panel.params["series"] = panel.params["series"][:2]
    for series, colour in zip(panel.data["series"], ("#864444", "#8f4156"), strict=True):
        series["color"], series["linestyle"] = colour, "-"
    record, _ = _drawn(spec, cfg)
    items = questions_for_record(record)
    assert [i for i in items if i.family == "n_lines"]
    assert not [i for i in items if i.family in LINE_FAMILIES]


def _pattern(style: str, linestyle: str) -> tuple[list[float], bool]:
    params = {**mpl.rcParamsDefault, **matplotlib.style.library.get(style, {})}
    name = {"--": "dashed", "-.": "dashdot", ":": "dotted"}[linestyle]
    return list(params[f"lines.{name}_pattern"]), bool(params["lines.scale_dashes"])


@pytest.mark.parametrize("style", ["default", "classic"])
def test_legend_samples_hold_one_and_a_half_dash_periods(style: str) -> None:
    cfg = _config("line", legend_p=1.0, styles=[style])
    checked = 0
    for index in range(12):
        spec = sample_figure(cfg, 5, index)
        panel = spec.panels[0]
        panel.style["linewidth"] = 3.0
        for series, linestyle in zip(panel.data["series"], ("-.", "--", ":"), strict=False):
            series["linestyle"] = linestyle
        record, _ = _drawn(spec, cfg)
        (legend,) = [e for e in record.elements if e.kind == "legend"]
        assert legend.handle is not None
        for series in panel.data["series"]:
            pattern, scaled = _pattern(style, series["linestyle"])
            period = sum(pattern) * (3.0 if scaled else 1.0)
            assert legend.handle >= 1.5 * period - 1e-6
            checked += 1
        if checked >= 6:
            break
    assert checked >= 6


def test_narrow_bars_whose_outline_covers_the_fill_are_flagged_visible() -> None:
    cfg = _config("histogram")
    spec = sample_figure(cfg, 2, 0)
    panel = spec.panels[0]
    samples = np.random.default_rng(0).normal(0, 1, 3000)
    counts, edges = np.histogram(samples, bins=90)
    panel.data.update(
        samples=samples.round(5).tolist(),
        bin_edges=edges.tolist(),
        counts=counts.tolist(),
        orientation="vertical",
        errors=None,
    )
    panel.style.update(color="#1f77b4", edgecolor="#d62728", edgewidth=2.0)
    record, pixels = _drawn(spec, cfg)
    fill, outline = np.asarray(to_rgb("#1f77b4")) * 255, np.asarray(to_rgb("#d62728")) * 255
    shown = 0
    for bar in (e for e in record.elements if e.kind == "bar" and not e.empty):
        x0, y0, x1, y1 = (int(v) for v in bar.bbox)
        region = pixels[y0:y1, x0:x1].reshape(-1, 3)
        has_fill = (np.abs(region - fill).max(axis=1) <= 8).any()
        has_outline = (np.abs(region - outline).max(axis=1) <= 8).any()
        if has_outline and not has_fill:  # the outline covers the fill: the bar shows as red
            assert bar.visible, bar
            shown += 1
    assert shown >= 10


def test_same_colour_markers_merged_into_one_shape_are_covered_by_marks() -> None:
    cfg = _config("scatter", colormap_p=0.0)
    spec = sample_figure(cfg, 4, 0)
    panel = spec.panels[0]
    # ten points far apart, and a pair 0.06 apart on a unit scale: one blob at this size
    x = [0.0, 0.06, *np.linspace(2, 10, 10)]
    y = [5.0, 5.0, *([0.0, 10.0] * 5)]
    panel.data.update(x=x, y=y, c=None, xerr=None, yerr=None)
    panel.params = {}
    panel.distribution = "random"
    panel.style.update(color="#2ca02c", marker="o", size=60.0, edgewidth=0.0, colormap=None)
    record, pixels = _drawn(spec, cfg)
    points = {e.item: e for e in record.elements if e.kind == "point"}
    # from the pixels: the pair's green ink is one connected shape
    a, b = points[0].bbox, points[1].bbox
    x0, y0 = int(min(a[0], b[0])), int(min(a[1], b[1]))
    x1, y1 = int(max(a[2], b[2])) + 1, int(max(a[3], b[3])) + 1
    green = np.abs(pixels[y0:y1, x0:x1] - np.asarray(to_rgb("#2ca02c")) * 255).max(axis=2) <= 12
    _, shapes = ndimage.label(green)
    assert shapes == 1
    assert "marks" in (points[0].occluded_by or []) and "marks" in (points[1].occluded_by or [])
    assert all("marks" not in (points[i].occluded_by or []) for i in range(2, 12))
    assert not [i for i in questions_for_record(record) if i.family == "n_points"]
