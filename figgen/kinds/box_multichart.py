"""Box plots in LongChart sets: one horizontal box per input vector, read as its median and
quartiles.

A box shows an input's median, its lower and upper quartiles and their distance (the box's
length), not its values: the image gives back no input and stands in for the computation
nodes ``median``, ``quantile`` (``q`` = 0.25, 0.5, 0.75) and ``iqr`` of an input
(:attr:`BoxCharts.multichart_statistics`). Each can be
read by eye exactly: the graph admits a box only of a data node whose values fall on at most
30 grid values (one value-axis tick and grid line each, as a histogram's bars), and this kind
only of vectors of 4k + 1 values, whose quartiles (numpy's linear interpolation, at positions
k, 2k and 3k of the sorted values) are each one of the values; so every box edge and median
line lies on a tick. Whiskers are Tukey's (1.5 IQR, the values beyond drawn as outliers) and
are not asked.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen.kinds.box_data import WHIS, BoxData, BoxStats, BoxStyle, box_stats
from figgen.kinds.histogram import value_grid
from figgen.schema.longchart import Chart, ChartPanel, ReadValue, Shape, Summary

if TYPE_CHECKING:
    from figgen.schema.elements import Element
    from figgen.schema.record import Record

MEDIAN_LINE_GREY = "#333333"
"""The median line of an outlined box, dark on the light figure."""


def _statistic(stats: BoxStats, summary: Summary) -> float:
    if summary.op == "median":
        return stats.med
    if summary.op == "iqr":
        return stats.iqr
    return {0.25: stats.q1, 0.5: stats.med, 0.75: stats.q3}[summary.q or 0.0]


class BoxCharts:
    """The box kind's LongChart hooks (a mixin of :class:`figgen.kinds.box.BoxKind`)."""

    multichart_charts: tuple[str, ...] = ("box",)
    multichart_statistics: tuple[Summary, ...] = (
        Summary("median"),
        Summary("quantile", 0.25),
        Summary("quantile", 0.5),
        Summary("quantile", 0.75),
        Summary("iqr"),
    )

    def multichart_refusal(self, chart: str, inputs: list[Shape]) -> str | None:
        if all(s.kind == "vector" and (len(s.labels) - 1) % 4 == 0 for s in inputs):
            return None
        return (
            "shows vectors of 4k + 1 values (5, 9, ..., 29, 33), whose quartiles are each one "
            "of the values; change the index"
        )

    def multichart_panel(self, chart: Chart) -> ChartPanel:
        samples = [list(shown.values) for shown in chart.inputs]
        places = max(shown.decimals for shown in chart.inputs)
        every = [v for sample in samples for v in sample]
        grid = value_grid(min(every), max(every), places)
        colors = [chart.colour(k) for k in range(len(samples))]
        data = BoxData(
            groups=[shown.label for shown in chart.inputs],
            samples=samples,
            stats=[box_stats(sample, WHIS) for sample in samples],
            colors=colors,
            notch=False,
            whis=WHIS,
            orientation="horizontal",
        )
        style = BoxStyle(
            filled=False,
            width=0.5,
            linewidth=1.4,
            flier_marker="o",
            flier_size=4.0,
            grid=True,
            line_colors=colors,
            median_colors=[MEDIAN_LINE_GREY] * len(colors),
            # a tick and grid line per value where the labels fit: box edges read exactly
            x_nbins=len(grid) + 1,
        )
        size = (6.4, 1.8 + 0.8 * len(samples))
        return ChartPanel(data.to_dict(), style.to_dict(), chart.unit or "value", None, size)

    def multichart_read(self, record: Record, chart: Chart) -> list[ReadValue]:
        """Each input's statistics as its box draws them, in ``multichart_statistics`` order."""
        boxes = record.panels[0].data_as(BoxData)
        return [
            tuple(_statistic(stats, summary) for summary in self.multichart_statistics)
            for stats in boxes.stats
        ]

    def shows_input(self, element: Element, series: int, items: set[int]) -> bool:
        """The box (its edges are the quartiles) or the median line of the input's box."""
        if element.series != series:
            return False
        wanted = [self.multichart_statistics[i] for i in items]
        median = any(s.op == "median" or s.q == 0.5 for s in wanted)
        quartile = any(s.q in (0.25, 0.75) or s.op == "iqr" for s in wanted)
        return (element.kind == "median_line" and median) or (element.kind == "box" and quartile)
