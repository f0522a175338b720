"""Contour plots: a 2-D field drawn as filled image, lines, or both, with 3-10 levels.

``data`` holds the grid axes ``x, y``, the field ``z`` (rows follow y), and ``levels`` (the
line levels; filled bands run between ``[min z] + levels + [max z]``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from pydantic import Field

from figgen.config.sections.fields import IntRange, Probability, Section, Weights, one_of, within
from figgen.kinds.api import COLORMAPS, Drawn, KindHooks, Mark, Sampled, random_color, register
from figgen.kinds.scatter import ScatterConfig
from figgen.kinds.shared.colorbar import add_colorbar
from figgen.kinds.shared.marks import path_extent_marks
from figgen.sample.rng import choose, integer, sig, uniform
from figgen.sample.text import Vocabulary, colorbar_label
from figgen.schema.elements import mark
from figgen.schema.panel import PanelData, PanelRecord, PanelStyle, panel_data, panel_style
from figgen.schema.spec import FigureStyle, PanelSpec
from figgen.vqa.api.families import COLORMAP, MEAN_Y, X_RANGE, Balance, declare
from figgen.vqa.api.findings import Finding, ask_findings
from figgen.vqa.api.point_questions import range_question
from figgen.vqa.api.reading import contour_trends, hedges
from figgen.vqa.api.reading.readout import (
    AxisReading,
    axis_reading,
    axis_unit,
    nice_step,
    resolution_for,
)
from figgen.words.colormap_words import colormap_sentence
from figgen.words.numerals import round_sig
from figgen.words.wording import count, has

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.qa_item import Level
    from figgen.vqa.api.context import FigureContext


_Z = (
    "in {loc}, what is the %s value of the quantity shown by the filled contours, read on the "
    "colour bar?"
)
# fmt: off
CONTOUR_STYLE = declare(
    "contour_style", 1, "panel", "choice", "exact",
    "how is the contour plot in {loc} drawn: as a filled colour image without contour lines "
    "(image), as contour lines only (lines), or as a filled image with contour lines on top "
    "(both)?",
)
MIN_Z = declare("min_z", 2, "panel", "number", "ssmape", _Z % "smallest")
MAX_Z = declare("max_z", 2, "panel", "number", "ssmape", _Z % "largest")
N_PEAKS = declare(
    "n_peaks", 3, "panel", "integer", "exact",
    "how many separate peaks (local maxima of the contoured quantity) does {loc} show? Use the "
    "colour bar to tell high values from low ones.", is_count=True,
    balance=Balance(0.5, {"1": 0.5}),
)
GRADIENT_DIRECTION = declare(
    "gradient_direction", 3, "panel", "choice", "exact",
    "in {loc}, in which direction do the values of the contoured quantity increase (use the "
    "colour bar)?",
)
# fmt: on
CONTOUR_STYLES = ["image", "lines", "both"]
MAX_NAMED_PEAKS = 5
"""More drawn maxima than this read as a patchy field, not as peaks."""
PATCHY = 120
"""A smoothed field with more local maxima than this is patchy: its peaks are not counted
(pairwise, which is quadratic in the maxima)."""
DIRECTION_CHOICES = ["left to right", "right to left", "bottom to top", "top to bottom"]


@panel_data("contour")
@dataclass
class ContourData(PanelData):
    """A contour panel's ``data``: grid axes, the field, its levels and any source samples."""

    x: list[float]
    y: list[float]
    z: list[list[float]]
    levels: list[float] = field(default_factory=list)
    samples_x: list[float] | None = None
    samples_y: list[float] | None = None


@panel_style("contour")
@dataclass
class ContourStyle(PanelStyle):
    """A contour panel's look: filled image, lines or both; colormap, line colour and width
    (lines without a colormap), colour bar."""

    contour_style: str | None = None
    """"image", "lines" or "both"."""
    colormap: str | None = None
    line_color: str = "black"
    linewidth: float = 1.0
    colorbar: str | None = None
    colorbar_label: str | None = None
    labels_inline: bool = False

    @property
    def filled(self) -> bool:
        """Whether filled bands are drawn (the image styles)."""
        return self.contour_style in ("image", "both")


class ContourConfig(Section):
    levels: Annotated[IntRange, within(2, 30)] = (3, 10)
    grid: Annotated[IntRange, within(10, 200)] = (30, 60)
    style: Annotated[Weights, one_of("contour style", ("image", "lines", "both"))] = Field(
        default_factory=lambda: {"image": 1.0, "lines": 1.0, "both": 1.0}
    )
    clusters: Annotated[IntRange, within(1, 10)] = (1, 4)
    colorbar_p: Probability = 0.7


class ContourKind(KindHooks):
    name = "contour"
    families = (COLORMAP, CONTOUR_STYLE, MEAN_Y, X_RANGE, MIN_Z, MAX_Z, N_PEAKS, GRADIENT_DIRECTION)
    config = ContourConfig
    noun = "contour plot"
    elements = (
        mark("contour_level", "#00bfff", off_ink=True),
        mark("contour_band", "#4169e1", off_ink=True),
    )

    def sample(
        self,
        rng: np.random.Generator,
        cfg: SharedConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        cc, dc = cfg.section(self.name, ContourConfig), cfg.distributions
        nx, ny = integer(rng, cc.grid), integer(rng, cc.grid)
        xspan, yspan = uniform(rng, dc.x_span), uniform(rng, dc.x_span)
        x0, y0 = uniform(rng, (-xspan, xspan)), uniform(rng, (-yspan, yspan))
        x, y = np.linspace(x0, x0 + xspan, nx), np.linspace(y0, y0 + yspan, ny)
        u, v = np.meshgrid(np.linspace(0, 1, nx), np.linspace(0, 1, ny))
        noise = uniform(rng, dc.noise) * 0.3
        if distribution == "linear":
            a, b = rng.normal(size=2)
            scale, offset = uniform(rng, (1.0, 1000.0)), uniform(rng, dc.intercept)
            clean = offset + scale * (a * u + b * v)
            params = {
                "gradient": [a * scale, b * scale],
                "offset": offset,
                "noise": noise,
                "unit_square": True,
            }
        elif distribution == "gmm":
            k = integer(rng, cc.clusters)
            centres = rng.uniform(0.1, 0.9, (k, 2))
            widths = rng.uniform(0.06, 0.25, (k, 2))
            amps = rng.uniform(0.3, 1.0, k) * uniform(rng, (1.0, 1000.0))
            clean = sum(
                a * np.exp(-0.5 * (((u - c[0]) / w[0]) ** 2 + ((v - c[1]) / w[1]) ** 2))
                for a, c, w in zip(amps, centres, widths, strict=True)
            )
            params = {
                "components": k,
                "centres_unit": centres.tolist(),
                "widths_unit": widths.tolist(),
                "amplitudes": amps.tolist(),
                "noise": noise,
            }
        else:
            coarse = rng.normal(size=(integer(rng, (3, 7)), integer(rng, (3, 7))))
            clean = _upsample(coarse, ny, nx) * uniform(rng, (1.0, 1000.0))
            params = {"coarse_shape": list(coarse.shape), "noise": noise}
        z = clean + rng.normal(0.0, noise * (float(np.ptp(clean)) or 1.0), clean.shape)
        z = np.asarray(sig(z, 5))
        n_levels = integer(rng, cc.levels)
        levels = sig(np.linspace(z.min(), z.max(), n_levels + 2)[1:-1], 4)
        colormap = str(rng.choice(COLORMAPS)) if rng.random() < cfg.style.colormap_p else None
        contour_style = choose(rng, cc.style)
        colorbar = (
            # placed by the scatter section's weights, as before kinds owned their sections
            choose(rng, cfg.section("scatter", ScatterConfig).colorbar_location)
            if (colormap or contour_style != "lines") and rng.random() < cc.colorbar_p
            else None
        )
        data = ContourData(
            x=sig(x),
            y=sig(y),
            z=z.tolist(),
            levels=levels,
            samples_x=None,
            samples_y=None,
        )
        style = ContourStyle(
            contour_style=contour_style,
            colormap=colormap if colormap or contour_style == "lines" else "Greys",
            line_color=random_color(rng, dark=dark),
            linewidth=round(uniform(rng, (0.6, 2.0)), 2),
            colorbar=colorbar,
            colorbar_label=colorbar_label(rng, vocab, cfg.text) if colorbar else None,
            labels_inline=False,
        )
        return Sampled(params=params, data=data.to_dict(), style=style.to_dict())

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        st, d = ContourStyle.from_dict(panel.style), ContourData.from_dict(panel.data)
        x, y, z = np.asarray(d.x), np.asarray(d.y), np.asarray(d.z)
        levels = list(d.levels)
        filled = lines = None
        if st.filled:
            bounds = [float(z.min()), *levels, float(z.max())]
            filled = ax.contourf(x, y, z, levels=bounds, cmap=st.colormap)
        if st.contour_style in ("lines", "both"):
            line_kw: dict[str, Any] = (
                {"cmap": st.colormap}
                if st.colormap and filled is None
                else {"colors": st.line_color if filled is None else "k"}
            )
            lines = ax.contour(x, y, z, levels=levels, linewidths=st.linewidth, **line_kw)
        mappable = filled if filled is not None else lines
        cbar = (
            add_colorbar(
                ax,
                mappable,
                st.colorbar,
                st.colorbar_label,
                style,
                nbins=st.cbar_nbins,
            )
            if mappable is not None and st.colormap
            else None
        )

        def probe(renderer: RendererBase) -> list[Mark]:
            marks: list[Mark] = []
            if lines is not None:
                marks += path_extent_marks("contour_level", lines, filled=False)
                for mark in marks:
                    assert mark.item is not None
                    mark.value = [levels[mark.item]]
            if filled is not None:
                marks += path_extent_marks("contour_band", filled, filled=True)
            return marks

        return Drawn(probes=[probe], colorbar=cbar)

    def panel_questions(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
        style = panel.style_as(ContourStyle)
        fields = ctx.element_ids(panel.index, "contour_level", "contour_band")
        if level == 1:
            if style.contour_style in CONTOUR_STYLES:
                ctx.ask(
                    CONTOUR_STYLE,
                    panel,
                    style.contour_style,
                    choices=CONTOUR_STYLES,
                    evidence=fields,
                )
        elif level == 2:
            _values(ctx, panel, fields)
        else:
            evidence = ctx.element_ids(panel.index, "colorbar", "contour_level", "contour_band")
            ask_findings(ctx, panel, _findings(panel), evidence)

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        data, style = panel.data_as(ContourData), panel.style_as(ContourStyle)
        if level == 1:
            how = {
                "image": "a filled colour image",
                "lines": "contour lines",
                "both": "a filled colour image with contour lines",
            }.get(style.contour_style or "", "contours")
            levels = count(len(data.levels), "level")
            out = [f"It is drawn as {how} with {levels}."]
            if style.colormap:
                out.append(colormap_sentence(style.colormap))
            return out
        z = np.asarray(data.z, dtype=float)
        if level == 2:
            read_x = axis_reading(ctx, panel, "x", data.x)
            read_y = axis_reading(ctx, panel, "y", data.y)
            read_z = _value_reading(panel, z)
            # where the field peaks as seen: grid noise must not move the peak to an edge
            row, col = np.unravel_index(int(np.argmax(contour_trends.box_smooth(z))), z.shape)
            text = (
                f"The field covers x {read_x.span(min(data.x), max(data.x))} and y "
                f"{read_y.span(min(data.y), max(data.y))}; its values run "
                f"{read_z.span(float(z.min()), float(z.max()))}, highest near "
                f"x = {read_x.say(data.x[col])}, y = {read_y.say(data.y[row])}."
            )
            mean = contour_mean_y(panel)
            return [text] + ([f"Its mean y is {read_y.say(mean)}."] if mean is not None else [])
        return _field_sentences(panel, z)

    def shown_colormap(self, panel: PanelRecord) -> str | None:
        # only a filled contour shows its map: lines alone show too few colours to tell maps apart
        style = panel.style_as(ContourStyle)
        return style.colormap or None if style.filled else None


def _upsample(coarse: np.ndarray, rows: int, cols: int) -> np.ndarray:
    """Bilinear interpolation of a coarse grid onto rows x cols: a smooth random field."""
    r = np.linspace(0, coarse.shape[0] - 1, rows)
    c = np.linspace(0, coarse.shape[1] - 1, cols)
    along_cols = np.array([np.interp(c, np.arange(coarse.shape[1]), row) for row in coarse])
    return np.array([np.interp(r, np.arange(coarse.shape[0]), col) for col in along_cols.T]).T


def contour_mean_y(panel: PanelRecord) -> float | None:
    """The mean y of what a contour panel shows.

    Where the field was estimated from samples, the mean of those samples. For a field of
    Gaussian bumps (``gmm``), the y of its centre of mass (weights ``z - min(z)``), which is
    where the blobs sit. Planes and random fields have no such visible centre: None.
    """
    data = panel.data_as(ContourData)
    samples = data.samples_y
    if samples is not None and len(samples) > 0:
        return float(np.mean(samples))
    if panel.distribution != "gmm":
        return None
    z = np.asarray(data.z, dtype=float)
    weights = z - z.min()
    total = weights.sum()
    if total <= 0:
        return None
    y = np.asarray(data.y, dtype=float)
    return float((weights.sum(axis=1) * y).sum() / total)


def _findings(panel: PanelRecord) -> list[Finding]:
    out = []
    if (peaks := contour_trends.n_peaks(panel)) is not None:
        out.append(Finding(N_PEAKS, peaks, f"The field has {count(peaks, 'separate peak')}."))
    if (towards := contour_trends.gradient_direction(panel)) is not None:
        sentence = f"The values increase from {towards}."
        out.append(Finding(GRADIENT_DIRECTION, towards, sentence, DIRECTION_CHOICES))
    return out


def _value_reading(panel: PanelRecord, z: np.ndarray) -> AxisReading:
    """How the field's values are read: off the colour bar, whose ticks step like the levels."""
    label = panel.style_as(ContourStyle).colorbar_label
    return AxisReading(resolution_for(nice_step(float(np.ptp(z)))), axis_unit(label))


def _where(z: np.ndarray, pick: Callable[[np.ndarray], Any]) -> str:
    """ "the upper left", "the centre", ...: where in the panel ``pick`` (argmax) falls."""
    row, col = np.unravel_index(int(pick(contour_trends.box_smooth(z))), z.shape)
    rows, cols = z.shape
    vertical = ("lower", "middle", "upper")[min(int(3 * row / rows), 2)]
    horizontal = ("left", "middle", "right")[min(int(3 * col / cols), 2)]
    # each of the nine places is named so that no name contains another ("the right edge"
    # would also cover "the lower right"): corners, middles of edges, the centre
    if vertical == horizontal == "middle":
        return "the centre"
    if vertical == "middle":
        return f"the middle of the {horizontal} edge"
    if horizontal == "middle":
        return f"the middle of the {'top' if vertical == 'upper' else 'bottom'} edge"
    return f"the {vertical} {horizontal} corner"


def _field_sentences(panel: PanelRecord, z: np.ndarray) -> list[str]:
    """Level 3: the strict findings where they hold, else the drawn field with a hedge."""
    out = [found.sentence for found in _findings(panel)]
    if out:
        return out
    high, low = _where(z, np.argmax), _where(z, np.argmin)
    extremes = f"it is highest near {high}" + (f" and lowest near {low}" if low != high else "")
    plane = hedges.field_direction(panel)
    how = hedges.direction_words(plane[1]) if plane else None
    if plane and how:
        return [f"The values increase {how} from {plane[0]}; {extremes}."]
    peaks = contour_trends.field_peaks(panel, PATCHY)  # measured once, shared with the summary
    if peaks == 1:
        return [f"The field rises to a single peak; {extremes}."]
    if peaks is not None and 1 < peaks <= MAX_NAMED_PEAKS:
        return [f"The field shows possibly {count(peaks, 'separate peak')}; {extremes}."]
    return [f"The field is patchy, with {hedges.NO_TREND}; {extremes}."]


def _values(ctx: FigureContext, panel: PanelRecord, fields: list[int]) -> None:
    data, style = panel.data_as(ContourData), panel.style_as(ContourStyle)
    mean = contour_mean_y(panel)
    if mean is not None:
        what = (
            "the points whose density the contours show"
            if has(data.samples_y)
            else "the quantity the contours show (the y coordinate of its centre of mass)"
        )
        span = max(data.y) - min(data.y)
        ctx.ask(MEAN_Y, panel, round_sig(mean), evidence=fields, span=span, what=what)
    range_question(ctx, panel, "the contours", min(data.x), max(data.x), fields)
    if style.colorbar and style.filled:
        # filled bands run from min(z) to max(z), so the colour bar spans exactly that
        z = [float(v) for row in data.z for v in row]
        bar = ctx.element_ids(panel.index, "colorbar", "colorbar_tick_label")
        ctx.ask(MIN_Z, panel, round_sig(min(z)), evidence=bar, span=max(z) - min(z))
        ctx.ask(MAX_Z, panel, round_sig(max(z)), evidence=bar, span=max(z) - min(z))


register(ContourKind())
