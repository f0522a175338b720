"""The per-figure record: spec + image facts + measured elements + repair log, as one JSON.

Everything downstream (questions, evaluation, export) reads records, never live matplotlib
objects. Field names follow ``shared/DESIGN.md``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from figgen.spec import FigureSpec

ElementKind = Literal[
    "figure",
    "panel",
    "title",
    "xlabel",
    "ylabel",
    "xtick_label",
    "ytick_label",
    "offset_text",
    "legend",
    "legend_entry",
    "colorbar",
    "colorbar_label",
    "colorbar_tick_label",
    "line",
    "marker",
    "errorbar",
    "bar",
    "point",
    "contour_level",
    "contour_band",
]

TEXT_KINDS: frozenset[str] = frozenset(
    {
        "title",
        "xlabel",
        "ylabel",
        "xtick_label",
        "ytick_label",
        "offset_text",
        "colorbar_label",
        "colorbar_tick_label",
        "legend_entry",
    }
)
"""Kinds whose element carries a ``text`` field."""

LAYOUT_KINDS: frozenset[str] = frozenset({"figure", "panel", "legend", "colorbar"})
"""Kinds that frame the figure; every other non-text kind is a data mark."""

BBox = tuple[float, float, float, float]


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

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "kind": self.kind,
            "panel": self.panel,
            "bbox": list(self.bbox),
        }
        for key in ("text", "value", "series", "item", "axis"):
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


def load_record(path: str | Path) -> dict[str, Any]:
    return json.loads(Path(path).read_text(encoding="utf-8"))  # type: ignore[no-any-return]
