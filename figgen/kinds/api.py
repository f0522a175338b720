"""The plot-kind registry: each kind samples its data, draws itself, names its marks and asks
its own questions.

A kind is one module: generation (``sample``, ``draw``) and questions (``noun``, ``families``,
``panel_questions``, ``describe`` and the small facts the shared families need). The shared
families (plot type, titles, axis scales, ticks, cross-panel comparisons) live in
:mod:`figgen.vqa` and call these hooks, so nothing outside the kind's module names the kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colorbar import Colorbar
from matplotlib.legend import Legend
from matplotlib.typing import LegendLocType

from figgen._util.registry import Registry
from figgen.config.sections.fields import Section
from figgen.sample.text import Vocabulary
from figgen.schema.elements import Element, ElementDecl
from figgen.schema.longchart import Chart, ChartPanel, ReadValue, Shape, Summary
from figgen.schema.panel import PanelData as PanelData
from figgen.schema.panel import PanelRecord
from figgen.schema.spec import FigureStyle, PanelSpec, Scale
from figgen.schema.truth_table import PanelTable

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.elements import Element
    from figgen.schema.qa_item import Level
    from figgen.schema.record import Record
    from figgen.vqa.api.context import FigureContext
    from figgen.vqa.api.families import Family
    from figgen.vqa.api.reading.trends import PointSet

Axis = Literal["x", "y"]
CategoryAxes = Literal["x", "y", "xy"]
"""The axes whose ticks name categories: one, or both ("xy", a heatmap's rows and columns)."""
RGBA = tuple[float, float, float, float]


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
    color: RGBA | None = None
    """The colour the mark was drawn in (its fill, or its stroke where it has no fill): what
    the visibility measurement looks for in the raster. None: not measured."""
    edge: RGBA | None = None
    """The colour of its outline where that is drawn in a colour of its own (histogram and bar
    outlines): its ink too. None: no outline, or one that is not the mark's alone."""
    empty: bool = False
    """Drawn with no extent (an empty histogram bin): boxed as a zero-height line."""


MarkProbe = Callable[[RendererBase], list[Mark]]


@dataclass
class Drawn:
    """What a kind left on its axes for the measuring step after the draw."""

    probes: list[MarkProbe] = field(default_factory=list)
    colorbar: Colorbar | None = None
    movable_legend: tuple[Legend, LegendLocType] | None = None
    """A legend inside the axes and its preferred location: the renderer moves it, at draw
    time, to a location where it covers no mark when there is one."""


@dataclass
class Sampled:
    params: dict[str, Any]
    data: dict[str, Any]
    style: dict[str, Any]
    xscale: Scale = "linear"
    yscale: Scale = "linear"


class PlotKind(Protocol):
    name: str
    noun: str
    """How questions name a panel of this kind ("bar chart"); plural adds an "s"."""
    default_weight: float
    """Weight in the default kind mix; 0 makes the kind opt-in through ``kinds`` in the config."""

    @property
    def families(self) -> tuple[Family, ...]:
        """The families this kind's hooks ask (the ``kinds`` column of the family table)."""

    @property
    def elements(self) -> tuple[ElementDecl, ...]:
        """The element kinds it draws as data (marks, and texts such as pie labels): their box
        colour, whether they carry text, and how evidence regions group them."""

    @property
    def chart_table(self) -> PanelTable | None:
        """Reads a panel's ground-truth ``(series, x, y)`` table for ``figgen density``; None:
        the kind's panels are no source charts."""

    @property
    def density_rule(self) -> str | None:
        """How a chart of this kind reads as the density prompt's table, one list item
        (``- Box plot: ...``); None where the paper's prompt says it (line and bar charts)."""

    @property
    def multichart_charts(self) -> tuple[str, ...]:
        """The LongChart image kinds (``kind`` of an image node) it draws, e.g. bar and
        stacked_bar; empty: none."""

    @property
    def multichart_ordered(self) -> bool:
        """Whether its LongChart image shows which index label holds which value (a histogram
        shows the values only, so its input feeds only order-free statistics)."""

    @property
    def multichart_statistics(self) -> tuple[Summary, ...]:
        """The statistics of each input its LongChart image shows instead of the input (a box:
        median and quartiles); ``multichart_read`` then gives each input's statistics in this
        order and ``shows_input`` takes their positions as ``items``. Empty: it shows its inputs."""

    @property
    def config(self) -> type[Section]:
        """The kind's config section, read and validated under the kind's name."""

    def sample(
        self,
        rng: np.random.Generator,
        cfg: SharedConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        """Draw the panel's numbers, generating parameters and look."""

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        """Plot the panel's data on ``ax`` and return probes that box the marks."""

    def fit_cell(self, panel: PanelSpec, cell_pt: tuple[float, float], style: FigureStyle) -> None:
        """Shrink the sampled panel to what its grid cell (width, height in points) can print."""

    def category_axis(self, panel: PanelSpec) -> CategoryAxes | None:
        """The axes whose ticks name categories (fixed by the kind, never thinned), if any."""

    @property
    def value_axes(self) -> tuple[Axis, ...]:
        """The axes whose scale (linear or logarithmic) a reader can see and is asked."""

    @property
    def draws_axes(self) -> bool:
        """Whether the panel draws axes; without them it gets no axis labels (maps)."""

    def panel_questions(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
        """Ask this kind's own panel-scope questions of ``level`` about a stored panel."""

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        """This kind's sentences of a panel description at ``level``."""

    def error_bars(self, panel: PanelRecord) -> tuple[bool, bool] | None:
        """Whether x and y error bars are drawn; None where the question does not apply."""

    def shown_colormap(self, panel: PanelRecord) -> str | None:
        """The colormap a reader can identify in the panel, if any."""

    def point_sets(self, panel: PanelRecord) -> list[PointSet]:
        """The panel's sets of (x, y) points with a trend to judge (empty if none)."""

    def mean_and_span(self, panel: PanelRecord) -> tuple[float, float, str] | None:
        """For "which panel has the largest mean": (mean, value span, value-axis scale)."""

    @property
    def mean_phrase(self) -> str | None:
        """What "the mean of ..." means for this kind in cross-panel questions, if asked."""

    @property
    def compares_fit(self) -> bool:
        """Whether "which panel is the most linear" compares panels of this kind."""

    def multichart_refusal(self, chart: str, inputs: list[Shape]) -> str | None:
        """Why an image ``chart`` cannot show inputs of these shapes ("shows exactly one
        vector"); None when it can."""

    def multichart_value_refusal(self, chart: Chart) -> str | None:
        """Why these values cannot be drawn as the chart reads them (a range's low end above
        its high end); None when they can. The set's values are drawn again."""

    def multichart_panel(self, chart: Chart) -> ChartPanel:
        """The panel that draws a LongChart image of one of ``multichart_charts``."""

    def multichart_read(self, record: Record, chart: Chart) -> list[ReadValue]:
        """The image's inputs' values as its record shows them (printed text where printed)."""

    def shows_input(self, element: Element, series: int, items: set[int]) -> bool:
        """Whether a drawn element shows items ``items`` of the input drawn as ``series``."""


class KindHooks:
    """Defaults for the declarations and the question-side hooks: a kind overrides what it
    has to say."""

    families: tuple[Family, ...] = ()
    default_weight: float = 1.0
    mean_phrase: str | None = None
    compares_fit: bool = False
    value_axes: tuple[Axis, ...] = ("x", "y")
    draws_axes: bool = True
    elements: tuple[ElementDecl, ...] = ()
    chart_table: PanelTable | None = None
    density_rule: str | None = None
    multichart_charts: tuple[str, ...] = ()
    multichart_ordered: bool = True
    multichart_statistics: tuple[Summary, ...] = ()

    def category_axis(self, panel: PanelSpec) -> CategoryAxes | None:
        return None

    def fit_cell(self, panel: PanelSpec, cell_pt: tuple[float, float], style: FigureStyle) -> None:
        return None

    def panel_questions(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
        return None

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        return []

    def error_bars(self, panel: PanelRecord) -> tuple[bool, bool] | None:
        return None

    def shown_colormap(self, panel: PanelRecord) -> str | None:
        return None

    def point_sets(self, panel: PanelRecord) -> list[PointSet]:
        return []

    def mean_and_span(self, panel: PanelRecord) -> tuple[float, float, str] | None:
        return None

    def multichart_refusal(self, chart: str, inputs: list[Shape]) -> str | None:
        return None

    def multichart_value_refusal(self, chart: Chart) -> str | None:
        return None

    def multichart_panel(self, chart: Chart) -> ChartPanel:
        raise NotImplementedError(f"{type(self).__name__} draws no LongChart image")

    def multichart_read(self, record: Record, chart: Chart) -> list[ReadValue]:
        raise NotImplementedError(f"{type(self).__name__} draws no LongChart image")

    def shows_input(self, element: Element, series: int, items: set[int]) -> bool:
        return False


KINDS: Registry[PlotKind] = Registry("plot kind")


def register(kind: PlotKind) -> PlotKind:
    return KINDS.add(kind.name, kind)


def default_mix() -> dict[str, float]:
    """The default kind weights: every registered kind, opt-in kinds at weight 0."""
    return {name: kind.default_weight for name, kind in KINDS.items()}


def noun(kind: str) -> str:
    """The noun of a registered kind; an unknown kind is named by its own name."""
    registered = KINDS.get(kind)
    return registered.noun if registered is not None else kind


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
