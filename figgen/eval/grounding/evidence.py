"""The boxes and points a question's evidence occupies, from the record's element boxes.

Every QA item lists the ids of the elements that answer it (``evidence``). For grounding the
elements become *regions*: the marks of one panel and series (bars, points, markers, a line
and its error bars, contour levels) merge into the box that encloses them, the tick labels of
one axis into one box, the entries of a legend into one box; every other element (a panel's
plot area, a title, an axis label, a colour bar) is a region of its own. For pointing each
element gives its centre, except lines and contours, whose box centre is usually off the ink:
they are dropped where other evidence remains and make the item unpointable where none does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from figgen.eval.grounding.geometry import Box, Point, centre, enclosing
from figgen.schema.elements import Element
from figgen.schema.qa_item import QAItem
from figgen.schema.record import Record

if TYPE_CHECKING:
    from figgen.kinds import ElementTables


@dataclass(frozen=True)
class EvidenceTarget:
    """A question's evidence as boxes (grounding) and points (pointing), in one image's pixels.

    ``width`` and ``height`` are the size of that image; ``in_image`` rescales to another.
    """

    boxes: tuple[Box, ...]
    points: tuple[Point, ...]
    width: int
    height: int

    def in_image(self, width: int, height: int) -> EvidenceTarget:
        """The same target in pixels of the image resized to ``width`` x ``height``."""
        sx, sy = width / self.width, height / self.height
        return EvidenceTarget(
            tuple((b[0] * sx, b[1] * sy, b[2] * sx, b[3] * sy) for b in self.boxes),
            tuple((p[0] * sx, p[1] * sy) for p in self.points),
            width,
            height,
        )


def _region_key(element: Element, tables: ElementTables) -> tuple[Any, ...]:
    """Which region an element joins: its panel's marks of its series (the kinds' declared
    evidence marks), its panel's texts of one group (tick labels, legend entries), or its own."""
    kind = element.kind
    if kind in tables.marks:
        return (element.panel, "marks", element.series)
    if kind in tables.text_groups:
        return (element.panel, tables.text_groups[kind])
    return ("element", element.id)


def _box(element: Element) -> Box:
    x0, y0, x1, y1 = (float(v) for v in element.bbox)
    return (x0, y0, x1, y1)


_INDEXES: dict[int, tuple[Record, dict[int, Element]]] = {}
_INDEXES_KEPT = 64


def _elements_by_id(record: Record) -> dict[int, Element]:
    """The record's elements by id, built once per record (scoring asks ~100 items each)."""
    hit = _INDEXES.get(id(record))
    if hit is not None and hit[0] is record:  # the record is held, so its id is not reused
        return hit[1]
    if len(_INDEXES) >= _INDEXES_KEPT:
        _INDEXES.pop(next(iter(_INDEXES)))
    by_id = {e.id: e for e in record.elements}
    _INDEXES[id(record)] = (record, by_id)
    return by_id


def evidence_target(record: Record, item: QAItem) -> EvidenceTarget | None:
    """The evidence of ``item`` in pixels of the record's PNG; None when it has none."""
    from figgen.kinds import element_tables

    by_id = _elements_by_id(record)
    elements = [by_id[i] for i in item.evidence if i in by_id]
    if not elements:
        return None
    tables = element_tables()
    regions: dict[tuple[Any, ...], list[Box]] = {}
    for element in elements:
        regions.setdefault(_region_key(element, tables), []).append(_box(element))
    on_ink = [e for e in elements if e.kind not in tables.off_ink]
    return EvidenceTarget(
        boxes=tuple(enclosing(boxes) for boxes in regions.values()),
        points=tuple(centre(_box(e)) for e in on_ink),
        width=record.image.width,
        height=record.image.height,
    )
