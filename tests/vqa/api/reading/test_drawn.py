"""The drawn-data shapes the question vocabulary reads match the kinds' data classes, and a
panel's axes read by name."""

from __future__ import annotations

import numpy as np
import pytest

from figgen.kinds.bar import BarData, BarSeries
from figgen.kinds.contour import ContourData, ContourStyle
from figgen.kinds.heatmap import HeatmapStyle
from figgen.kinds.histogram import HistogramData
from figgen.kinds.line import LineData, LineSeries
from figgen.kinds.line_data import LineStyle
from figgen.kinds.scatter import ScatterData, ScatterStyle
from figgen.vqa.api.reading import drawn
from tests.vqa.records import contour_panel, histogram_panel, line_panel, scatter_panel, typed


def test_the_kinds_data_classes_have_the_shapes_the_vocabulary_reads() -> None:
    assert isinstance(HistogramData([1.0], [0.0, 2.0], [1]), drawn.Binned)
    assert isinstance(ScatterData([1.0], [2.0]), drawn.Cloud)
    assert isinstance(ContourData([0.0], [0.0], [[1.0]], [0.5]), drawn.Field)
    line = LineSeries([0.0, 1.0], [1.0, 2.0], color="#ff0000", label="a")
    assert isinstance(line, drawn.Line) and isinstance(LineData([line]), drawn.Lines)
    # bars are series too, but not lines: no x and y to read
    assert not isinstance(BarSeries("a", "#ff0000", [1.0]), drawn.Line)
    assert not isinstance(HistogramData([1.0], [0.0, 2.0], [1]), drawn.Cloud)


def test_the_accessors_read_a_panel_of_the_right_kind() -> None:
    rng = np.random.default_rng(0)
    bins = histogram_panel(rng)
    hist = typed(bins)
    assert list(drawn.binned(hist).counts) == bins["data"]["counts"]
    points = scatter_panel(np.random.default_rng(1))
    assert list(drawn.cloud(typed(points)).x) == points["data"]["x"]
    field = contour_panel(rng)
    assert list(drawn.drawn_field(typed(field)).levels) == field["data"]["levels"]
    lines = line_panel(rng, n_series=3)
    assert [s.label for s in drawn.lines(typed(lines))] == ["series 0", "series 1", "series 2"]
    assert drawn.has_points(typed(points)) and not drawn.has_points(hist)
    with pytest.raises(TypeError, match=r"panel 0 \(histogram\) holds no point data"):
        drawn.cloud(hist)
    for _ in range(2):  # judged once per class, then from the cache: the same answers
        assert drawn.lines(typed(points)) == () and drawn.binned(hist) is hist.data


def test_a_bar_panel_has_no_lines() -> None:
    bars = typed(
        {
            "kind": "bar",
            "data": BarData(
                ["a", "b"], [BarSeries(None, "#ff0000", [1.0, 2.0])], "single", "vertical"
            ).to_dict(),
        }
    )
    assert drawn.lines(bars) == ()


def test_a_panel_reads_its_axes_by_name() -> None:
    panel = typed({"kind": "line", "xscale": "log", "xlabel": "time", "ylabel": "mass"})
    assert (panel.axis_scale("x"), panel.axis_scale("y")) == ("log", "linear")
    assert (panel.axis_label("x"), panel.axis_label("y")) == ("time", "mass")
    with pytest.raises(ValueError):
        panel.axis_scale("z")


def test_the_kinds_looks_have_the_shapes_the_vocabulary_reads() -> None:
    assert isinstance(LineStyle(), drawn.LineLook)
    for look in (ContourStyle(), HeatmapStyle(), ScatterStyle()):
        assert isinstance(look, drawn.ColourBarLook)
    assert not isinstance(LineStyle(), drawn.ColourBarLook)


def test_a_panel_reads_its_line_look_and_colour_bar() -> None:
    lines = typed({"kind": "line", "style": {"marker": "s", "markersize": 4.5, "legend": True}})
    look = drawn.line_look(lines)
    assert look is not None and (look.marker, look.markersize, look.legend) == ("s", 4.5, True)
    assert look.linewidth == 1.5  # not stored: matplotlib's default width
    assert drawn.colour_bar(lines) is None  # a line plot draws no colour bar
    barred = typed({"kind": "contour", "style": {"colorbar": "right", "colorbar_label": "T"}})
    bar = drawn.colour_bar(barred)
    assert bar is not None and (bar.colorbar, bar.colorbar_label) == ("right", "T")
    assert drawn.colour_bar(typed({"kind": "contour", "style": {"colorbar": None}})) is None
    assert drawn.line_look(barred) is None
