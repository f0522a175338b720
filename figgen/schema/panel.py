"""A stored panel as typed values, and the registries of the kinds' data and style classes.

:class:`PanelRecord` is one panel of a record: where it sits, what it draws and how it looks.
Its ``data`` and ``style`` are read into the classes its kind registers here
(:func:`panel_data`, :func:`panel_style`), so this module names no kind; ``to_dict`` writes
the stored dicts back as they were.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, ClassVar, Self, TypeVar

from figgen._util.plain import as_plain_dict, field_names
from figgen._util.registry import Registry
from figgen.schema.params import PanelParams, read_params
from figgen.schema.spec import Distribution, Scale


class PanelData:
    """Base of a kind's typed ``data``: a dataclass whose ``to_dict`` is exactly what the record
    stores, and whose ``from_dict`` reads a stored panel (keys a record lacks take defaults)."""

    NESTED: ClassVar[dict[str, type[Any]]] = {}
    """Fields that hold a list of dataclasses (a line panel's series), by field name: their
    items are read into that class (its ``from_dict`` where it has one)."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        names = field_names(cls)
        values = {key: value for key, value in data.items() if key in names}
        for key, item in cls.NESTED.items():
            if key in values:
                read = getattr(item, "from_dict", None) or (lambda part, item=item: item(**part))
                values[key] = [read(part) for part in values[key]]
        return cls(**values)

    def to_dict(self) -> dict[str, Any]:
        return as_plain_dict(self)


PANEL_DATA: Registry[type[PanelData]] = Registry("plot kind")
"""Each kind's ``data`` class, by kind name; the kind modules fill it."""

C = TypeVar("C")
D = TypeVar("D", bound=PanelData)
P = TypeVar("P", bound=PanelParams)
_AXES = ("x", "y")


def _registering(registry: Registry[type[Any]], kind: str) -> Callable[[type[C]], type[C]]:
    def decorate(cls: type[C]) -> type[C]:
        registry.add(kind, cls)
        return cls

    return decorate


def _kind_class(registry: Registry[type[C]], kind: str) -> type[C]:
    # the kind modules register their classes when figgen.kinds is imported; this module sits
    # below the kinds and does not import them, so a reader of records imports figgen.kinds
    if not registry:
        raise RuntimeError("no plot kinds are loaded: import figgen.kinds before reading records")
    return registry.get_or_fail(kind)


def panel_data(kind: str) -> Callable[[type[D]], type[D]]:
    """``@panel_data("line")``: register the decorated class as the ``data`` of ``kind``."""
    return _registering(PANEL_DATA, kind)


@dataclass(kw_only=True)
class PanelStyle:
    """Base of a kind's typed ``style``: how the panel looks, a dataclass per kind.

    ``to_dict`` gives back exactly the stored dict, key order included: a style read by
    :meth:`from_dict` remembers which keys were stored and in what order (a stored dict may
    lack keys, e.g. a hand-made record's, and the renderer's repair appends the tick settings
    below in the order it made them); one built by sampling code writes its own fields in
    declaration order, then the tick settings that are set, then :attr:`extra`.
    """

    x_nbins: int | None = None
    y_nbins: int | None = None
    cbar_nbins: int | None = None
    """Tick counts the renderer's repair (or a LongChart chart) fixed: None leaves the locator
    its choice."""
    x_minor_labels: bool | None = None
    y_minor_labels: bool | None = None
    """False: the log axis's minor tick labels are hidden (repair: they crowded)."""
    x_tick_rotation: float | None = None
    y_tick_rotation: float | None = None
    """Category labels turned upright (degrees) by repair."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Stored keys no field names (none in figgen's own records): kept so ``to_dict`` is exact."""
    _stored: tuple[str, ...] | None = field(default=None, init=False, repr=False, compare=False)

    TICKS: ClassVar[tuple[str, ...]] = (
        "x_nbins",
        "y_nbins",
        "cbar_nbins",
        "x_minor_labels",
        "y_minor_labels",
        "x_tick_rotation",
        "y_tick_rotation",
    )
    """The settings every kind may carry, stored only when set."""

    @classmethod
    def from_dict(cls, style: dict[str, Any]) -> Self:
        names = field_names(cls)
        known = {key: value for key, value in style.items() if key in names and key != "extra"}
        extra = {key: value for key, value in style.items() if key not in known}
        out = cls(**known, extra=extra)
        out._stored = tuple(style)
        return out

    def keys(self) -> tuple[str, ...]:
        """The keys :meth:`to_dict` writes, in its order."""
        if self._stored is not None:
            return self._stored
        own = [
            f.name
            for f in fields(self)
            if f.init and f.name not in self.TICKS and f.name != "extra"
        ]
        ticks = [name for name in self.TICKS if getattr(self, name) is not None]
        return (*own, *ticks, *self.extra)

    def to_dict(self) -> dict[str, Any]:
        return {key: self._value(key) for key in self.keys()}

    def _value(self, key: str) -> Any:
        if key in self.extra:
            return self.extra[key]
        value = getattr(self, key)
        return list(value) if isinstance(value, list) else value

    def tick_rotation(self, axis: str) -> float | None:
        """The rotation repair set for the tick labels of ``axis`` ("x" or "y"), if any."""
        return self.x_tick_rotation if axis == "x" else self.y_tick_rotation


PANEL_STYLE: Registry[type[PanelStyle]] = Registry("plot kind")
"""Each kind's ``style`` class, by kind name; the kind modules fill it."""

S = TypeVar("S", bound=PanelStyle)


def panel_style(kind: str) -> Callable[[type[S]], type[S]]:
    """``@panel_style("line")``: register the decorated class as the ``style`` of ``kind``."""
    return _registering(PANEL_STYLE, kind)


@dataclass
class PanelRecord:
    """One stored panel: where it sits, what it draws (typed ``data``) and how it looks.

    ``data``, ``style`` and ``params`` are read into the kind's :class:`PanelData`,
    :class:`PanelStyle` and :mod:`figgen.schema.params` class when first used (evaluation and
    export never use them); ``stored_data``, ``stored_style`` and ``stored_params`` are the stored
    dicts, which :meth:`to_dict` writes back as they were.
    """

    index: int
    row: int
    col: int
    kind: str
    distribution: Distribution
    stored_params: dict[str, Any]
    stored_data: dict[str, Any]
    title: str | None
    xlabel: str | None
    ylabel: str | None
    xscale: Scale
    yscale: Scale
    stored_style: dict[str, Any]
    _data: PanelData | None = field(default=None, init=False, repr=False, compare=False)
    _params: PanelParams | None = field(default=None, init=False, repr=False, compare=False)
    _style: PanelStyle | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def data(self) -> PanelData:
        """The drawn numbers as the kind's typed data (read-only: records are not edited)."""
        if self._data is None:
            self._data = _kind_class(PANEL_DATA, self.kind).from_dict(self.stored_data)
        return self._data

    def data_as(self, cls: type[D]) -> D:
        """The panel's ``data`` as the class its kind stores (a mismatch is a programming error)."""
        return self._checked(self.data, cls)

    @property
    def style(self) -> PanelStyle:
        """How the panel looks, as the kind's typed style (read-only, like ``data``)."""
        if self._style is None:
            self._style = _kind_class(PANEL_STYLE, self.kind).from_dict(self.stored_style)
        return self._style

    def style_as(self, cls: type[S]) -> S:
        """The panel's ``style`` as the class its kind stores (a mismatch is a programming
        error)."""
        return self._checked(self.style, cls)

    def _checked(self, value: object, cls: type[C]) -> C:
        if not isinstance(value, cls):
            raise TypeError(f"panel {self.index} holds {type(value).__name__}, not {cls.__name__}")
        return value

    # the generating parameters (a section of its own: panel params)
    @property
    def params(self) -> PanelParams:
        """How the numbers were generated, as the kind's typed params (read when first used)."""
        if self._params is None:
            self._params = read_params(self.kind, self.distribution, self.stored_params)
        return self._params

    def params_as(self, cls: type[P]) -> P | None:
        """The panel's ``params`` if they are a ``cls`` (one distribution's shape), else None."""
        params = self.params
        return params if isinstance(params, cls) else None

    def axis_scale(self, axis: str) -> Scale:
        """The scale of axis ``"x"`` or ``"y"``."""
        return (self.xscale, self.yscale)[_AXES.index(axis)]

    def axis_label(self, axis: str) -> str | None:
        """The label of axis ``"x"`` or ``"y"``."""
        return (self.xlabel, self.ylabel)[_AXES.index(axis)]

    @classmethod
    def from_dict(cls, panel: dict[str, Any]) -> PanelRecord:
        kind = panel["kind"]
        return cls(
            # a hand-made panel (a test's, a density source's) may leave out its place
            index=panel.get("index", 0),
            row=panel.get("row", 0),
            col=panel.get("col", 0),
            kind=kind,
            distribution=panel.get("distribution", "random"),
            stored_params=panel.get("params", {}),
            stored_data=panel["data"],
            title=panel.get("title"),
            xlabel=panel.get("xlabel"),
            ylabel=panel.get("ylabel"),
            xscale=panel.get("xscale", "linear"),
            yscale=panel.get("yscale", "linear"),
            stored_style=panel.get("style", {}),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "row": self.row,
            "col": self.col,
            "kind": self.kind,
            "distribution": self.distribution,
            "params": self.stored_params,
            "data": self.stored_data,
            "title": self.title,
            "xlabel": self.xlabel,
            "ylabel": self.ylabel,
            "xscale": self.xscale,
            "yscale": self.yscale,
            "style": self.stored_style,
        }
