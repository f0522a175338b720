"""Range plots in LongChart sets: one floating bar per index label, from its low to its high end.

A range image shows two vectors over the same labels, the low ends and the high ends (the
smallest and the largest value of something at each label: a week's lowest and highest quiz
score), as min-max bars; both come back from it, so it is reversible like a bar chart. The
low ends must lie below the high ends (the set's values are drawn again otherwise). The value
axis gets a tick and grid line per value of the inputs' decimals where the labels fit, so the
ends of data nodes of few values read exactly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen.kinds.histogram import value_grid
from figgen.kinds.ranges_data import RangeData, RangeSeries, RangeStyle
from figgen.schema.longchart import Chart, ChartPanel, ReadValue, Shape, same_vectors

if TYPE_CHECKING:
    from figgen.schema.elements import Element
    from figgen.schema.record import Record

MAX_TICKS = 30
"""More value ticks than this are left to the locator's own steps."""


class RangeCharts:
    """The range kind's LongChart hooks (a mixin of :class:`figgen.kinds.ranges.RangeKind`)."""

    multichart_charts: tuple[str, ...] = ("range",)

    def multichart_refusal(self, chart: str, inputs: list[Shape]) -> str | None:
        if len(inputs) == 2 and same_vectors(inputs):
            return None
        return "shows two vectors over the same labels: the low ends, then the high ends"

    def multichart_value_refusal(self, chart: Chart) -> str | None:
        low, high = chart.inputs
        if all(a < b for a, b in zip(low.values, high.values, strict=True)):
            return None
        return f"'{low.label}' must lie below '{high.label}' at every label"

    def multichart_panel(self, chart: Chart) -> ChartPanel:
        low, high = chart.inputs
        centre = [(a + b) / 2 for a, b in zip(low.values, high.values, strict=True)]
        series = RangeSeries(None, chart.colour(0), centre, list(low.values), list(high.values))
        categories = [str(v) for v in low.labels]
        data = RangeData("bars", "minmax", [], categories, [series], 1.0)
        places = max(low.decimals, high.decimals)
        grid = value_grid(min(low.values), max(high.values), places)
        ticks = len(grid) + 1 if len(grid) <= MAX_TICKS else None
        style = RangeStyle(linewidth=1.5, width=0.6, grid=True, y_nbins=ticks)
        return ChartPanel(
            data.to_dict(), style.to_dict(), chart.index_title, chart.unit, (6.4, 4.8)
        )

    def multichart_read(self, record: Record, chart: Chart) -> list[ReadValue]:
        (series,) = record.panels[0].data_as(RangeData).series
        return [tuple(map(float, series.low)), tuple(map(float, series.high))]

    def shows_input(self, element: Element, series: int, items: set[int]) -> bool:
        # one bar shows a label's low end and its high end: either input's evidence
        return element.kind == "range_bar" and element.item in items
