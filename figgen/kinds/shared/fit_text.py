"""Texts a kind prints inside its marks (heatmap cells, map regions), fitted at draw time.

Whether a label fits its cell or region depends on pixel sizes that only exist once the layout
engine has placed the axes. A :class:`TextFitter` is an artist drawn just before the texts (the
way :class:`figgen.render.legend_place.LegendPlacer` is drawn just before the legend): it
shrinks or hides them then, in the one draw, so the record measures exactly what is printed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from matplotlib.artist import Artist
from matplotlib.backend_bases import RendererBase
from matplotlib.path import Path
from matplotlib.text import Text

BEFORE_TEXT = 0.01
MARGIN_PX = 1.0
"""Room kept between a text's box and the edge of the region that holds it."""
FILL = 0.85
"""A shrunk text spans at most this share of its cell's width and height (a text touching the
cell's edges reads as part of the next)."""


class TextFitter(Artist):
    """Fits ``texts`` into their rooms at draw time.

    ``mode="shrink"``: every text takes one common font size, the largest (up to the sampled
    size) at which each fits its box from ``rooms``; below ``min_size`` points all are hidden.
    ``mode="inside"``: each text keeps its size and is shown only where its box lies inside the
    closed paths ``rooms`` gives for it (a region's rings, in display coordinates).
    """

    def __init__(
        self,
        texts: list[Text],
        rooms: Callable[[int], list[Path]],
        *,
        mode: str,
        size: float,
        min_size: float = 0.0,
    ) -> None:
        super().__init__()
        self.set_zorder(min(t.get_zorder() for t in texts) - BEFORE_TEXT if texts else 3.0)
        self.set_in_layout(False)
        self._texts, self._rooms, self._mode = texts, rooms, mode
        self._size, self._min_size = size, min_size

    def draw(self, renderer: RendererBase) -> None:
        if self._mode == "shrink":
            self._shrink(renderer)
        else:
            for i, text in enumerate(self._texts):
                text.set_visible(True)
                text.set_visible(_inside(text, self._rooms(i), renderer))

    def _shrink(self, renderer: RendererBase) -> None:
        scale = 1.0
        for i, text in enumerate(self._texts):
            text.set_visible(True)
            text.set_fontsize(self._size)
            box = text.get_window_extent(renderer)
            room = self._rooms(i)[0].get_extents()
            width, height = max(box.width, 1e-9), max(box.height, 1e-9)
            scale = min(scale, FILL * room.width / width, FILL * room.height / height)
        size = self._size * scale
        for text in self._texts:
            text.set_fontsize(size)
            text.set_visible(size >= self._min_size)


def _inside(text: Text, rings: list[Path], renderer: RendererBase) -> bool:
    box = text.get_window_extent(renderer).padded(MARGIN_PX)
    corners = np.array(
        [
            [box.x0, box.y0],
            [box.x1, box.y0],
            [box.x0, box.y1],
            [box.x1, box.y1],
            [(box.x0 + box.x1) / 2, box.y0],
            [(box.x0 + box.x1) / 2, box.y1],
        ]
    )
    return any(bool(ring.contains_points(corners).all()) for ring in rings)


def text_colour(fill: np.ndarray | tuple[float, ...]) -> str:
    """Black on a light fill, white on a dark one (relative luminance below 0.5)."""
    r, g, b = (float(v) for v in fill[:3])
    return "white" if 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5 else "black"
