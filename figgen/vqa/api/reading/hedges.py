"""What a Level 3 description may say, with a hedge sized to the evidence of the drawing.

Questions ask only what is beyond doubt (:mod:`figgen.vqa.api.reading.trends`); a description may
hedge. Each function here returns the verdict of the strict rule where it holds ("rises along a
straight line", "three separate clusters") and otherwise a hedged reading of the drawn data,
judged in display coordinates (log10 on a log axis):

Trend of a point set: Pearson r of the drawn points. |r| >= 0.85 "rises strongly"; below
    that, a single drawn peak or dip inside the x range (both ends at least 40% of the y span
    away from it, no step of more than 20% of the span against the climb or the descent) is
    said where it shows; else |r| >= 0.6 "rises clearly, with some scatter", >= 0.35 "shows a
    loose rising trend", and below that "no clear trend". A line whose fitted rise over its x
    range is under 15% of the panel's drawn y span "rises slightly, staying nearly level".
Histogram shape: the skewness of the drawn bars: below 0.25 in size "roughly symmetric",
    below 0.6 "slightly skewed", else "clearly skewed". Peaks and scatter groups are measured
    features of the drawing (:mod:`figgen.vqa.api.reading.features`), stated as measured.
Contour field: a plane fitted to the drawn field: R^2 >= 0.8 "increase steadily", >= 0.4
    "increase roughly", toward one of eight directions; else its drawn peaks, else "no clear
    trend".
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from figgen.schema.panel import PanelRecord
from figgen.vqa.api.reading import trends
from figgen.vqa.api.reading.drawn import Line, binned, cloud, drawn_field
from figgen.vqa.api.reading.measures import display
from figgen.vqa.api.reading.trends import PointSet

NO_TREND = "no clear trend"
"""The one phrase every description uses when the drawing shows no trend."""
STRONG, CLEAR, LOOSE = 0.85, 0.6, 0.35
PEAK_DROP = 0.4
SLIGHT = 0.15
WIGGLE = 0.2
SLIGHT_SKEW, CLEAR_SKEW = 0.25, 0.6
STEADY_PLANE, ROUGH_PLANE = 0.8, 0.4


@dataclass(frozen=True)
class DrawnTrend:
    """The straight-line reading of one drawn point set (display coordinates)."""

    r: float
    slope: float
    """Rise per unit of x in data units (display units on a log axis)."""

    @property
    def rising(self) -> bool:
        return self.slope > 0

    @property
    def strength(self) -> str | None:
        """ "strong", "clear", "loose", or None where no trend shows."""
        size = abs(self.r)
        if size >= STRONG:
            return "strong"
        if size >= CLEAR:
            return "clear"
        if size >= LOOSE:
            return "loose"
        return None


def drawn_trend(panel: PanelRecord, points: PointSet) -> DrawnTrend | None:
    """Pearson r and slope of a point set as drawn; None for fewer than 3 distinct points."""
    xs = display(points.x, panel.xscale)
    ys = display(points.y, panel.yscale)
    keep = np.isfinite(xs) & np.isfinite(ys)
    xs, ys = xs[keep], ys[keep]
    if len(xs) < 3 or np.ptp(xs) == 0 or np.ptp(ys) == 0:
        return None
    r = float(np.corrcoef(xs, ys)[0, 1])
    slope = float(np.polyfit(xs, ys, 1)[0])
    return DrawnTrend(r, slope)


def trend_clause(
    panel: PanelRecord,
    points: PointSet,
    *,
    plural: bool,
    say_x: Callable[[float], str],
    panel_span: float | None = None,
) -> str:
    """The verb phrase for one point set: "rises strongly along a straight line", ...

    ``say_x`` writes an x value as the description reads it off the axis; ``panel_span`` is the
    drawn y span of everything in the panel (display units): a steady rise over less than
    ``SLIGHT`` of it looks nearly level beside the other lines, and is said to be slight.
    """
    s = "" if plural else "s"
    trend = drawn_trend(panel, points)
    strength = trend.strength if trend else None
    if trend is not None and strength in ("strong", "clear") and panel_span:
        xs = display(points.x, panel.xscale)
        if abs(trend.slope) * float(np.ptp(xs[np.isfinite(xs)])) < SLIGHT * panel_span:
            steady = " but steadily" if strength == "strong" else ""
            return f"{'rise' if trend.rising else 'fall'}{s} slightly{steady}, staying nearly level"
    if strength != "strong":  # a clean bump says more than a weak slope
        turn = _turn_clause(panel, points, plural=plural, say_x=say_x)
        if turn is not None:
            return turn
    if trend is None or strength is None:
        return f"{'do' if plural else 'does'} not rise or fall overall ({NO_TREND})"
    way = "rise" if trend.rising else "fall"
    strict = trends.series_trend(panel, points)  # R^2 >= 0.95: always a strong r
    if strict is not None and (strict == "increasing") == trend.rising:
        return f"{way}{s} strongly along a straight line"
    if strength == "strong":
        return f"{way}{s} strongly"
    if strength == "clear":
        return f"{way}{s} clearly, with some scatter"
    return f"show{s} a loose {'rising' if trend.rising else 'falling'} trend"


def _turn_clause(
    panel: PanelRecord, points: PointSet, *, plural: bool, say_x: Callable[[float], str]
) -> str | None:
    """ "rises to a peak near x = 3 and falls again" (or a low), where one clean turn shows."""
    order = np.argsort(np.asarray(points.x, dtype=float), kind="stable")
    xs = np.asarray(points.x, dtype=float)[order]
    ys = display(points.y, panel.yscale)[order]
    finite = np.isfinite(ys)
    xs, ys = xs[finite], ys[finite]
    s = "" if plural else "s"
    for sign, word, there, back in ((1, "peak", "rise", "fall"), (-1, "low", "fall", "rise")):
        i = _single_turn(sign * ys)
        if i is not None:
            return f"{there}{s} to a {word} near x = {say_x(float(xs[i]))} and {back}{s} again"
    return None


def _single_turn(ys: np.ndarray) -> int | None:
    """Where ``ys`` has its one clear peak: inside the range, both ends at least ``PEAK_DROP``
    of the span below it, and no step against the climb before it or the descent after it
    larger than ``WIGGLE`` of the span (noise zigzags; a bump does not)."""
    if len(ys) < 5 or np.ptp(ys) == 0:
        return None
    span, i = float(np.ptp(ys)), int(np.argmax(ys))
    if not 0 < i < len(ys) - 1 or min(ys[i] - ys[0], ys[i] - ys[-1]) < PEAK_DROP * span:
        return None
    steps = np.diff(ys)
    if steps[:i].min() < -WIGGLE * span or steps[i:].max() > WIGGLE * span:
        return None
    return i


@dataclass(frozen=True)
class Skew:
    """The drawn skewness of a histogram and how it reads."""

    value: float

    @property
    def words(self) -> str:
        size = abs(self.value)
        if size < SLIGHT_SKEW:
            return "roughly symmetric"
        side = "right" if self.value > 0 else "left"
        tail = "larger" if self.value > 0 else "smaller"
        degree = "slightly" if size < CLEAR_SKEW else "clearly"
        return f"{degree} {side}-skewed, with a longer tail toward {tail} values"


def histogram_skew(panel: PanelRecord) -> Skew | None:
    """The shape of the drawn bars, or None with fewer than 3 non-empty bins."""
    data = binned(panel)
    counts = data.counts
    if sum(c > 0 for c in counts) < 3:
        return None
    return Skew(trends.drawn_skewness(counts, data.bin_edges))


_COMPASS = (
    "left to right",
    "the lower left to the upper right",
    "bottom to top",
    "the lower right to the upper left",
    "right to left",
    "the upper right to the lower left",
    "top to bottom",
    "the upper left to the lower right",
)


def field_direction(panel: PanelRecord) -> tuple[str, float] | None:
    """(where the drawn field increases toward, R^2 of a fitted plane), or None if flat.

    The plane is fitted in the unit square of the drawn axes, as the eye compares them.
    """
    z = np.asarray(drawn_field(panel).z, dtype=float)
    rows, cols = z.shape
    if rows < 2 or cols < 2 or np.ptp(z) == 0:
        return None
    v, u = np.meshgrid(np.linspace(0, 1, rows), np.linspace(0, 1, cols), indexing="ij")
    design = np.column_stack([u.ravel(), v.ravel(), np.ones(z.size)])
    coef, *_ = np.linalg.lstsq(design, z.ravel(), rcond=None)
    residual = z.ravel() - design @ coef
    r2 = 1 - float((residual**2).sum()) / float(((z - z.mean()) ** 2).sum())
    angle = math.degrees(math.atan2(coef[1], coef[0])) % 360
    return _COMPASS[int(((angle + 22.5) % 360) // 45)], r2


def direction_words(r2: float) -> str | None:
    if r2 >= STEADY_PLANE:
        return "steadily"
    if r2 >= ROUGH_PLANE:
        return "roughly"
    return None


def mentions_no_trend(text: str) -> bool:
    return NO_TREND in text


def distinct(sentences: Sequence[str]) -> list[str]:
    """``sentences`` without repeats, in order."""
    return list(dict.fromkeys(s for s in sentences if s))


def stacking_order(series: Sequence[Line], yscale: str) -> list[int] | None:
    """Indices of lines from top to bottom where they never cross (at every shared x), else
    None: one line staying above another is what a reader sees even in noise."""
    if len(series) < 2:
        return None
    shared = set.intersection(*(set(map(float, s.x)) for s in series))
    if len(shared) < 3:
        return None
    heights = []
    for s in series:
        at = {float(x): float(y) for x, y in zip(s.x, s.y, strict=True)}
        heights.append(display([at[x] for x in sorted(shared)], yscale))
    order = sorted(range(len(series)), key=lambda i: -float(np.nanmean(heights[i])))
    for upper, lower in zip(order, order[1:], strict=False):
        if not np.all(heights[upper] > heights[lower]):
            return None
    return order


EVEN_CHI2 = 15.507
"""The chi-square value of 9 equal cells (8 degrees of freedom) at p = 0.05."""
EVEN_MIN_POINTS = 36
"""Four points per cell of a 3 x 3 grid: fewer, and chance leaves cells empty."""


def spreads_evenly(panel: PanelRecord) -> bool:
    """Whether a point cloud fills its drawn range evenly: counts in a 3 x 3 grid over the
    drawn x and y ranges pass a chi-square test of equal cells at p = 0.05."""
    data = cloud(panel)
    xs = display(data.x, panel.xscale)
    ys = display(data.y, panel.yscale)
    keep = np.isfinite(xs) & np.isfinite(ys)
    xs, ys = xs[keep], ys[keep]
    if len(xs) < EVEN_MIN_POINTS or np.ptp(xs) == 0 or np.ptp(ys) == 0:
        return False
    cells, _, _ = np.histogram2d(xs, ys, bins=3)
    expected = len(xs) / 9
    return float(((cells - expected) ** 2 / expected).sum()) <= EVEN_CHI2
