"""Elements: the boxed things a record lists, and the kinds they come in.

:class:`Element` is one drawn thing as the record stores it, boxed in PNG pixels. Its
``kind`` is declared once as an :class:`ElementDecl`, which says how the kind is coloured,
read and grounded. Every figure has the layout and text elements declared here (the figure,
its panels, titles, axis labels, ticks, legends, colour bars). A plot kind declares the
elements it draws as data (bars, points, wedges, and texts such as pie labels and table
cells) with the same :class:`ElementDecl`, in its own module; :mod:`figgen.kinds.derived`
gathers both into the tables the record, the evidence regions, ``figgen show`` and the COCO
export read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal


@dataclass(frozen=True)
class ElementDecl:
    """One element kind.

    ``colour`` outlines its boxes in ``figgen show``; ``text`` says its element carries the
    string drawn. Evidence: ``series_region`` merges a panel's elements of one series into one
    region; ``off_ink`` marks kinds whose box centre need not lie on anything drawn (no point
    target); ``text_group`` merges a panel's texts of one group (its tick labels) into one box.
    """

    name: str
    colour: str
    text: bool = False
    series_region: bool = False
    off_ink: bool = False
    text_group: str | None = None


def mark(name: str, colour: str, *, off_ink: bool = False) -> ElementDecl:
    """A data mark grounded with the other marks of its panel and series."""
    return ElementDecl(name, colour, series_region=True, off_ink=off_ink)


SHARED_ELEMENTS: tuple[ElementDecl, ...] = (
    ElementDecl("figure", "#888888"),
    ElementDecl("panel", "#1f77b4"),
    ElementDecl("title", "#d62728", text=True),
    ElementDecl("xlabel", "#ff7f0e", text=True),
    ElementDecl("ylabel", "#ff7f0e", text=True),
    ElementDecl("xtick_label", "#2ca02c", text=True, text_group="xticks"),
    ElementDecl("ytick_label", "#2ca02c", text=True, text_group="yticks"),
    ElementDecl("offset_text", "#17becf", text=True),
    ElementDecl("legend", "#9467bd"),
    ElementDecl("legend_entry", "#c5b0d5", text=True, text_group="legend"),
    ElementDecl("colorbar", "#8c564b"),
    ElementDecl("colorbar_label", "#e377c2", text=True),
    ElementDecl("colorbar_tick_label", "#bcbd22", text=True, text_group="colorbar_ticks"),
)
"""What every figure may have, in schema order (the COCO export numbers its categories in
it): the layout (figure, panels, legends, colour bars: no text) and the texts the layout places
and overlap repair moves."""


ElementKind = str
"""An element kind: one of the shared layout and text kinds above (:data:`SHARED_ELEMENTS`) or
one a registered plot kind declares (``figgen.kinds.element_tables().names``)."""

BBox = tuple[float, float, float, float]


def as_bbox(stored: Sequence[float]) -> BBox:
    """A stored ``[x0, y0, x1, y1]`` as a box; another length is a ValueError."""
    x0, y0, x1, y1 = stored
    return (x0, y0, x1, y1)


Occluder = Literal["legend", "frame", "marks"]
_OPTIONAL = (
    "text",
    "value",
    "series",
    "item",
    "axis",
    "empty",
    "visible",
    "visible_fraction",
    "occluded_by",
    "background",
    "frame",
    "loc",
    "handle",
)


@dataclass
class Element:
    """One drawn thing, boxed in PNG pixels ``[x0, y0, x1, y1]`` with the origin top-left."""

    id: int
    kind: ElementKind
    panel: int | None
    bbox: BBox
    text: str | None = None
    value: list[float] | None = None
    series: int | None = None
    item: int | None = None
    axis: Literal["x", "y"] | None = None
    visible: bool | None = None
    """Data marks: some of the mark's colour shows in the raster under its box."""
    visible_fraction: float | None = None
    """Data marks: the share of the mark's own ink that survives what is drawn over it."""
    occluded_by: list[Occluder] | None = None
    """Data marks: what covers part of it ("legend", "frame", "marks"); empty when nothing."""
    empty: bool | None = None
    """An empty histogram bin: kept, with a zero-height (or zero-width) box; else absent."""
    background: str | None = None
    """Panels: the plot area's background colour, ``#rrggbb``."""
    frame: dict[str, Any] | None = None
    """Panels: the frame (spines) ``color``, ``width`` (px), drawn ``sides``, ``over_data``."""
    loc: str | None = None
    """Legends the renderer placed: the matplotlib location it chose."""
    handle: float | None = None
    """Legends: the length of its line samples in points (a dash pattern shows only on a
    sample long enough)."""

    @classmethod
    def from_dict(cls, element: dict[str, Any]) -> Element:
        """Read a stored element (the inverse of :meth:`to_dict`)."""
        out = cls(element["id"], element["kind"], element["panel"], as_bbox(element["bbox"]))
        for key in _OPTIONAL:
            if key in element:
                setattr(out, key, element[key])
        return out

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "panel": self.panel,
            "bbox": list(self.bbox),
        }
        for key in _OPTIONAL:
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        return out
