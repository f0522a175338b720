"""The plot-kind registry: each kind samples its data, draws itself and names its marks."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colorbar import Colorbar

from figgen.config import FigureConfig
from figgen.sample.text import Vocabulary
from figgen.spec import FigureStyle, PanelSpec, Scale


@dataclass
class Mark:
    """A data mark measured in display coordinates (origin bottom-left), before clipping."""

    kind: str
    box: tuple[float, float, float, float]
    value: list[float] | None = None
    series: int | None = None
    item: int | None = None
    axis: str | None = None
    text: str | None = None
    """The string drawn, for marks that are text (table cells, pie labels)."""


MarkProbe = Callable[[RendererBase], list[Mark]]


@dataclass
class Drawn:
    """What a kind left on its axes for the measuring step after the draw."""

    probes: list[MarkProbe] = field(default_factory=list)
    colorbar: Colorbar | None = None


@dataclass
class Sampled:
    params: dict[str, Any]
    data: dict[str, Any]
    style: dict[str, Any]
    xscale: Scale = "linear"
    yscale: Scale = "linear"


class PlotKind(Protocol):
    name: str

    def sample(
        self,
        rng: np.random.Generator,
        cfg: FigureConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        """Draw the panel's numbers, generating parameters and look."""

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        """Plot the panel's data on ``ax`` and return probes that box the marks."""


KINDS: dict[str, PlotKind] = {}


def register(kind: PlotKind) -> PlotKind:
    KINDS[kind.name] = kind
    return kind


def random_color(rng: np.random.Generator, *, dark: bool) -> str:
    """A saturated colour that stands out on the background (light or dark)."""
    import colorsys

    hue = rng.random()
    sat = rng.uniform(0.45, 1.0)
    val = rng.uniform(0.65, 1.0) if dark else rng.uniform(0.3, 0.8)
    r, g, b = colorsys.hsv_to_rgb(hue, sat, val)
    return f"#{round(r * 255):02x}{round(g * 255):02x}{round(b * 255):02x}"


LEGEND_LOCATIONS: tuple[str, ...] = (
    "upper right",
    "upper left",
    "lower left",
    "lower right",
    "center right",
    "upper center",
)

COLORMAPS: tuple[str, ...] = (
    "viridis",
    "plasma",
    "inferno",
    "magma",
    "cividis",
    "coolwarm",
    "RdBu_r",
    "Spectral",
    "jet",
    "rainbow",
    "turbo",
    "cubehelix",
    "terrain",
    "ocean",
    "YlGnBu",
    "PuOr",
    "BrBG",
    "Blues",
    "Greens",
    "Reds",
    "hot",
    "copper",
    "twilight",
    "gnuplot2",
    "nipy_spectral",
)
