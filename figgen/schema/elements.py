"""Element kinds: how a kind of boxed element is coloured, read and grounded.

Every figure has the layout and text elements declared here (the figure, its panels, titles,
axis labels, ticks, legends, colour bars). A plot kind declares the elements it draws as data
(bars, points, wedges, and texts such as pie labels and table cells) with the same
:class:`ElementDecl`, in its own module; :mod:`figgen.kinds.derived` gathers both into the
tables the record, the evidence regions, ``figgen show`` and the COCO export read.
"""

from __future__ import annotations

from dataclasses import dataclass


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
