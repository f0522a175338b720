"""Colorbars placed right, left, top or bottom of a panel, with an optional label."""

from __future__ import annotations

from typing import Protocol

from matplotlib.axes import Axes
from matplotlib.cm import ScalarMappable
from matplotlib.colorbar import Colorbar

from figgen.kinds.shared.ticks import FittingLocator
from figgen.schema.spec import FigureStyle


def add_colorbar(
    ax: Axes,
    mappable: ScalarMappable,
    location: str | None,
    label: str | None,
    style: FigureStyle,
    *,
    nbins: int | None = None,
) -> Colorbar | None:
    if location is None:
        return None
    fig = ax.get_figure()
    assert fig is not None
    cbar = fig.colorbar(mappable, ax=ax, location=location, fraction=0.08, pad=0.03)
    cbar.ax.tick_params(labelsize=style.sizes.colorbar)
    cbar.locator = FittingLocator(style.sizes.colorbar, ax.figure.dpi, nbins=nbins)
    if label:
        cbar.set_label(label, fontsize=style.sizes.colorbar)
    return cbar


class ColorbarLook(Protocol):
    """A style with a colormap and an optional colour bar (heatmaps, maps)."""

    @property
    def colormap(self) -> str | None: ...

    @property
    def colorbar(self) -> str | None: ...


def colorbar_colormap(style: ColorbarLook) -> str | None:
    """The colormap a reader can name: the one a colour bar shows (cells alone do not tell
    one map from another)."""
    return str(style.colormap) if style.colorbar else None
