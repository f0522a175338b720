"""Numbers as a person reads them off an axis: to the tick precision, with unit and scale.

A value on a linear axis is rounded to a tenth of the tick spacing, taken down to a power of
ten (ticks every 0.5 give 0.01, every 50 give 1, every 2000 give 100); the spacing comes from the
drawn tick labels (``xtick_label`` / ``ytick_label`` elements) or, where they cannot be read
(no elements, an offset text, labels that are not numbers), from a 1-2-5 step over the data's
span. A log axis is read to two significant figures. A unit in brackets at the end of the axis
label ("flux [mJy]") is said after the number.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from figgen.schema.panel import PanelRecord
from figgen.vqa.api.reading.measures import tick_values
from figgen.words.spoken import spoken

if TYPE_CHECKING:
    from figgen.vqa.api.context import FigureContext

_UNIT = re.compile(r"[\(\[]\s*([^()\[\]]{1,20}?)\s*[\)\]]\s*$")
_PLAIN_RANGE = (1e-3, 1e6)
"""Magnitudes written as plain decimals; others as "3.2 times 10 to the power 7"."""


def nice_step(span: float, ticks: int = 5) -> float:
    """A 1-2-5 tick spacing giving about ``ticks`` intervals over ``span``."""
    if span <= 0 or not math.isfinite(span):
        return 1.0
    raw = span / ticks
    power = 10 ** math.floor(math.log10(raw))
    return float(next(m * power for m in (1, 2, 5, 10) if m * power >= raw))


def spoken_number(value: float, *, decimals: int | None = None, digits: int = 3) -> str:
    """A number as read aloud: plain decimals, powers of ten in words, a real minus sign."""
    if value == 0 or not math.isfinite(value):
        return "0" if value == 0 else str(value)
    if not _PLAIN_RANGE[0] <= abs(value) < _PLAIN_RANGE[1]:
        mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa} times 10 to the power {int(exponent)}"
    if decimals is None:
        text = f"{float(f'{value:.{digits}g}'):f}".rstrip("0").rstrip(".")
    else:
        text = f"{value:.{max(decimals, 0)}f}"
    return "0" if float(text) == 0 else text


@dataclass(frozen=True)
class AxisReading:
    """How to say a value of one axis: its reading resolution, scale and unit."""

    resolution: float | None
    """Rounding step on a linear axis; None on a log axis (two significant figures)."""
    unit: str | None = None

    @property
    def log(self) -> bool:
        return self.resolution is None

    def number(self, value: float) -> str:
        """``value`` rounded as read off this axis, without the unit."""
        if self.resolution is None:
            return spoken_number(value, digits=2)
        rounded = round(value / self.resolution) * self.resolution
        decimals = max(0, -math.floor(math.log10(self.resolution) + 1e-9))
        return spoken_number(rounded, decimals=decimals)

    def whole(self) -> AxisReading:
        """This reading for whole numbers (counts): never finer than 1."""
        if self.resolution is None or self.resolution >= 1:
            return self
        return AxisReading(1.0, self.unit)

    def say(self, value: float) -> str:
        """``value`` with its unit: "12.5 mJy"."""
        return self.number(value) + (f" {self.unit}" if self.unit else "")

    def span(self, low: float, high: float) -> str:
        """ "from 0.2 to 40 mJy", with "on a logarithmic scale" where the axis is log."""
        text = f"from {self.number(low)} to {self.say(high)}"
        return text + (" on a logarithmic scale" if self.log else "")


def axis_unit(label: str | None) -> str | None:
    """The unit in brackets at the end of an axis label, spoken, or None."""
    match = _UNIT.search(label or "")
    return spoken(match.group(1)) if match else None


def resolution_for(step: float) -> float:
    """A tenth of the tick spacing, down to a power of ten: one digit finer than the ticks."""
    return float(10 ** math.floor(math.log10(step / 10)))


def axis_reading(
    ctx: FigureContext | None,
    panel: PanelRecord,
    axis: str,
    values: Sequence[float],
    *,
    label: str | None = None,
) -> AxisReading:
    """The reading of ``axis`` ("x", "y") of ``panel``; ``values`` are the data drawn on it.

    ``label`` overrides the panel's axis label as the source of the unit (a colour bar's).
    """
    unit = axis_unit(label if label is not None else panel.axis_label(axis))
    if panel.axis_scale(axis) == "log":
        return AxisReading(None, unit)
    step = _tick_step(ctx, panel, axis)
    finite = [float(v) for v in values if math.isfinite(float(v))]
    if step is None:
        step = nice_step(max(finite) - min(finite)) if finite else 1.0
    return AxisReading(resolution_for(step), unit)


def _tick_step(ctx: FigureContext | None, panel: PanelRecord, axis: str) -> float | None:
    if ctx is None or ctx.elements(panel.index, "offset_text"):
        return None  # an offset or a "x 10^n" factor: the labels are not the values
    ticks = tick_values(ctx.elements(panel.index, f"{axis}tick_label"), axis)
    if not ticks or len(ticks) < 2:
        return None
    steps = [abs(b - a) for a, b in zip(ticks, ticks[1:], strict=False) if b != a]
    return min(steps) if steps else None


@dataclass(frozen=True)
class DrawnAxis:
    """A linear axis as drawn: the data span its plot box covers and its length in pixels."""

    span: float
    pixels: float


def drawn_axis(
    ctx: FigureContext,
    panel: PanelRecord,
    axis: str,
    values: Sequence[float],
    pixels: Sequence[float],
) -> DrawnAxis | None:
    """The linear ``axis`` ("x", "y") of ``panel`` as drawn, placed by marks drawn at
    ``pixels`` for ``values`` (a least-squares fit of pixels per unit); None without a plot
    box or two distinct values."""
    plot = ctx.elements(panel.index, "panel")
    if not plot or len(set(values)) < 2:
        return None
    per_unit = abs(float(np.polyfit(values, pixels, 1)[0]))
    x0, y0, x1, y1 = plot[0].bbox
    length = (x1 - x0) if axis == "x" else (y1 - y0)
    return DrawnAxis(length / per_unit, length) if per_unit > 0 and length > 0 else None
