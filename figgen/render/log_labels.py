"""Minor tick labels on log axes that are drawn only where they fit between their neighbours.

Over a short range (about a decade or less) matplotlib labels a log axis's minor ticks too
(2, 3, 4, 6 x 10^n). On a narrow panel those labels overlap each other and the major ones:
the most common reason a default figure needed a second layout pass, whose repair then hid
them. This formatter makes the same decision during the one layout pass instead, from the
labels' measured extents at the axis's current length, so such a figure is drawn once.

Where the labels fit it labels exactly the ticks the default formatter labels, with the same
strings; where they would overlap it labels none of the minor ticks, as the repair did.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axis import Axis, XAxis
from matplotlib.backend_bases import RendererBase
from matplotlib.text import Text
from matplotlib.ticker import LogFormatterSciNotation


class FittingLogFormatter(LogFormatterSciNotation):
    """The log scale's default minor formatter, with minor labels dropped where they crowd."""

    def __init__(self, base: float = 10.0) -> None:
        super().__init__(base, labelOnlyBase=False)
        self._crowded = False
        self._extents: dict[tuple[str, int, bool], float] = {}
        """Measured label extents by (label, font, axis direction): the same labels come
        back in every layout iteration, at other positions but in the same font."""

    def set_locs(self, locs: Sequence[float] | None = None) -> None:
        self._crowded = False
        super().set_locs(locs)
        axis = self.axis
        if locs is None or not isinstance(axis, Axis):
            return
        minor = [(v, label) for v in locs if (label := self(v))]
        self._crowded = bool(minor) and not _labels_fit(axis, minor, self._extents)

    def __call__(self, x: float, pos: int | None = None) -> str:
        # Crowded: no minor label at all, as NullFormatter (minor ticks of a short range sit
        # at 12, 14, ... too, which the default labels whatever the subset of coefficients).
        return "" if self._crowded else super().__call__(x, pos)


def _labels_fit(
    axis: Axis, minor: list[tuple[float, str]], extents: dict[tuple[str, int, bool], float]
) -> bool:
    """Whether the major and these minor labels, placed on ``axis`` now, leave each other room."""
    major_locs = list(axis.get_majorticklocs())
    major = zip(major_locs, axis.get_major_formatter().format_ticks(major_locs), strict=True)
    low, high = sorted(axis.get_view_interval())
    tolerance = 1e-9 * (high - low)
    labels = [(v, s) for v, s in (*major, *minor) if s and low - tolerance <= v <= high + tolerance]
    if len(labels) < 2 or not axis.majorTicks:
        return True
    horizontal = isinstance(axis, XAxis)
    fig = axis.get_figure(root=True)
    renderer = fig._get_renderer()  # type: ignore[union-attr]
    text = axis.majorTicks[0].label1
    places = np.array([v for v, _ in labels], dtype=float)
    transform = axis.axes.transData
    if horizontal:
        pixels = transform.transform(np.column_stack([places, np.ones_like(places)]))[:, 0]
    else:
        pixels = transform.transform(np.column_stack([np.ones_like(places), places]))[:, 1]
    font = hash(text.get_fontproperties())
    sizes = []
    for _, label in labels:
        key = (label, font, horizontal)
        if key not in extents:
            extents[key] = _extent(text, label, renderer, horizontal)
        sizes.append(extents[key])
    order = np.argsort(pixels)
    for i, j in zip(order[:-1], order[1:], strict=True):
        if pixels[j] - pixels[i] < (sizes[i] + sizes[j]) / 2:
            return False
    return True


def _extent(prototype: Text, label: str, renderer: RendererBase, horizontal: bool) -> float:
    """Width (x axis) or height (y axis) in pixels of ``label`` set like ``prototype``."""
    probe = Text(text=label, fontproperties=prototype.get_fontproperties())
    probe.set_figure(prototype.get_figure(root=True))  # type: ignore[arg-type]
    box = probe.get_window_extent(renderer)
    return float(box.width if horizontal else box.height)
