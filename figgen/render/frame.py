"""A panel's background and frame (spines): what the record says about them, and keeping a
frame that only hides data from being drawn over the data."""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.colors import to_hex, to_rgba
from matplotlib.spines import Spine

FRAME_UNDER_DATA = 0.4
"""Where a background-coloured frame is drawn: below the grid (0.5 or more) and every mark."""
SAME_COLOUR = 0.02
"""Colours closer than this in every channel (0..1) look the same."""


def lower_background_frame(ax: Axes) -> None:
    """Draw the frame under the data where it has the background's colour.

    Such a frame (fivethirtyeight's 3 pt band, Solarize_Light2's) is invisible as a line and
    only covers the marks along the edges, e.g. the bottom of every histogram bar.
    """
    face = np.asarray(to_rgba(ax.patch.get_facecolor()))
    for spine in ax.spines.values():
        edge = np.asarray(to_rgba(spine.get_edgecolor()))
        if np.abs(edge[:3] - face[:3]).max() < SAME_COLOUR:
            spine.set_zorder(FRAME_UNDER_DATA)


def _drawn_spines(ax: Axes) -> list[tuple[str, Spine]]:
    if not (ax.axison and ax.get_frame_on()):
        return []
    return [
        (name, spine)
        for name, spine in ax.spines.items()
        if spine.get_visible() and spine.get_linewidth() > 0
    ]


def frame_facts(ax: Axes) -> dict[str, Any]:
    """The record's ``frame`` of a panel: colour, width in pixels, drawn sides, over the data."""
    drawn = _drawn_spines(ax)
    if not drawn:
        return {"color": None, "width": 0.0, "sides": [], "over_data": False}
    first = drawn[0][1]
    return {
        "color": to_hex(first.get_edgecolor()),
        "width": round(first.get_linewidth() * ax.figure.dpi / 72, 2),
        "sides": [name for name, _ in drawn],
        "over_data": bool(first.get_zorder() > FRAME_UNDER_DATA),
    }


def frame_inset(ax: Axes) -> float:
    """How far in from the panel's edge the frame and inward ticks drawn over the data may ink,
    in pixels (0 where no frame is drawn over the data)."""
    drawn = [spine for _, spine in _drawn_spines(ax) if spine.get_zorder() > FRAME_UNDER_DATA]
    if not drawn:
        return 0.0
    dpi = ax.figure.dpi
    inward = 0.0
    for axis in (ax.xaxis, ax.yaxis):
        tick = axis.majorTicks[0]  # the ticks drawn exist; asking for them again re-locates
        if tick.tick1line.get_visible() and tick.get_tickdir() != "out":
            inward = max(inward, tick.tick1line.get_markersize() * dpi / 72)
    widest = max(spine.get_linewidth() for spine in drawn) * dpi / 72
    return widest / 2 + inward + 1.0
