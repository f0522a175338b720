"""The per-figure record: spec + image facts + measured elements + repair log, as one JSON.

Everything downstream (questions, evaluation, export) reads records, never live matplotlib
objects. Field names follow ``shared/DESIGN.md``.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from packaging.version import InvalidVersion, Version

from figgen._util.plain import field_names as field_names
from figgen.errors import FiggenError
from figgen.schema.spec import FigureSpec

ElementKind = str
"""An element kind: one of the shared layout and text kinds of :mod:`figgen.schema.elements` or
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
) -> dict[str, Any]:
    """Assemble the record dict (ready for ``json.dumps``) for one rendered figure."""
    spec_dict = spec.to_dict()
    return {
        "id": spec.id,
        "seed": spec.seed,
        "index": spec.index,
        "attempt": spec.attempt,
        "generator": {"name": "figgen", "version": generator_version},
        "image": {
            "file": image_file,
            "width": width,
            "height": height,
            "dpi": spec.dpi,
            "width_in": spec.width_in,
            "height_in": spec.height_in,
            "panel_aspect": spec.panel_aspect,
        },
        "layout": spec_dict["layout"],
        "style": spec_dict["style"],
        "panels": spec_dict["panels"],
        "elements": [element.to_dict() for element in elements],
        "repair": repair,
    }


def spec_from_record(record: dict[str, Any]) -> FigureSpec:
    """Rebuild the exact spec a record was rendered from."""
    return FigureSpec.from_dict(
        {
            "id": record["id"],
            "seed": record["seed"],
            "index": record["index"],
            "attempt": record.get("attempt", 0),
            "width_in": record["image"]["width_in"],
            "height_in": record["image"]["height_in"],
            "dpi": record["image"]["dpi"],
            "panel_aspect": record["image"]["panel_aspect"],
            "layout": record["layout"],
            "style": record["style"],
            "panels": record["panels"],
        }
    )


def dumps_record(record: dict[str, Any]) -> str:
    """Serialize a record the one canonical way (stable key order, compact, UTF-8)."""
    return json.dumps(record, ensure_ascii=False, separators=(",", ":"))


REGENERATE = "delete it and run the same `figgen build` again to regenerate it"


def parse_record(data: str | bytes, source: str) -> dict[str, Any]:
    """A record from its stored JSON; a damaged, foreign or too new one is a one-line error.

    ``source`` names the file in the message.
    """
    try:
        record = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FiggenError(f"record {source} is damaged ({exc}); {REGENERATE}") from None
    if not isinstance(record, dict):
        raise FiggenError(f"{source} is not a figure record (not an object); {REGENERATE}")
    for key, kind in (("id", str), ("layout", dict), ("panels", list), ("image", dict)):
        if not isinstance(record.get(key), kind):
            raise FiggenError(f"{source} is not a figure record (bad {key!r}); {REGENERATE}")
    generator = record.get("generator")
    written_by = generator.get("version") if isinstance(generator, dict) else None
    check_version(written_by, f"record {source}")
    return record


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


def load_record(path: str | Path) -> dict[str, Any]:
    """Read one record file (see :func:`parse_record`)."""
    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise FiggenError(f"cannot read record {path}: {exc.strerror or exc}") from None
    return parse_record(data, str(path))
