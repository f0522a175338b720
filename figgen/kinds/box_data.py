"""The numbers of a box plot panel (each group's sample and the Tukey statistics its box
draws) and its look.

:func:`box_stats` computes what matplotlib's ``cbook.boxplot_stats`` does (linear-interpolated
quartiles, whiskers to the furthest value within ``whis`` IQRs of the box, every value beyond an
outlier, the notch 1.57 IQR / sqrt(n) around the median); the kind draws its panels from these
numbers with ``Axes.bxp``, so the record and the drawing hold the same statistics.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from figgen.sample.rng import integer, sig, uniform
from figgen.schema.panel import PanelData, PanelRecord, PanelStyle, panel_data, panel_style
from figgen.schema.truth_table import ChartTable, Row, number_text

WHIS = 1.5
"""Whiskers reach the furthest value within this many IQRs of the box (Tukey, matplotlib)."""


@dataclass
class BoxStats:
    """What one group's box draws (the keys of ``matplotlib.cbook.boxplot_stats``)."""

    q1: float
    med: float
    q3: float
    whislo: float
    whishi: float
    fliers: list[float]
    cilo: float
    cihi: float
    mean: float

    @property
    def iqr(self) -> float:
        return self.q3 - self.q1

    def bxp(self, label: str) -> dict[str, Any]:
        return {**self.__dict__, "label": label}


@panel_data("box")
@dataclass
class BoxData(PanelData):
    """The typed view of a box panel's ``data``; ``to_dict`` is exactly what the record stores."""

    groups: list[str]
    samples: list[list[float]]
    stats: list[BoxStats]
    colors: list[str]
    notch: bool
    whis: float
    orientation: Literal["vertical", "horizontal"]

    NESTED = {"stats": BoxStats}


@panel_style("box")
@dataclass
class BoxStyle(PanelStyle):
    """A box plot's look: filled or outlined boxes, their width (group spacing 1), line width,
    outlier symbol and size (points), grid, and each group's line and median colours (derived
    from its fill at sampling, stored so a reader of the record knows every mark's ink)."""

    filled: bool = True
    width: float = 0.5
    linewidth: float = 1.0
    flier_marker: str = "o"
    flier_size: float = 4.0
    grid: bool = False
    line_colors: list[str] = field(default_factory=list)
    median_colors: list[str] = field(default_factory=list)


def box_stats(values: list[float], whis: float = WHIS) -> BoxStats:
    """Tukey's box of ``values``: quartiles by linear interpolation, whiskers to the furthest
    value within ``whis`` IQRs of the box, outliers beyond, the notch 1.57 IQR / sqrt(n)."""
    x = np.asarray(values, dtype=float)
    q1, med, q3 = (float(v) for v in np.percentile(x, [25, 50, 75]))
    iqr = q3 - q1
    inside = x[(x >= q1 - whis * iqr) & (x <= q3 + whis * iqr)]
    whislo = min(float(inside.min()), q1)
    whishi = max(float(inside.max()), q3)
    half_notch = 1.57 * iqr / np.sqrt(len(x))
    return BoxStats(
        q1=q1,
        med=med,
        q3=q3,
        whislo=whislo,
        whishi=whishi,
        fliers=[float(v) for v in x[(x < whislo) | (x > whishi)]],
        cilo=float(med - half_notch),
        cihi=float(med + half_notch),
        mean=float(x.mean()),
    )


def box_table(data: dict[str, Any]) -> list[tuple[str, str, float]]:
    """The ground-truth table ``(group, statistic, value)``: the five numbers each box draws
    (lower whisker, lower quartile, median, upper quartile, upper whisker)."""
    boxes = BoxData.from_dict(data)
    return [
        (group, name, float(getattr(stats, name)))
        for group, stats in zip(boxes.groups, boxes.stats, strict=True)
        for name in ("whislo", "q1", "med", "q3", "whishi")
    ]


STATISTIC_NAMES = {
    "whislo": "lower whisker",
    "q1": "Q1",
    "med": "median",
    "q3": "Q3",
    "whishi": "upper whisker",
}
"""The five drawn statistics as ``figgen density`` names them (its prompt gives these names)."""


def box_chart_table(panel: PanelRecord) -> ChartTable:
    """The density table of a box panel: one series per box (its group label), one row per
    drawn statistic (X Value its name, Y Value where it is drawn); outliers are not rows."""
    rows = [
        Row(group, STATISTIC_NAMES[name], number_text(value))
        for group, name, value in box_table(panel.stored_data)
    ]
    return ChartTable(tuple(rows), "categorical")


SHAPES = ("normal", "skewed", "heavy")


def group_sample(rng: np.random.Generator, n: int, centre: float, scale: float) -> list[float]:
    """``n`` values around ``centre``: normal, right- or left-skewed (lognormal) or heavy-tailed
    (Student t, 3 degrees of freedom, which gives outliers), sometimes with a few far values."""
    shape = SHAPES[int(rng.integers(len(SHAPES)))]
    if shape == "normal":
        x = rng.normal(0.0, 1.0, n)
    elif shape == "skewed":
        x = rng.lognormal(0.0, uniform(rng, (0.4, 0.9)), n)
        x = (x - np.median(x)) * (1 if rng.random() < 0.75 else -1)
    else:
        x = rng.standard_t(3, n)
    if rng.random() < 0.3:  # a few gross outliers, as measurement slips give
        k = min(n, integer(rng, (1, 3)))
        x[:k] += rng.choice([-1.0, 1.0], k) * rng.uniform(4.0, 7.0, k)
    return sig(centre + scale * x, 3)
