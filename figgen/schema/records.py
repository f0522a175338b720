"""The stored record as typed values: read once into these classes, written back exactly.

``Record.from_dict`` reads the JSON object of one figure (see :mod:`figgen.schema.record` for how it
is made and checked); ``to_dict`` gives back the same object, key for key and in the same
order, so ``dumps_record(Record.from_dict(d).to_dict()) == dumps_record(d)``. A panel's
``data`` is its kind's :class:`PanelData`; the kinds register those classes here
(:func:`panel_data`), so this module names no kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any, ClassVar, Self, TypeVar

from figgen._util.plain import as_plain_dict
from figgen._util.registry import Registry
from figgen.schema.params import PanelParams, read_params
from figgen.schema.record import BBox, Element, as_bbox, field_names, load_record, parse_record
from figgen.schema.spec import Distribution, FigureStyle, FontSizes, LayoutSpec, Scale


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
class Generator:
    name: str
    version: str


@dataclass
class Image:
    """The PNG beside the record: its file, pixel size and the figure size it was drawn at."""

    file: str
    width: int
    height: int
    dpi: int
    width_in: float
    height_in: float
    panel_aspect: float


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


@dataclass
class Layout(LayoutSpec):
    """The grid of panels."""


@dataclass
class Sizes(FontSizes):
    """Font sizes in points."""


@dataclass
class Style(FigureStyle):
    """Figure-wide look (style sheet, fonts, dark)."""

    sizes: Sizes


_STYLE: dict[str, Any] = {
    "mpl_style": "default",
    "font_family": "DejaVu Sans",
    "mathtext_fontset": "dejavusans",
    "dark": False,
}
_SIZES = {"title": 10.0, "label": 10.0, "tick": 10.0, "colorbar": 10.0, "legend": 10.0}
_GENERATOR = {"name": "figgen", "version": "0"}


@dataclass
class Record:
    """One figure's stored record: spec, image facts, measured elements and repair log."""

    id: str
    seed: int
    index: int
    attempt: int
    generator: Generator
    image: Image
    layout: Layout
    style: Style
    panels: list[PanelRecord]
    elements: list[Element]
    repair: dict[str, Any]

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> Record:
        """Read a stored record; parts a hand-made or compound record (a density benchmark
        image) leaves out take neutral defaults, and keys outside the schema are not kept."""
        style = {**_STYLE, **record.get("style", {})}
        sizes = Sizes(**{**_SIZES, **style.pop("sizes", {})})
        image = record["image"]
        dpi = image.get("dpi", 100)
        return cls(
            id=record["id"],
            seed=record.get("seed", 0),
            index=record.get("index", 0),
            attempt=record.get("attempt", 0),
            generator=Generator(**record.get("generator", _GENERATOR)),
            image=Image(
                file=image["file"],
                width=image["width"],
                height=image["height"],
                dpi=dpi,
                width_in=image.get("width_in", image["width"] / dpi),
                height_in=image.get("height_in", image["height"] / dpi),
                panel_aspect=image.get("panel_aspect", 1.0),
            ),
            layout=Layout(**record["layout"]),
            style=Style(sizes=sizes, **style),
            panels=[PanelRecord.from_dict(panel) for panel in record["panels"]],
            elements=[Element.from_dict(element) for element in record.get("elements", [])],
            repair=record.get("repair", {}),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "seed": self.seed,
            "index": self.index,
            "attempt": self.attempt,
            "generator": as_plain_dict(self.generator),
            "image": as_plain_dict(self.image),
            "layout": as_plain_dict(self.layout),
            "style": as_plain_dict(self.style),
            "panels": [panel.to_dict() for panel in self.panels],
            "elements": [element.to_dict() for element in self.elements],
            "repair": self.repair,
        }

    def panel(self, index: int) -> PanelRecord:
        """The panel with this index."""
        for panel in self.panels:
            if panel.index == index:
                return panel
        raise KeyError(f"{self.id} has no panel {index}")

    @property
    def repaired(self) -> bool:
        """Whether overlap repair changed anything."""
        return bool(self.repair.get("actions"))

    @property
    def resampled(self) -> bool:
        """Whether the figure was drawn again from fresh numbers (repair was stuck)."""
        return bool(self.repair.get("resampled"))


def as_record(record: Record | dict[str, Any]) -> Record:
    """A typed record, reading a stored dict (as :func:`figgen.schema.record.load_record`
    gives it)."""
    return record if isinstance(record, Record) else Record.from_dict(record)


def read_record(data: str | bytes, source: str) -> Record:
    """A typed record from its stored JSON (checked as
    :func:`figgen.schema.record.parse_record` does)."""
    return Record.from_dict(parse_record(data, source))


def open_record(path: str | Path) -> Record:
    """Read one record file into a :class:`Record` (see
    :func:`figgen.schema.record.load_record`)."""
    return Record.from_dict(load_record(path))


# ---- perturbed copies (figgen.perturb) -----------------------------------------------------


@dataclass
class SourceImage:
    """The size of the clean image a perturbed copy was made from."""

    width: int
    height: int


@dataclass
class Perturbation:
    """What ``figgen perturb`` applied to one figure: its kind and label, the parameters with
    every value drawn, the seed, the 2x3 affine part of a warp (None: no warp)."""

    kind: str
    label: str
    params: dict[str, Any]
    seed: int
    matrix: list[list[float]] | None
    source_image: SourceImage

    @classmethod
    def from_dict(cls, stored: dict[str, Any]) -> Perturbation:
        return cls(**{**stored, "source_image": SourceImage(**stored["source_image"])})


@dataclass
class PerturbedRecord(Record):
    """A perturbed copy of a figure's record: the record's fields (image facts and boxes those
    of the perturbed image), then ``perturbation``, stored last."""

    perturbation: Perturbation

    @classmethod
    def of(cls, record: Record, perturbation: Perturbation, **changes: Any) -> PerturbedRecord:
        """``record`` with ``changes`` (e.g. ``elements=...``) and what was applied."""
        kept = {name: getattr(record, name) for name in field_names(Record)}
        return cls(**{**kept, **changes}, perturbation=perturbation)

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> PerturbedRecord:
        return cls.of(Record.from_dict(record), Perturbation.from_dict(record["perturbation"]))

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "perturbation": as_plain_dict(self.perturbation)}


# ---- the evidence of multi-chart questions (set_evidence.json) -----------------------------


@dataclass
class SetEvidenceEntry:
    """One question's evidence: the (set, mode) it is asked of and its (image index, box)
    pairs, the index counting the images in the order they are sent."""

    figure: str
    boxes: list[tuple[int, BBox]]


@dataclass
class SetEvidence:
    """Every (set, mode)'s image sizes and every multi-chart question's evidence, by qid."""

    sizes: dict[str, list[tuple[int, int]]]
    evidence: dict[str, SetEvidenceEntry]

    @classmethod
    def from_dict(cls, stored: dict[str, Any]) -> SetEvidence:
        sizes = {figure: [(w, h) for w, h in shown] for figure, shown in stored["sizes"].items()}
        evidence = {
            qid: SetEvidenceEntry(entry["figure"], [(i, as_bbox(b)) for i, *b in entry["boxes"]])
            for qid, entry in stored["evidence"].items()
        }
        return cls(sizes, evidence)

    def to_dict(self) -> dict[str, Any]:
        sizes = {figure: [[w, h] for w, h in shown] for figure, shown in self.sizes.items()}
        evidence = {
            qid: {"figure": entry.figure, "boxes": [[i, *box] for i, box in entry.boxes]}
            for qid, entry in self.evidence.items()
        }
        return {"sizes": sizes, "evidence": evidence}
