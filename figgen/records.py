"""The stored record as typed values: read once into these classes, written back exactly.

``Record.from_dict`` reads the JSON object of one figure (see :mod:`figgen.record` for how it
is made and checked); ``to_dict`` gives back the same object, key for key and in the same
order, so ``dumps_record(Record.from_dict(d).to_dict()) == dumps_record(d)``. A panel's
``data`` is its kind's :class:`PanelData`; the kinds register those classes here
(:func:`panel_data`), so this module names no kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Self, TypeVar

from figgen.plain import as_plain_dict
from figgen.record import Element, KeyedFields, field_names, load_record, parse_record
from figgen.registry import Registry
from figgen.spec import Distribution, FigureStyle, FontSizes, LayoutSpec, Scale


class PanelData(KeyedFields):
    """Base of a kind's typed ``data``: a dataclass whose ``to_dict`` is exactly what the record
    stores, and whose ``from_dict`` reads a stored panel (keys a record lacks take defaults)."""

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        names = field_names(cls)
        return cls(**{key: value for key, value in data.items() if key in names})

    def to_dict(self) -> dict[str, Any]:
        return as_plain_dict(self)


PANEL_DATA: Registry[type[PanelData]] = Registry("plot kind")
"""Each kind's ``data`` class, by kind name; the kind modules fill it."""

D = TypeVar("D", bound=PanelData)


def panel_data(kind: str) -> Callable[[type[D]], type[D]]:
    """``@panel_data("line")``: register the decorated class as the ``data`` of ``kind``."""

    def decorate(cls: type[D]) -> type[D]:
        PANEL_DATA.add(kind, cls)
        return cls

    return decorate


def _data_class(kind: str) -> type[PanelData]:
    # the kind modules register their classes when figgen.kinds is imported; this module sits
    # below the kinds and does not import them, so a reader of records imports figgen.kinds
    if not PANEL_DATA:
        raise RuntimeError("no plot kinds are loaded: import figgen.kinds before reading records")
    return PANEL_DATA.get_or_fail(kind)


@dataclass
class Generator(KeyedFields):
    name: str
    version: str


@dataclass
class Image(KeyedFields):
    """The PNG beside the record: its file, pixel size and the figure size it was drawn at."""

    file: str
    width: int
    height: int
    dpi: int
    width_in: float
    height_in: float
    panel_aspect: float


@dataclass
class PanelRecord(KeyedFields):
    """One stored panel: where it sits, what it draws (typed ``data``) and how it looks.

    ``data`` is read into the kind's :class:`PanelData` when first used (evaluation and export
    never use it); ``stored_data`` is the stored dict, which :meth:`to_dict` writes back.
    """

    index: int
    row: int
    col: int
    kind: str
    distribution: Distribution
    params: dict[str, Any]
    stored_data: dict[str, Any]
    title: str | None
    xlabel: str | None
    ylabel: str | None
    xscale: Scale
    yscale: Scale
    style: dict[str, Any]
    _data: PanelData | None = field(default=None, init=False, repr=False, compare=False)

    @property
    def data(self) -> PanelData:
        """The drawn numbers as the kind's typed data (read-only: records are not edited)."""
        if self._data is None:
            self._data = _data_class(self.kind).from_dict(self.stored_data)
        return self._data

    def data_as(self, cls: type[D]) -> D:
        """The panel's ``data`` as the class its kind stores (a mismatch is a programming error)."""
        if not isinstance(self.data, cls):
            raise TypeError(
                f"panel {self.index} holds {type(self.data).__name__}, not {cls.__name__}"
            )
        return self.data

    @classmethod
    def from_dict(cls, panel: dict[str, Any]) -> PanelRecord:
        kind = panel["kind"]
        return cls(
            index=panel["index"],
            row=panel["row"],
            col=panel["col"],
            kind=kind,
            distribution=panel.get("distribution", "random"),
            params=panel.get("params", {}),
            stored_data=panel["data"],
            title=panel.get("title"),
            xlabel=panel.get("xlabel"),
            ylabel=panel.get("ylabel"),
            xscale=panel.get("xscale", "linear"),
            yscale=panel.get("yscale", "linear"),
            style=panel.get("style", {}),
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "row": self.row,
            "col": self.col,
            "kind": self.kind,
            "distribution": self.distribution,
            "params": self.params,
            "data": self.stored_data,
            "title": self.title,
            "xlabel": self.xlabel,
            "ylabel": self.ylabel,
            "xscale": self.xscale,
            "yscale": self.yscale,
            "style": self.style,
        }


@dataclass
class Layout(LayoutSpec, KeyedFields):
    """The grid of panels."""


@dataclass
class Sizes(FontSizes, KeyedFields):
    """Font sizes in points."""


@dataclass
class Style(FigureStyle, KeyedFields):
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
class Record(KeyedFields):
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
    """A typed record, reading a stored dict (as :func:`figgen.record.load_record` gives it)."""
    return record if isinstance(record, Record) else Record.from_dict(record)


def read_record(data: str | bytes, source: str) -> Record:
    """A typed record from its stored JSON (checked as :func:`figgen.record.parse_record` does)."""
    return Record.from_dict(parse_record(data, source))


def open_record(path: str | Path) -> Record:
    """Read one record file into a :class:`Record` (see :func:`figgen.record.load_record`)."""
    return Record.from_dict(load_record(path))


# ---- perturbed copies (figgen.perturb) -----------------------------------------------------


@dataclass
class SourceImage(KeyedFields):
    """The size of the clean image a perturbed copy was made from."""

    width: int
    height: int


@dataclass
class Perturbation(KeyedFields):
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
