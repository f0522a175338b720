"""The parquet schema shared by the HuggingFace export and sharded builds.

Two configs: ``figures`` (one row per figure, with every element's box) and ``qa`` (one row
per question, with its figure's image). Boxes are PNG pixels ``[x0, y0, x1, y1]``, origin
top-left. Nested values that vary by plot kind (``panels``) and answers of mixed type are
stored as JSON strings so one schema fits every row.
"""

from __future__ import annotations

import json
from typing import Any

from datasets import Features, Image, List, Value

from figgen.vqa.item import QAItem

ELEMENT_FEATURE = {
    "id": Value("int32"),
    "kind": Value("string"),
    "panel": Value("int32"),
    "bbox": List(Value("float64"), length=4),
    "text": Value("string"),
}

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

QA_FEATURES = Features(
    {
        "image": Image(),
        "qid": Value("string"),
        "figure_id": Value("string"),
        "question": Value("string"),
        "answer": Value("string"),
        "answer_type": Value("string"),
        "answer_key": Value("string"),
        "level": Value("int8"),
        "scope": Value("string"),
        "family": Value("string"),
        "panel": Value("int32"),
        "location": Value("string"),
        "metric": Value("string"),
        "choices": List(Value("string")),
        "evidence": List(Value("int32")),
    }
)
"""Columns of the ``qa`` config; ``answer`` is the item's answer as JSON."""

CONFIG_FEATURES: dict[str, Features] = {"figures": FIGURE_FEATURES, "qa": QA_FEATURES}


def _image_cell(figure_id: str, png_bytes: bytes) -> dict[str, Any]:
    return {"bytes": png_bytes, "path": f"{figure_id}.png"}


def figure_row(record: dict[str, Any], png_bytes: bytes) -> dict[str, Any]:
    """One ``figures`` row from a figure record and its PNG."""
    layout = record["layout"]
    return {
        "image": _image_cell(record["id"], png_bytes),
        "figure_id": record["id"],
        "seed": record["seed"],
        "index": record["index"],
        "width": record["image"]["width"],
        "height": record["image"]["height"],
        "dpi": record["image"]["dpi"],
        "n_panels": layout["n_panels"],
        "rows": layout["rows"],
        "cols": layout["cols"],
        "arrangement": layout["arrangement"],
        "plot_kinds": [panel["kind"] for panel in record["panels"]],
        "panels": json.dumps(record["panels"], ensure_ascii=False, separators=(",", ":")),
        "elements": [
            {
                "id": element["id"],
                "kind": element["kind"],
                "panel": element.get("panel"),
                "bbox": [float(v) for v in element["bbox"]],
                "text": element.get("text"),
            }
            for element in record["elements"]
        ],
    }


def qa_row(item: QAItem, png_bytes: bytes) -> dict[str, Any]:
    """One ``qa`` row from a question item and its figure's PNG."""
    return {
        "image": _image_cell(item.figure_id, png_bytes),
        "qid": item.qid,
        "figure_id": item.figure_id,
        "question": item.question,
        "answer": json.dumps(item.answer, ensure_ascii=False),
        "answer_type": item.answer_type,
        "answer_key": item.answer_key,
        "level": item.level,
        "scope": item.scope,
        "family": item.family,
        "panel": item.panel,
        "location": item.location,
        "metric": item.metric,
        "choices": item.choices,
        "evidence": list(item.evidence),
    }


def item_from_qa_row(row: dict[str, Any]) -> QAItem:
    """The question item a ``qa`` row was made from (the image is dropped)."""
    return QAItem(
        qid=row["qid"],
        figure_id=row["figure_id"],
        level=row["level"],
        scope=row["scope"],
        panel=row["panel"],
        location=row["location"],
        family=row["family"],
        question=row["question"],
        answer=json.loads(row["answer"]),
        answer_type=row["answer_type"],
        answer_key=row["answer_key"],
        metric=row["metric"],
        choices=row["choices"],
        evidence=list(row["evidence"] or []),
    )
