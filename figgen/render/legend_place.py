"""Put a panel's legend where it covers no data, at draw time, when such a spot exists.

Matplotlib's ``loc="best"`` counts line vertices under the legend and keeps the least bad spot;
it ignores marker and error-bar sizes and never says whether the spot it found is free. The
:class:`LegendPlacer` hook is drawn just before the legend, after the layout engine has fixed
every position: it boxes the panel's marks with the kind's own probes, tries the preferred
location first and then every other inside location, and keeps the first that covers nothing
(else the one that covers least; the visibility fields then record what it hides).
"""

from __future__ import annotations

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.legend import Legend
from matplotlib.transforms import Bbox
from matplotlib.typing import LegendLocType

from figgen.kinds.api import MarkProbe

LOCATIONS: tuple[LegendLocType, ...] = (
    "upper right",
    "upper left",
    "lower left",
    "lower right",
    "center right",
    "center left",
    "upper center",
    "lower center",
    "center",
)
"""Inside locations, in the order they are tried after the preferred one."""
BEFORE_LEGEND = 1e-3


class LegendPlacer(Artist):
    """Moves ``legend`` to the first location where it covers none of the panel's marks."""

    def __init__(
        self, ax: Axes, legend: Legend, probes: list[MarkProbe], preferred: LegendLocType
    ) -> None:
        super().__init__()
        self.set_zorder(legend.get_zorder() - BEFORE_LEGEND)
        self.set_in_layout(False)
        self._ax, self._legend, self._probes = ax, legend, probes
        self._order = (preferred, *(loc for loc in LOCATIONS if loc != preferred))
        self.chosen: LegendLocType = preferred
        self.covered: float = 0.0
        """What the chosen spot covers: mark box area plus line length under it (pixels)."""

    def draw(self, renderer: RendererBase) -> None:
        boxes = np.array(
            [m.box for probe in self._probes for m in probe(renderer) if m.kind != "line"],
            dtype=float,
        ).reshape(-1, 4)
        boxes = boxes[np.isfinite(boxes).all(axis=1)]
        strokes = _line_samples(self._ax)
        best: tuple[float, LegendLocType] | None = None
        for loc in self._order:
            self._legend.set_loc(loc)
            cost = _covered(self._legend.get_window_extent(renderer), boxes, strokes)
            if best is None or cost < best[0]:
                best = (cost, loc)
            if cost == 0:
                break
        assert best is not None
        self.covered, self.chosen = best
        self._legend.set_loc(self.chosen)


def _covered(legend: Bbox, boxes: np.ndarray, strokes: list[tuple[np.ndarray, float]]) -> float:
    """Area of mark boxes plus length of drawn line (1 px samples) inside the legend box."""
    x0, y0, x1, y1 = legend.x0, legend.y0, legend.x1, legend.y1
    lo_x, hi_x = np.minimum(boxes[:, 0], boxes[:, 2]), np.maximum(boxes[:, 0], boxes[:, 2])
    lo_y, hi_y = np.minimum(boxes[:, 1], boxes[:, 3]), np.maximum(boxes[:, 1], boxes[:, 3])
    width = np.clip(np.minimum(hi_x, x1) - np.maximum(lo_x, x0), 0, None)
    height = np.clip(np.minimum(hi_y, y1) - np.maximum(lo_y, y0), 0, None)
    total = float((width * height).sum())
    for points, half in strokes:
        px, py = points[:, 0], points[:, 1]
        under = (px > x0 - half) & (px < x1 + half) & (py > y0 - half) & (py < y1 + half)
        total += float(under.sum())
    return total


def _line_samples(ax: Axes) -> list[tuple[np.ndarray, float]]:
    """Points every pixel along each drawn line of the panel (display coordinates), with the
    line's half width."""
    dpi = ax.figure.dpi
    out = []
    for line in ax.get_lines():
        if not line.get_visible() or line.get_linestyle() in ("None", "", " "):
            continue
        xy = np.asarray(line.get_transform().transform(line.get_xydata()), dtype=float)
        xy = xy[np.isfinite(xy).all(axis=1)]
        if len(xy) < 2:
            continue
        along = np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(xy, axis=0).T))])
        steps = np.arange(0.0, along[-1] + 1.0, 1.0)
        points = np.column_stack(
            [np.interp(steps, along, xy[:, 0]), np.interp(steps, along, xy[:, 1])]
        )
        out.append((points, line.get_linewidth() * dpi / 72 / 2))
    return out
