"""Choropleth maps: real regions (US states, Mexican states) coloured by a value.

The shapes come from the shapefiles inside the ``libpysal`` wheel (:mod:`figgen.kinds.map_regions`;
nothing is downloaded). ``data`` holds ``region_set`` (a name in
:data:`~figgen.kinds.map_regions.REGION_SETS`), ``regions`` (the printed labels, in the source's
order), ``values`` (one per region), ``scheme`` (``continuous``: a colour bar;
``classed``: equal-interval classes in a legend) with ``bins`` (the class edges) and
``decimals`` (the legend's precision). Each region is a ``region`` element (``item``, ``value``
= [value]); its label is a ``region_label`` text element where it fits inside the region, and
only labelled regions are asked about by name: a reader finds them by their label. Opt-in: the
default kind mix gives ``map`` weight 0.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated, Literal

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.cm import ScalarMappable
from matplotlib.collections import PolyCollection
from matplotlib.colors import Normalize
from matplotlib.patches import Patch
from matplotlib.path import Path
from pydantic import Field

from figgen.config.sections.fields import (
    IntRange,
    Probability,
    Range,
    Section,
    Weights,
    one_of,
    within,
)
from figgen.kinds.api import COLORMAPS, Axis, Drawn, KindHooks, Mark, Sampled, register
from figgen.kinds.map_fields import (
    centroids,
    class_edges,
    field_values,
    mid_latitude,
    room_regions,
)
from figgen.kinds.map_regions import REGION_SET_NOUNS, REGION_SETS, project, region_set
from figgen.kinds.shared.colorbar import add_colorbar, colorbar_colormap
from figgen.kinds.shared.fit_text import TextFitter, text_colour
from figgen.kinds.shared.gradient import CYCLIC_COLORMAPS, plane_direction
from figgen.kinds.shared.marks import background, contrast_edge
from figgen.sample.rng import choose, integer, sig, uniform
from figgen.sample.text import Vocabulary, colorbar_label
from figgen.schema.elements import ElementDecl
from figgen.schema.panel import PanelData, PanelRecord, PanelStyle, panel_data, panel_style
from figgen.schema.spec import FigureStyle, PanelSpec
from figgen.vqa.api.families import COLORMAP, Family, declare
from figgen.vqa.api.findings import Finding, ask_findings
from figgen.vqa.api.reading.readout import nice_step, spoken_number
from figgen.words.colormap_words import colormap_sentence
from figgen.words.wording import count, join

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.qa_item import Level
    from figgen.vqa.api.context import FigureContext

Scheme = Literal["continuous", "classed"]
_MAP = "the map in {loc}"
# fmt: off
MAP_CLASSES = declare(
    "map_classes", 1, "panel", "integer", "exact",
    f"how many value classes (colours) does the legend of {_MAP} show?", is_count=True,
)
MAX_REGION = declare(
    "max_region", 2, "panel", "choice", "exact",
    f"in {_MAP}, which of the labelled regions has the largest value?",
)
REGIONS_ABOVE = declare(
    "regions_above", 2, "panel", "integer", "exact",
    f"in {_MAP}, how many of the labelled regions have a value of {{threshold}} or more?",
    is_count=True,
)
MAP_GRADIENT = declare(
    "map_gradient", 3, "panel", "choice", "exact",
    f"in {_MAP}, in which direction do the values increase across the map?",
)
# fmt: on
DIRECTIONS = ("west to east", "east to west", "south to north", "north to south")
CLEAR_SHARE = 0.15
"""On a colour bar a region "has the largest value", or lies on one side of a threshold, only
by this share of the bar's range or more."""
MIN_LABELLED = 3
"""Fewer labelled regions than this give no question by name."""


@panel_data("map")
@dataclass
class MapData(PanelData):
    """A map panel's ``data``: which regions, their values and how values become colours."""

    region_set: str
    regions: list[str]
    values: list[float]
    scheme: Scheme = "continuous"
    bins: list[float] = field(default_factory=list)
    decimals: int = 0

    def array(self) -> np.ndarray:
        return np.asarray(self.values, dtype=float)

    def classes(self) -> np.ndarray:
        """Each region's class (index into ``bins``; the last class includes its top edge)."""
        edges = np.asarray(self.bins, dtype=float)
        return np.clip(np.searchsorted(edges, self.array(), side="right") - 1, 0, len(edges) - 2)


@panel_style("map")
@dataclass
class MapStyle(PanelStyle):
    """A map's look: colormap, colour bar (continuous maps), region outlines, label size."""

    colormap: str = "viridis"
    colorbar: str | None = None
    colorbar_label: str | None = None
    edgecolor: str = "white"
    linewidth: float = 0.5
    label_scale: float = 1.0
    """Region labels' size relative to the tick labels."""


class MapConfig(Section):
    """Choropleth maps (opt-in: give ``map`` a weight in ``kinds``); needs ``figgen[maps]``."""

    region_sets: Annotated[Weights, one_of("region set", tuple(REGION_SETS))] = Field(
        default_factory=lambda: {
            "us48": 2.0,
            "us_west": 1.0,
            "us_midwest": 1.0,
            "us_south": 1.0,
            "us_northeast": 0.5,
            "mexico": 1.0,
        }
    )
    classed_p: Probability = 0.5
    classes: Annotated[IntRange, within(2, 9)] = (3, 6)
    top: Annotated[Range, within(1e-3, 1e9)] = Field(
        (1.0, 1000.0), description="the largest value's size, log-uniform"
    )
    colorbar_location: Annotated[
        Weights, one_of("colorbar location", ("right", "left", "top", "bottom"))
    ] = Field(default_factory=lambda: {"right": 0.6, "bottom": 0.3, "left": 0.1})


class MapKind(KindHooks):
    name = "map"
    config = MapConfig
    noun = "map"
    default_weight = 0.0
    draws_axes = False
    value_axes: tuple[Axis, ...] = ()
    elements = (
        # a region's box centre can miss it (Florida, Michigan): no pointing target
        ElementDecl("region", "#ffa500", off_ink=True),
        ElementDecl("region_label", "#c71585", text=True),
    )
    families: tuple[Family, ...] = (COLORMAP, MAP_CLASSES, MAX_REGION, REGIONS_ABOVE, MAP_GRADIENT)

    def sample(
        self,
        rng: np.random.Generator,
        cfg: SharedConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        mc = cfg.section(self.name, MapConfig)
        name = choose(rng, mc.region_sets)
        regions = region_set(name)
        target = int(rng.choice(room_regions(name)))
        unit, params = field_values(rng, distribution, centroids(regions), target)
        top = float(np.exp(rng.uniform(np.log(mc.top[0]), np.log(mc.top[1]))))
        low = top * uniform(rng, (0.0, 0.6))
        scheme: Scheme = "classed" if rng.random() < mc.classed_p else "continuous"
        bins: list[float] = []
        decimals = 0
        if scheme == "classed":
            bins, decimals = class_edges(low, top, integer(rng, mc.classes))
            # the values fill the classes, first to last, a little inside the outer edges
            inset = 0.02 * (bins[-1] - bins[0])
            low, top = bins[0] + inset, bins[-1] - inset
        values = np.asarray(sig(low + (top - low) * unit, 3), dtype=float)
        data = MapData(name, [r.label for r in regions], values.tolist(), scheme, bins, decimals)
        colorbar = choose(rng, mc.colorbar_location) if scheme == "continuous" else None
        style = MapStyle(
            colormap=str(rng.choice(COLORMAPS)),
            colorbar=colorbar,
            colorbar_label=colorbar_label(rng, vocab, cfg.text) if colorbar else None,
            edgecolor="white" if rng.random() < 0.5 else "#404040",
            linewidth=round(uniform(rng, (0.3, 0.9)), 2),
            label_scale=round(uniform(rng, (0.9, 1.1)), 2),
        )
        return Sampled(
            params={**params, "top": top, "low": low}, data=data.to_dict(), style=style.to_dict()
        )

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        st, d = MapStyle.from_dict(panel.style), MapData.from_dict(panel.data)
        regions = region_set(d.region_set)
        mid = mid_latitude(regions)
        rings = [[project(ring, mid) for ring in r.rings] for r in regions]
        mappable = _mappable(d, st.colormap)
        fills = mappable.to_rgba(d.classes() if d.scheme == "classed" else d.array())
        ax.set_axis_off()  # first: the map's background is then the figure's
        edge = contrast_edge(fills, background(ax)) or st.edgecolor
        for shape, fill in zip(rings, fills, strict=True):
            ax.add_collection(
                PolyCollection(shape, facecolors=[fill], edgecolors=edge, linewidths=st.linewidth)
            )
        everything = np.concatenate([ring for shape in rings for ring in shape])
        lo, hi = everything.min(axis=0), everything.max(axis=0)
        pad = 0.02 * (hi - lo)
        ax.set_xlim(lo[0] - pad[0], hi[0] + pad[0])
        ax.set_ylim(lo[1] - pad[1], hi[1] + pad[1])
        ax.set_aspect("equal")
        where = centroids(regions)
        size = style.sizes.tick * st.label_scale
        texts = [
            ax.text(
                x,
                y,
                label,
                ha="center",
                va="center",
                fontsize=size,
                color=text_colour(fill),
            )
            for (x, y), label, fill in zip(where, d.regions, fills, strict=True)
        ]

        def room(i: int) -> list[Path]:
            return [Path(ax.transData.transform(ring)) for ring in rings[i]]

        ax.add_artist(TextFitter(texts, room, mode="inside", size=size))
        cbar = None
        if d.scheme == "classed":
            swatches = mappable.to_rgba(np.arange(len(d.bins) - 1))
            handles: list[Artist] = [
                Patch(facecolor=tuple(swatch), edgecolor=edge, label=label)
                for swatch, label in zip(swatches, class_labels(d), strict=True)
            ]
            ax.legend(
                handles=handles,
                loc="upper left",
                bbox_to_anchor=(1.02, 1.0),
                borderaxespad=0.0,
                fontsize=style.sizes.legend,
            )
        else:
            cbar = add_colorbar(
                ax,
                mappable,
                st.colorbar,
                st.colorbar_label,
                style,
                nbins=st.cbar_nbins,
            )

        def probe(renderer: RendererBase) -> list[Mark]:
            marks = []
            for i, (shape, fill) in enumerate(zip(rings, fills, strict=True)):
                box = ax.transData.transform(np.concatenate(shape))
                (x0, y0), (x1, y1) = box.min(axis=0), box.max(axis=0)
                r, g, b, a = (float(v) for v in fill)
                marks.append(
                    Mark("region", (x0, y0, x1, y1), [d.values[i]], item=i, color=(r, g, b, a))
                )
            for i, text in enumerate(texts):
                if text.get_visible():
                    tb = text.get_window_extent(renderer)
                    marks.append(
                        Mark(
                            "region_label", (tb.x0, tb.y0, tb.x1, tb.y1), item=i, text=d.regions[i]
                        )
                    )
            return marks

        return Drawn(probes=[probe], colorbar=cbar)

    def shown_colormap(self, panel: PanelRecord) -> str | None:
        return colorbar_colormap(panel.style_as(MapStyle))

    def panel_questions(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> None:
        d, index = panel.data_as(MapData), panel.index
        scale = ctx.element_ids(index, "legend", "legend_entry", "colorbar")
        if level == 1:
            if d.scheme == "classed" and ctx.elements(index, "legend"):
                classes = len(d.bins) - 1
                ctx.ask(MAP_CLASSES, panel, classes, evidence=ctx.element_ids(index, "legend"))
            return
        named = labelled(ctx, panel)
        if level == 2 and len(named) >= MIN_LABELLED and readable(panel):
            evidence = [*_region_ids(ctx, index, named), *scale]
            best = max_region(d, named)
            # offered: the labelled regions where the sampler puts the largest value (drawn
            # evenly among the large ones; a trend's end lies where its direction says)
            room = set(room_regions(d.region_set))
            offered = [i for i in named if i in room]
            evenly = panel.distribution != "linear"
            if evenly and best is not None and best in offered and len(offered) >= MIN_LABELLED:
                choices = [d.regions[i] for i in offered]
                ctx.ask(MAX_REGION, panel, d.regions[best], choices=choices, evidence=evidence)
            above = regions_above(d, named)
            if above is not None:
                threshold, n = above
                ctx.ask(REGIONS_ABOVE, panel, n, evidence=evidence, threshold=threshold)
        elif level == 3 and readable(panel):
            evidence = ctx.element_ids(index, "region", *("legend", "colorbar"))
            if panel.distribution == "linear":  # the direction drawn evenly (see field_values)
                ask_findings(ctx, panel, map_findings(panel), evidence)

    def describe(self, ctx: FigureContext, panel: PanelRecord, level: Level) -> list[str]:
        d, style = panel.data_as(MapData), panel.style_as(MapStyle)
        named = labelled(ctx, panel)
        if level == 1:
            noun = REGION_SET_NOUNS.get(d.region_set, "regions")
            how = (
                f"in {len(d.bins) - 1} classes ({join(class_labels(d))})"
                if d.scheme == "classed"
                else "on a continuous colour scale"
            )
            out = [f"It is a map of {noun}, each coloured by its value {how}."]
            if d.scheme == "continuous" and style.colormap:
                out.append(colormap_sentence(style.colormap))
            out.append(f"{count(len(named), 'region').capitalize()} carry name labels.")
            return out
        values = d.array()
        if level == 2:
            low, high = int(np.argmin(values)), int(np.argmax(values))
            if d.scheme == "classed":
                labels = class_labels(d)
                classes = d.classes()
                return [
                    f"The lowest class ({labels[classes[low]]}) includes {_name(d, low, named)}; "
                    f"the highest ({labels[classes[high]]}) includes {_name(d, high, named)}."
                ]
            return [
                f"Values run from about {spoken_number(values[low], digits=2)} in "
                f"{_name(d, low, named)} to about {spoken_number(values[high], digits=2)} in "
                f"{_name(d, high, named)}."
            ]
        found = map_findings(panel) if readable(panel) else []
        if found:
            return [f.sentence for f in found]
        out = ["The values show no single direction across the map."]
        best = max_region(d, named)
        if best is not None:
            out.append(f"{d.regions[best]} has the highest value.")
        elif d.scheme == "classed":
            classes = d.classes()
            top = [d.regions[i] for i in named if classes[i] == classes.max()]
            if top:
                out.append(f"The highest class covers {join(top)}.")
        return out


def _mappable(d: MapData, colormap: str) -> ScalarMappable:
    if d.scheme == "classed":
        return ScalarMappable(Normalize(-0.5, len(d.bins) - 1.5), colormap)
    values = d.array()
    return ScalarMappable(Normalize(float(values.min()), float(values.max())), colormap)


def class_labels(d: MapData) -> list[str]:
    """The legend's class labels: "10 to 20", lowest class first."""
    return [
        f"{a:,.{d.decimals}f} to {b:,.{d.decimals}f}"
        for a, b in zip(d.bins[:-1], d.bins[1:], strict=True)
    ]


def readable(panel: PanelRecord) -> bool:
    """Whether colours order the values: not on a cyclic colour bar, whose ends look alike."""
    d = panel.data_as(MapData)
    return d.scheme == "classed" or panel.style_as(MapStyle).colormap not in CYCLIC_COLORMAPS


def labelled(ctx: FigureContext, panel: PanelRecord) -> list[int]:
    """The regions whose name label is printed (inside the region), in region order."""
    labels = ctx.elements(panel.index, "region_label")
    return sorted({e.item for e in labels if e.item is not None})


def max_region(d: MapData, named: list[int]) -> int | None:
    """The region with the largest value, when it is labelled and its colour alone says so:
    the only labelled region of its class, or ahead of the next by :data:`CLEAR_SHARE`."""
    values = d.array()
    best = int(np.argmax(values))
    if best not in named:
        return None
    others = [i for i in named if i != best]
    if not others:  # nothing labelled to compare it with
        return None
    if d.scheme == "classed":
        classes = d.classes()
        return best if all(classes[i] < classes[best] for i in others) else None
    lead = values[best] - max(values[i] for i in others)
    return best if lead >= CLEAR_SHARE * float(np.ptp(values)) else None


def regions_above(d: MapData, named: list[int]) -> tuple[str, int] | None:
    """(threshold as printed, how many labelled regions reach it), where colours decide it:
    a class edge of a classed map, or a round number no labelled region lies near."""
    values = d.array()
    if d.scheme == "classed":
        inner = d.bins[1:-1]
        if not inner:
            return None
        threshold = inner[len(inner) // 2]
        text = f"{threshold:,.{d.decimals}f}"
    else:
        span = float(np.ptp(values))
        step = nice_step(span)
        threshold = round(float(np.median(values[named])) / step) * step
        if any(abs(values[i] - threshold) < CLEAR_SHARE * span for i in named):
            return None
        text = spoken_number(threshold)
    return text, int(sum(values[i] >= threshold for i in named))


def map_findings(panel: PanelRecord) -> list[Finding]:
    """The direction the values increase across the map, where a plane fits them clearly."""
    d = panel.data_as(MapData)
    where = centroids(region_set(d.region_set))
    shown = d.classes().astype(float) if d.scheme == "classed" else d.array()
    towards = plane_direction(where[:, 0], where[:, 1], shown, DIRECTIONS)
    if towards is None:
        return []
    sentence = f"The values increase from {towards}."
    return [Finding(MAP_GRADIENT, towards, sentence, list(DIRECTIONS))]


def _region_ids(ctx: FigureContext, index: int, items: list[int]) -> list[int]:
    keep = set(items)
    return [
        e.id
        for kind in ("region", "region_label")
        for e in ctx.elements(index, kind)
        if e.item in keep
    ]


def _name(d: MapData, i: int, named: list[int]) -> str:
    return d.regions[i] if i in named else "an unlabelled region"


register(MapKind())
