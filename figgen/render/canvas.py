"""Build a matplotlib Figure from a spec (object API on the Agg canvas) and encode its PNG."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import matplotlib as mpl
import matplotlib.style
import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.ticker import LogFormatterSciNotation, LogLocator, NullFormatter

from figgen.config.sections.shared import FontConfig
from figgen.kinds import KINDS, Drawn
from figgen.kinds.shared.ticks import FittingLocator
from figgen.render.frame import lower_background_frame
from figgen.render.legend_place import LegendPlacer
from figgen.render.log_labels import FittingLogFormatter
from figgen.render.png import PngSettings, encode_rgba
from figgen.render.visibility import PanelSnapshot, attach_snapshot
from figgen.schema.spec import FigureSpec, FigureStyle


@dataclass
class PanelHandles:
    index: int
    ax: Axes
    drawn: Drawn
    legend_placer: LegendPlacer | None = None
    snapshot: PanelSnapshot | None = None


@contextmanager
def style_context(style: FigureStyle) -> Iterator[None]:
    """Apply the figure's style sheet and fonts for building, drawing and measuring.

    Tick labels are created at draw time from rcParams, so the whole render must run inside.
    """
    with mpl.rc_context():
        matplotlib.style.use(style.mpl_style)
        mpl.rcParams.update(
            {
                "font.family": [style.font_family],
                "mathtext.fontset": style.mathtext_fontset,
                "axes.formatter.use_mathtext": style.font_family == "cmr10",  # cmr10 lacks a minus
                "axes.unicode_minus": style.font_family != "cmr10",
                "xtick.labelsize": style.sizes.tick,
                "ytick.labelsize": style.sizes.tick,
                "axes.titlesize": style.sizes.title,
                "axes.labelsize": style.sizes.label,
                "legend.fontsize": style.sizes.legend,
                "figure.constrained_layout.w_pad": style.wspace,
                "figure.constrained_layout.h_pad": style.hspace,
            }
        )
        yield


def build_figure(spec: FigureSpec) -> tuple[Figure, list[PanelHandles]]:
    """Create the figure and draw every panel's artists (no rasterisation yet)."""
    fig = Figure(figsize=(spec.width_in, spec.height_in), dpi=spec.dpi, layout="constrained")
    FigureCanvasAgg(fig)
    grid = fig.add_gridspec(spec.layout.rows, spec.layout.cols)
    sizes = spec.style.sizes
    handles = []
    for panel in spec.panels:
        ax = fig.add_subplot(grid[panel.row, panel.col])
        ax.set_xscale(panel.xscale)
        ax.set_yscale(panel.yscale)
        drawn = KINDS[panel.kind].draw(ax, panel, spec.style)
        if panel.title:
            ax.set_title(panel.title, fontsize=sizes.title, pad=spec.style.title_pad)
        if panel.xlabel:
            ax.set_xlabel(panel.xlabel, fontsize=sizes.label)
        if panel.ylabel:
            ax.set_ylabel(panel.ylabel, fontsize=sizes.label)
        ax.tick_params(labelsize=sizes.tick)
        categories = KINDS[panel.kind].category_axis(panel)
        for axis, key in ((ax.xaxis, "x_nbins"), (ax.yaxis, "y_nbins")):
            if key[0] in (categories or ""):
                continue  # one tick per category, set by the kind
            if panel.style.get(f"{key[0]}_minor_labels") is False:
                axis.set_minor_formatter(NullFormatter())
            elif type(axis.get_minor_formatter()) is LogFormatterSciNotation:
                base = getattr(axis.get_transform(), "base", 10.0)
                axis.set_minor_formatter(FittingLogFormatter(base))
            nbins = panel.style.get(key)
            if axis.get_scale() == "log":
                if nbins:
                    axis.set_major_locator(LogLocator(numticks=nbins + 1))
            else:
                axis.set_major_locator(FittingLocator(sizes.tick, spec.dpi, nbins=nbins))
        handles.append(_watch(PanelHandles(panel.index, ax, drawn)))
    return fig, handles


def _watch(handles: PanelHandles) -> PanelHandles:
    """Hook what the one draw must do besides drawing: move a movable legend off the data and
    copy the panel's pixels before anything is drawn over its marks."""
    ax, drawn = handles.ax, handles.drawn
    lower_background_frame(ax)
    if drawn.movable_legend is not None:
        legend, preferred = drawn.movable_legend
        handles.legend_placer = LegendPlacer(ax, legend, drawn.probes, preferred)
        ax.add_artist(handles.legend_placer)
    handles.snapshot = attach_snapshot(ax)
    return handles


def encode_png(fig: Figure, settings: PngSettings) -> bytes:
    """PNG bytes of the canvas as last drawn (identical pixels to ``savefig`` at this dpi)."""
    canvas = fig.canvas
    assert isinstance(canvas, FigureCanvasAgg)
    return encode_rgba(np.asarray(canvas.buffer_rgba()), settings)


def warm_fonts() -> None:
    """Load every default font family and mathtext font set once, in this process.

    matplotlib loads a font file, and builds a mathtext font set, the first time a figure
    uses it, and keeps it for the process. A process that will fork workers calls this
    first, so the workers share the loaded fonts instead of each loading them again. Caches
    only: nothing drawn later changes.
    """
    fonts = FontConfig()
    for family in fonts.families:
        for fontset in fonts.mathtext_fontsets:
            with mpl.rc_context({"font.family": [family], "mathtext.fontset": fontset}):
                fig = Figure(figsize=(1, 1), dpi=50)
                FigureCanvasAgg(fig)
                fig.text(0.1, 0.5, "Ag 1.5 $x_i^2 \\alpha$")
                fig.canvas.draw()
