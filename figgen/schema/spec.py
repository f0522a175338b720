"""The contract between sampling and rendering: a plain, JSON-round-trippable figure spec.

Sampling fills a :class:`FigureSpec` with every number that will be drawn; rendering reads
only the spec. Repair edits the spec (font sizes, tick density, figure size), so the stored
spec of a finished figure renders to the same image with no further repair.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any, Literal

from figgen._util.plain import as_plain_dict

Kind = str
"""A registered plot kind's name (``figgen.kinds.KINDS``)."""
Distribution = Literal["linear", "gmm", "random"]
Arrangement = Literal["horizontal", "vertical", "grid"]
Scale = Literal["linear", "log"]


@dataclass
class LayoutSpec:
    n_panels: int
    rows: int
    cols: int
    arrangement: Arrangement


@dataclass
class FontSizes:
    title: float
    label: float
    tick: float
    colorbar: float
    legend: float


@dataclass
class FigureStyle:
    """Figure-wide look: matplotlib style sheet, fonts and colour inversion."""

    mpl_style: str
    font_family: str
    mathtext_fontset: str
    dark: bool
    sizes: FontSizes
    title_pad: float = 4.0
    wspace: float = 0.02
    hspace: float = 0.02


@dataclass
class PanelSpec:
    index: int
    row: int
    col: int
    kind: Kind
    distribution: Distribution
    params: dict[str, Any]
    data: dict[str, Any]
    title: str | None = None
    xlabel: str | None = None
    ylabel: str | None = None
    xscale: Scale = "linear"
    yscale: Scale = "linear"
    style: dict[str, Any] = field(default_factory=dict)


@dataclass
class FigureSpec:
    id: str
    seed: int
    index: int
    width_in: float
    height_in: float
    dpi: int
    layout: LayoutSpec
    style: FigureStyle
    panels: list[PanelSpec]
    panel_aspect: float = 1.0
    attempt: int = 0

    @property
    def width_px(self) -> int:
        return int(round(self.width_in * self.dpi))

    @property
    def height_px(self) -> int:
        return int(round(self.height_in * self.dpi))

    def to_dict(self) -> dict[str, Any]:
        return as_plain_dict(self)

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> FigureSpec:
        values = copy.deepcopy(values)
        style = values.pop("style")
        sizes = FontSizes(**style.pop("sizes"))
        return cls(
            layout=LayoutSpec(**values.pop("layout")),
            style=FigureStyle(sizes=sizes, **style),
            panels=[PanelSpec(**panel) for panel in values.pop("panels")],
            **values,
        )

    def copy(self) -> FigureSpec:
        return copy.deepcopy(self)
