"""The drawn numbers and looks the question vocabulary reads, as the shapes it needs.

The kinds own their data and style classes (``HistogramData``, ``ScatterData``,
``ContourData``, ``LineData``, ``LineStyle``, ``ContourStyle``) and sit above this vocabulary,
which may not import them; these protocols name the fields the vocabulary reads, so a renamed
field is a type error here, and the accessors check at run time that a panel's typed ``data``
or ``style`` has them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, cast, runtime_checkable

from figgen.schema.panel import PanelRecord


@runtime_checkable
class Binned(Protocol):
    """A histogram: the samples, the drawn bin edges and the count in each bin."""

    @property
    def samples(self) -> Sequence[float]: ...
    @property
    def bin_edges(self) -> Sequence[float]: ...
    @property
    def counts(self) -> Sequence[int]: ...


@runtime_checkable
class Cloud(Protocol):
    """A scatter: one point per (x, y)."""

    @property
    def x(self) -> Sequence[float]: ...
    @property
    def y(self) -> Sequence[float]: ...


@runtime_checkable
class Field(Cloud, Protocol):
    """A contour field: ``z[row][col]`` at (``x[col]``, ``y[row]``), drawn at ``levels``."""

    @property
    def z(self) -> Sequence[Sequence[float]]: ...
    @property
    def levels(self) -> Sequence[float]: ...


@runtime_checkable
class Line(Cloud, Protocol):
    """One line of a line plot: its points and how it looks."""

    @property
    def color(self) -> str | None: ...
    @property
    def label(self) -> str | None: ...
    @property
    def linestyle(self) -> str: ...


@runtime_checkable
class Lines(Protocol):
    """A line plot: its lines in drawing (and legend) order."""

    @property
    def series(self) -> Sequence[Line]: ...


@runtime_checkable
class LineLook(Protocol):
    """How a line plot draws its lines: widths and marker sizes in points, the legend."""

    @property
    def linewidth(self) -> float: ...
    @property
    def marker(self) -> str | None: ...
    @property
    def markersize(self) -> float: ...
    @property
    def legend(self) -> bool: ...


@runtime_checkable
class ColourBarLook(Protocol):
    """A look that may draw a colour bar (contour, scatter, heatmap, map): its orientation
    (None: no bar) and label."""

    @property
    def colorbar(self) -> str | None: ...
    @property
    def colorbar_label(self) -> str | None: ...


_CONFORMS: dict[tuple[type, type], bool] = {}


def _has(data: object, shape: type) -> bool:
    """``isinstance(data, shape)``, judged once per data class: a protocol's check is slow,
    and every instance of a dataclass has the same fields."""
    key = (type(data), shape)
    known = _CONFORMS.get(key)
    if known is None:
        known = _CONFORMS[key] = isinstance(data, shape)
    return known


def _mismatch(panel: PanelRecord, shape: str) -> TypeError:
    return TypeError(f"panel {panel.index} ({panel.kind}) holds no {shape} data")


def binned(panel: PanelRecord) -> Binned:
    """A histogram panel's bins."""
    data = panel.data
    if not _has(data, Binned):
        raise _mismatch(panel, "binned")
    return cast(Binned, data)


def has_points(panel: PanelRecord) -> bool:
    """Whether the panel's data are points at (x, y) (a scatter's, a contour's grid)."""
    return _has(panel.data, Cloud)


def cloud(panel: PanelRecord) -> Cloud:
    """A scatter panel's points."""
    if not has_points(panel):
        raise _mismatch(panel, "point")
    return cast(Cloud, panel.data)


def drawn_field(panel: PanelRecord) -> Field:
    """A contour panel's field."""
    data = panel.data
    if not _has(data, Field):
        raise _mismatch(panel, "field")
    return cast(Field, data)


def lines(panel: PanelRecord) -> Sequence[Line]:
    """A line panel's lines (none for a panel of another kind: bars are series, not lines)."""
    data = panel.data
    if not _has(data, Lines):
        return ()
    series = cast(Lines, data).series
    # a data class holds one series class: the first one's fields are every one's
    return series if not series or _has(series[0], Line) else ()


def line_look(panel: PanelRecord) -> LineLook | None:
    """A line plot's look (None for a panel of another kind)."""
    style = panel.style
    return cast(LineLook, style) if _has(style, LineLook) else None


def colour_bar(panel: PanelRecord) -> ColourBarLook | None:
    """The look of a panel that draws a colour bar; None where the panel draws none."""
    style = panel.style
    if not _has(style, ColourBarLook):
        return None
    look = cast(ColourBarLook, style)
    return look if look.colorbar else None
