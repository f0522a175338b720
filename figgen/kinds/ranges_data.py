"""The numbers of a range plot panel: each series' centre, low and high per position, and the
statistics that make them from replicates (:func:`range_stats`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

import numpy as np

from figgen.sample.rng import integer, uniform
from figgen.schema.panel import PanelData, PanelRecord, PanelStyle, panel_data, panel_style
from figgen.schema.truth_table import ChartTable, Row, number_text

Mode = Literal["band", "bars"]
Stat = Literal["sd", "quantile", "minmax"]


@dataclass
class RangeSeries:
    label: str | None
    color: str
    centre: list[float]
    low: list[float]
    high: list[float]

    def widths(self) -> np.ndarray:
        widths: np.ndarray = np.asarray(self.high, dtype=float) - np.asarray(self.low, dtype=float)
        return widths


@panel_style("range")
@dataclass
class RangeStyle(PanelStyle):
    """A range plot's look: the centre line's width (points), the bars' width (category
    spacing 1), grid."""

    linewidth: float = 1.5
    width: float = 0.6
    grid: bool = False


@panel_data("range")
@dataclass
class RangeData(PanelData):
    """The typed view of a range panel's ``data``; ``to_dict`` is exactly what the record stores."""

    mode: Mode
    stat: Stat
    x: list[float]
    categories: list[str]
    series: list[RangeSeries]
    alpha: float

    NESTED = {"series": RangeSeries}

    def positions(self) -> np.ndarray:
        """Where the ranges stand along the x axis (category indices in bars mode)."""
        if self.mode == "band":
            return np.asarray(self.x, dtype=float)
        return np.arange(len(self.categories), dtype=float)

    def names(self) -> list[str]:
        return [s.label or "" for s in self.series]


def range_stats(replicates: np.ndarray, stat: Stat) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Centre, low and high of each row of ``replicates`` (positions x replicates)."""
    if stat == "sd":
        mean, sd = replicates.mean(axis=1), replicates.std(axis=1, ddof=1)
        return mean, mean - sd, mean + sd
    if stat == "quantile":
        low, centre, high = np.percentile(replicates, [10, 50, 90], axis=1)
        return centre, low, high
    return replicates.mean(axis=1), replicates.min(axis=1), replicates.max(axis=1)


def range_table(data: dict[str, Any]) -> list[tuple[str, str, float, float]]:
    """The ground-truth table ``(series, x or category, low, high)``, series by series."""
    ranges = RangeData.from_dict(data)
    where = [f"{x:g}" for x in ranges.x] if ranges.mode == "band" else ranges.categories
    return [
        (s.label or "", at, float(lo), float(hi))
        for s in ranges.series
        for at, lo, hi in zip(where, s.low, s.high, strict=True)
    ]


def range_chart_table(panel: PanelRecord) -> ChartTable | None:
    """The density table of a range panel in bars mode: per series a "NAME low" and a
    "NAME high" series ("low" and "high" for a single unnamed one) over the categories; None
    for a band, whose positions are not marked (like a line drawn without markers)."""
    ranges = panel.data_as(RangeData)
    if ranges.mode == "band":
        return None
    rows = [
        Row(f"{s.label} {end}" if s.label else end, category, number_text(value))
        for s in ranges.series
        for end, values in (("low", s.low), ("high", s.high))
        for category, value in zip(ranges.categories, values, strict=True)
    ]
    return ChartTable(tuple(rows), "categorical")


def replicates(rng: np.random.Generator, n: int, level: float, scale: float) -> np.ndarray:
    """``n`` positions x replicates: a smooth centre (trend plus a wave) and a spread that grows,
    shrinks or swells along the positions, with normal or skewed noise."""
    t = np.linspace(0.0, 1.0, n)
    centre = level + scale * (
        uniform(rng, (-2.0, 2.0)) * t
        + uniform(rng, (0.0, 1.5))
        * np.sin(2 * np.pi * (uniform(rng, (0.3, 2.0)) * t + rng.random()))
    )
    spread = (
        scale
        * uniform(rng, (0.15, 0.6))
        * (
            1.0
            + uniform(rng, (-0.7, 1.5)) * t
            + uniform(rng, (0.0, 1.5)) * np.exp(-(((t - rng.random()) / 0.15) ** 2))
        )
    )
    m = integer(rng, (8, 60))
    noise = rng.normal(size=(n, m)) if rng.random() < 0.7 else rng.gamma(2.0, size=(n, m)) - 2.0
    return np.asarray(centre[:, None] + np.clip(spread, 0.05 * scale, None)[:, None] * noise)
