"""A tick locator that keeps as many nice ticks as the axis can show without crowding."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axis import Axis, XAxis
from matplotlib.ticker import MaxNLocator

# Advance of a tick-label glyph and the gap between labels, in ems of the label font.
_CHAR_EM = 0.64
_GAP_EM = 1.0
_LINE_EM = 1.25


class FittingLocator(MaxNLocator):
    """MaxNLocator that lowers its bin count until the formatted labels fit the axis.

    Matplotlib's AutoLocator budgets about three characters per label; scientific values
    such as ``-12500`` are wider, and large tick fonts make them crowd. Fitting here, during
    the one layout pass, spares a repair pass for the most common overlap.
    """

    def __init__(self, fontsize: float, dpi: float, *, nbins: int | None = None) -> None:
        super().__init__(nbins=nbins or "auto", steps=[1, 2, 2.5, 5, 10])
        self._em = fontsize * dpi / 72.0
        self._cap = nbins

    def tick_values(self, vmin: float, vmax: float) -> Sequence[float]:
        axis = self.axis
        if not isinstance(axis, Axis) or axis.axes is None:
            return super().tick_values(vmin, vmax)
        horizontal = isinstance(axis, XAxis)
        box = axis.axes.bbox
        length = box.width if horizontal else box.height
        start = self._cap or max(1, axis.get_tick_space())
        low, high = min(vmin, vmax), max(vmin, vmax)
        tolerance = 1e-9 * (high - low)
        locs = np.asarray(super().tick_values(vmin, vmax))
        for nbins in range(start, 0, -1):
            self.set_params(nbins=nbins)
            locs = np.asarray(super().tick_values(vmin, vmax))
            shown = locs[(locs >= low - tolerance) & (locs <= high + tolerance)]
            if self._fits(axis, shown, length, horizontal):
                break
        self.set_params(nbins=self._cap or "auto")
        return locs  # type: ignore[return-value]

    def _fits(self, axis: Axis, shown: np.ndarray, length: float, horizontal: bool) -> bool:
        if len(shown) <= 1:
            return True
        if horizontal:
            labels = axis.get_major_formatter().format_ticks(list(shown))
            widths = [len(label.replace("$", "")) * _CHAR_EM for label in labels]
            needed = (max(widths) + _GAP_EM) * len(shown)
        else:
            needed = (_LINE_EM + _GAP_EM * 0.5) * len(shown)
        return needed * self._em <= length
