"""The numbers and look of a line panel: its typed ``data`` (the drawn series), its typed
``style`` and its ground-truth table of marker points."""

from __future__ import annotations

from dataclasses import dataclass

from matplotlib.typing import LegendLocType

from figgen.schema.panel import PanelData, PanelRecord, PanelStyle, panel_data, panel_style
from figgen.schema.truth_table import ChartTable, Row
from figgen.schema.truth_table import number_text as exact_text


@dataclass
class LineSeries(PanelData):
    """One drawn line: its points, optional error sizes and how it looks."""

    x: list[float]
    y: list[float]
    xerr: list[float] | None = None
    yerr: list[float] | None = None
    color: str | None = None
    label: str | None = None
    linestyle: str = "-"


@panel_data("line")
@dataclass
class LineData(PanelData):
    """A line panel's ``data``: its series, in drawing (and legend) order."""

    series: list[LineSeries]

    NESTED = {"series": LineSeries}


@panel_style("line")
@dataclass
class LineStyle(PanelStyle):
    """A line panel's look: the marker symbol (None: lines only), sizes in points, legend."""

    marker: str | None = None
    markersize: float = 6.0
    linewidth: float = 1.5
    capsize: float = 0.0
    legend: bool = False
    legend_loc: LegendLocType = "best"
    grid: bool = False


def line_table(panel: PanelRecord) -> ChartTable | None:
    """The marker points of a line panel (series label, x, y); None when its markers are not
    drawn (its data points are not visible)."""
    if not panel.style_as(LineStyle).marker:
        return None
    rows = [
        Row(str(series.label), exact_text(x), exact_text(y))
        for series in panel.data_as(LineData).series
        for x, y in zip(series.x, series.y, strict=True)
    ]
    return ChartTable(tuple(rows), "numeric")
