"""Pie charts: one wedge per category, each labelled with its category and value.

``data`` holds ``labels``, ``values``, ``colors`` and ``decimals`` (the value labels' precision).
Wedges start at 90 degrees and run clockwise, so the first category is at the top. Each wedge
is a ``wedge`` element (``item`` = category index, ``value`` = [value]) and each label a
``wedge_label`` text element, so a reader can take every value from the text alone. Opt-in:
not in the default kind mix.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import numpy as np
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.colors import to_rgba
from matplotlib.patches import Wedge
from matplotlib.text import Text

from figgen.config.sections.fields import IntRange, Range, Section, within
from figgen.kinds.api import Axis, Drawn, KindHooks, Mark, Sampled, random_color, register
from figgen.sample.rng import integer
from figgen.sample.text import Vocabulary
from figgen.schema.elements import Element, ElementDecl
from figgen.schema.longchart import Chart, ChartPanel, ReadValue, Shape, mark_texts, printed_number
from figgen.schema.panel import PanelData, PanelStyle, panel_data, panel_style
from figgen.schema.spec import FigureStyle, PanelSpec

if TYPE_CHECKING:
    from figgen.config.sections.shared import SharedConfig
    from figgen.schema.elements import Element
    from figgen.schema.record import Record


def value_text(value: float, decimals: int) -> str:
    return f"{value:,.{decimals}f}"


@panel_data("pie")
@dataclass
class PieData(PanelData):
    """A pie panel's ``data``: one label, value and colour per wedge, and the labels' precision."""

    labels: list[str]
    values: list[float]
    colors: list[str]
    decimals: int


@panel_style("pie")
@dataclass
class PieStyle(PanelStyle):
    """A pie samples no look of its own: wedges are outlined in white, labels at tick size."""


class PieConfig(Section):
    wedges: Annotated[IntRange, within(2, 12)] = (3, 7)
    values: Annotated[Range, within(1e-3, 1e9)] = (5.0, 100.0)


class PieKind(KindHooks):
    name = "pie"
    config = PieConfig
    noun = "pie chart"
    default_weight = 0.0
    draws_axes = False  # set_axis_off: no axis labels, ticks or scale to read
    value_axes: tuple[Axis, ...] = ()
    elements = (ElementDecl("wedge", "#b8860b"), ElementDecl("wedge_label", "#6b8e23", text=True))
    multichart_charts = ("pie",)

    def sample(
        self,
        rng: np.random.Generator,
        cfg: SharedConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        pc = cfg.section(self.name, PieConfig)
        n = integer(rng, pc.wedges)
        labels = list(
            dict.fromkeys(vocab.words[int(i)] for i in rng.integers(len(vocab.words), size=3 * n))
        )[:n]
        values = np.round(rng.uniform(*pc.values, len(labels)), 1)
        data = PieData(
            labels=labels,
            values=values.tolist(),
            colors=[random_color(rng, dark=dark) for _ in labels],
            decimals=1,
        )
        return Sampled(
            params={"distribution": "uniform"}, data=data.to_dict(), style=PieStyle().to_dict()
        )

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        d = PieData.from_dict(panel.data)
        values = np.asarray(d.values, dtype=float)
        texts = [
            f"{label}\n{value_text(v, d.decimals)}"
            for label, v in zip(d.labels, values, strict=True)
        ]
        wedges, label_texts = ax.pie(
            values,
            labels=texts,
            colors=d.colors,
            startangle=90,
            counterclock=False,
            wedgeprops={"linewidth": 1.0, "edgecolor": "white"},
            textprops={"fontsize": style.sizes.tick, "multialignment": "center"},
        )
        for wedge, text in zip(wedges, label_texts, strict=True):
            _clear_of_the_pie(text, (wedge.theta1 + wedge.theta2) / 2)
        ax.add_artist(PieFitter(ax, wedges, label_texts))
        ax.set_aspect("equal")
        ax.set_axis_off()

        def probe(renderer: RendererBase) -> list[Mark]:
            marks = []
            for i, (wedge, text) in enumerate(zip(wedges, label_texts, strict=True)):
                ext = wedge.get_window_extent(renderer)
                marks.append(
                    Mark(
                        "wedge",
                        (ext.x0, ext.y0, ext.x1, ext.y1),
                        [float(values[i])],
                        item=i,
                        color=to_rgba(wedge.get_facecolor()),
                    )
                )
                tb = text.get_window_extent(renderer)
                marks.append(
                    Mark("wedge_label", (tb.x0, tb.y0, tb.x1, tb.y1), item=i, text=text.get_text())
                )
            return marks

        return Drawn(probes=[probe])

    def multichart_refusal(self, chart: str, inputs: list[Shape]) -> str | None:
        one_vector = len(inputs) == 1 and inputs[0].kind == "vector"
        return None if one_vector else "shows exactly one vector"

    def multichart_panel(self, chart: Chart) -> ChartPanel:
        (shown,) = chart.inputs
        data = PieData(
            labels=[str(v) for v in shown.labels],
            values=list(shown.values),
            colors=[chart.colour(i) for i in range(len(shown.labels))],
            decimals=shown.decimals,
        )
        return ChartPanel(data.to_dict(), size_in=(5.5, 4.5), style_sheet=False)

    def multichart_read(self, record: Record, chart: Chart) -> list[ReadValue]:
        texts = mark_texts(record, "wedge_label")
        wedges = range(len(chart.inputs[0].labels))
        return [tuple(printed_number(texts[(None, i)]) for i in wedges)]

    def shows_input(self, element: Element, series: int, items: set[int]) -> bool:
        return element.kind in ("wedge", "wedge_label") and element.item in items


LABEL_GAP = 1.08
"""A wedge label's nearest corner sits this many radii from the centre, just off the pie."""


MIN_RADIUS = 0.35
"""The smallest radius the pie shrinks to for its labels (drawn at 1, its axes reach 1.25)."""
ROOMY_RADIUS = 0.6
"""Below this radius the labels shrink rather than the pie."""
FLOOR_PT = 6.0
"""The smallest font size wedge labels shrink to (as tables' text)."""


def _clear_of_the_pie(text: Text, degrees: float, radius: float = 1.0) -> None:
    """Anchor a wedge label at its wedge's middle angle just outside the pie, by the corner
    that faces the pie: the text then grows away from it, at any font size (centred labels
    at a fixed distance ran into the wedges, dark text on dark colour)."""
    angle = np.radians(degrees)
    cos, sin = float(np.cos(angle)), float(np.sin(angle))
    text.set_position((LABEL_GAP * radius * cos, LABEL_GAP * radius * sin))
    text.set_horizontalalignment("left" if cos > 0.1 else "right" if cos < -0.1 else "center")
    text.set_verticalalignment("bottom" if sin > 0.1 else "top" if sin < -0.1 else "center")


class PieFitter(Artist):
    """Fits the pie and its labels to the axes at draw time, once the layout engine has sized
    them: the pie shrinks until every wedge label lies inside the axes (so the title, placed
    above the axes, and the neighbouring panels stay clear of them); where that would leave
    it under :data:`ROOMY_RADIUS`, or two labels overlap, the labels shrink too, down to
    :data:`FLOOR_PT`. Drawn just before the wedges; the record measures what it left."""

    def __init__(self, ax: Axes, wedges: list[Wedge], texts: list[Text]) -> None:
        super().__init__()
        self.set_zorder(min(w.get_zorder() for w in wedges) - 0.01)
        self.set_in_layout(False)
        self._ax, self._wedges, self._texts = ax, wedges, texts
        self._size = float(texts[0].get_fontsize()) if texts else FLOOR_PT

    def draw(self, renderer: RendererBase) -> None:
        size = self._size
        while True:
            for text in self._texts:
                text.set_fontsize(size)
            radius = self._radius(renderer)
            for wedge, text in zip(self._wedges, self._texts, strict=True):
                wedge.set_radius(radius)
                _clear_of_the_pie(text, (wedge.theta1 + wedge.theta2) / 2, radius)
            roomy = radius >= ROOMY_RADIUS and not self._overlapping(renderer)
            if roomy or size <= FLOOR_PT:
                return
            size = max(FLOOR_PT, size * 0.9)

    def _radius(self, renderer: RendererBase) -> float:
        """The largest radius (at most 1) at which every label, at its size, fits the axes."""
        ax = self._ax
        (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
        per_px = (x1 - x0) / max(ax.bbox.width, 1.0)  # equal aspect: one scale for x and y
        half = min(x1 - x0, y1 - y0) / 2
        radius = 1.0
        for wedge, text in zip(self._wedges, self._texts, strict=True):
            angle = np.radians((wedge.theta1 + wedge.theta2) / 2)
            box = text.get_window_extent(renderer)
            ha, va = text.get_horizontalalignment(), text.get_verticalalignment()
            for along, extent, centred in (
                (abs(np.cos(angle)), box.width * per_px, ha == "center"),
                (abs(np.sin(angle)), box.height * per_px, va == "center"),
            ):
                room = half - (extent / 2 if centred else extent)
                if along > 1e-6:
                    radius = min(radius, room / (LABEL_GAP * along))
        return max(MIN_RADIUS, radius)

    def _overlapping(self, renderer: RendererBase) -> bool:
        boxes = [t.get_window_extent(renderer) for t in self._texts]
        return any(a.overlaps(b) for i, a in enumerate(boxes) for b in boxes[i + 1 :])


register(PieKind())
