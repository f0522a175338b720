"""A figure record as one parquet row: the ``figures`` table of sharded builds and the export.

Boxes are PNG pixels ``[x0, y0, x1, y1]``, origin top-left. Nested values that vary by plot
kind (``panels``) are stored as JSON strings so one schema fits every row.
"""

from __future__ import annotations

import json
from typing import Any

from datasets import Features, Image, List, Value

from figgen.schema.record import Record

ELEMENT_FEATURE = {
    "id": Value("int32"),
    "kind": Value("string"),
    "panel": Value("int32"),
    "bbox": List(Value("float64"), length=4),
    "text": Value("string"),
    "visible": Value("bool"),
    "visible_fraction": Value("float64"),
    "occluded_by": List(Value("string")),
    "empty": Value("bool"),
}
"""An element's box and text; for data marks what the picture shows of it (null elsewhere)."""

FIGURE_FEATURES = Features(
    {
        "image": Image(),
        "figure_id": Value("string"),
        "seed": Value("int64"),
        "index": Value("int64"),
        "width": Value("int32"),
        "height": Value("int32"),
        "dpi": Value("int32"),
        "n_panels": Value("int32"),
        "rows": Value("int32"),
        "cols": Value("int32"),
        "arrangement": Value("string"),
        "plot_kinds": List(Value("string")),
        "panels": Value("string"),
        "elements": List(ELEMENT_FEATURE),
    }
)
"""Columns of the ``figures`` config; ``panels`` is the record's panel list as JSON."""


def image_cell(figure_id: str, png_bytes: bytes) -> dict[str, Any]:
    return {"bytes": png_bytes, "path": f"{figure_id}.png"}


def figure_row(record: Record, png_bytes: bytes) -> dict[str, Any]:
    """One ``figures`` row from a figure record and its PNG."""
    layout = record.layout
    panels = [panel.to_dict() for panel in record.panels]
    return {
        "image": image_cell(record.id, png_bytes),
        "figure_id": record.id,
        "seed": record.seed,
        "index": record.index,
        "width": record.image.width,
        "height": record.image.height,
        "dpi": record.image.dpi,
        "n_panels": layout.n_panels,
        "rows": layout.rows,
        "cols": layout.cols,
        "arrangement": layout.arrangement,
        "plot_kinds": [panel.kind for panel in record.panels],
        "panels": json.dumps(panels, ensure_ascii=False, separators=(",", ":")),
        "elements": [
            {
                "id": element.id,
                "kind": element.kind,
                "panel": element.panel,
                "bbox": [float(v) for v in element.bbox],
                "text": element.text,
                "visible": element.visible,
                "visible_fraction": element.visible_fraction,
                "occluded_by": element.occluded_by,
                "empty": element.empty,
            }
            for element in record.elements
        ],
    }
