"""The per-figure record: spec + image facts + measured elements + repair log, as one type.

The build makes a :class:`Record` from the rendered spec (:func:`make_record`) and writes it as
JSON (:meth:`Record.to_json`); everything downstream (questions, evaluation, export) reads it
back with :func:`read_record` or :func:`open_record`, never live matplotlib objects.
``Record.from_dict`` reads the stored object and ``to_dict`` gives back the same object, key
for key and in the same order, so ``Record.from_dict(d).to_json()`` is the stored JSON. Field
names follow ``shared/DESIGN.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from packaging.version import InvalidVersion, Version

from figgen._util.plain import as_plain_dict
from figgen.errors import FiggenError
from figgen.schema.elements import Element
from figgen.schema.panel import PanelRecord
from figgen.schema.spec import FigureSpec, FigureStyle, FontSizes, LayoutSpec


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
    """One figure's stored record: spec, image facts, measured elements and repair log.

    The build writes it (:func:`make_record`, then :meth:`to_json`) and every reader reads it
    (:func:`read_record`, :func:`open_record`), so both sides use this one type.
    """

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

    def to_json(self) -> str:
        """The stored JSON, the one canonical way (stable key order, compact, UTF-8)."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))

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
    """A typed record, reading a stored dict (for the public functions that accept either)."""
    return record if isinstance(record, Record) else Record.from_dict(record)


def figure_id(index: int) -> str:
    return f"fig-{index:06d}"


def make_record(
    spec: FigureSpec,
    *,
    elements: list[Element],
    width: int,
    height: int,
    repair: dict[str, Any],
    generator_version: str,
    image_file: str,
) -> Record:
    """The record of one rendered figure: ``spec`` (copied, so the record shares nothing with
    it), the PNG's size and file, the measured ``elements`` and the ``repair`` log."""
    style = as_plain_dict(spec.style)
    sizes = Sizes(**style.pop("sizes"))
    return Record(
        id=spec.id,
        seed=spec.seed,
        index=spec.index,
        attempt=spec.attempt,
        generator=Generator("figgen", generator_version),
        image=Image(
            file=image_file,
            width=width,
            height=height,
            dpi=spec.dpi,
            width_in=spec.width_in,
            height_in=spec.height_in,
            panel_aspect=spec.panel_aspect,
        ),
        layout=Layout(**as_plain_dict(spec.layout)),
        style=Style(sizes=sizes, **style),
        panels=[PanelRecord.from_dict(as_plain_dict(panel)) for panel in spec.panels],
        elements=list(elements),
        repair=repair,
    )


def spec_from_record(record: Record) -> FigureSpec:
    """Rebuild the exact spec a record was rendered from (sharing nothing with the record)."""
    image = record.image
    return FigureSpec.from_dict(
        {
            "id": record.id,
            "seed": record.seed,
            "index": record.index,
            "attempt": record.attempt,
            "width_in": image.width_in,
            "height_in": image.height_in,
            "dpi": image.dpi,
            "panel_aspect": image.panel_aspect,
            "layout": as_plain_dict(record.layout),
            "style": as_plain_dict(record.style),
            "panels": [panel.to_dict() for panel in record.panels],
        }
    )


REGENERATE = "delete it and run the same `figgen build` again to regenerate it"

_REQUIRED = (("id", str), ("layout", dict), ("panels", list), ("image", dict))


def read_record(data: str | bytes, source: str) -> Record:
    """A record from its stored JSON; a damaged, foreign or too new one is a one-line error.

    ``source`` names the file in the message.
    """
    try:
        stored = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FiggenError(f"record {source} is damaged ({exc}); {REGENERATE}") from None
    if not isinstance(stored, dict):
        raise FiggenError(f"{source} is not a figure record (not an object); {REGENERATE}")
    for key, kind in _REQUIRED:
        if not isinstance(stored.get(key), kind):
            raise FiggenError(f"{source} is not a figure record (bad {key!r}); {REGENERATE}")
    generator = stored.get("generator")
    written_by = generator.get("version") if isinstance(generator, dict) else None
    check_version(written_by, f"record {source}")
    try:
        return Record.from_dict(stored)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        # a part of the right type but the wrong shape (an image without its file)
        missing = f"no {exc}" if isinstance(exc, KeyError) else " ".join(str(exc).split())
        raise FiggenError(f"{source} is not a figure record ({missing}); {REGENERATE}") from None


def open_record(path: str | Path) -> Record:
    """Read one record file (see :func:`read_record`)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise FiggenError(f"cannot read record {path}: {exc.strerror or exc}") from None
    return read_record(data, str(path))


def check_version(written_by: object, what: str) -> None:
    """Refuse data that a newer figgen wrote: its fields may mean what this one cannot read."""
    from figgen._util.version import __version__

    if not isinstance(written_by, str) or not __version__[0].isdigit():
        return  # unversioned data, or a source tree without installed metadata
    try:
        newer = Version(written_by) > Version(__version__)
    except InvalidVersion:  # not a release number (hand-made data): nothing to compare
        return
    if newer:
        raise FiggenError(
            f"{what} was written by figgen {written_by}, newer than this figgen {__version__}; "
            "upgrade with `pip install -U figgen`"
        )
