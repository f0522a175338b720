"""The parquet schema of the HuggingFace export: its ``figures``, ``qa`` and ``descriptions``.

``figures`` (one row per figure, with every element's box) is the record's own table, shared
with sharded builds (:mod:`figgen.schema.figure_row`); ``qa`` has one row per question and
``descriptions`` one per reference description (alt text beside it), each with its figure's
image. Answers of mixed type are stored as JSON strings so one schema fits every row.
"""

from __future__ import annotations

import json
from typing import Any

from datasets import Features, Image, List, Value

from figgen.schema.figure_row import FIGURE_FEATURES, figure_row, image_cell
from figgen.schema.qa_item import QAItem

__all__ = [
    "CONFIG_FEATURES",
    "DESCRIPTION_FEATURES",
    "FIGURE_FEATURES",
    "QA_FEATURES",
    "description_row",
    "figure_row",
    "item_from_qa_row",
    "qa_row",
]

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
        "axis_span": Value("float64"),
    }
)
"""Columns of the ``qa`` config; ``answer`` is the item's answer as JSON, ``axis_span`` null
but for items scored against the axis span."""

DESCRIPTION_FEATURES = Features(
    {
        "image": Image(),
        "figure_id": Value("string"),
        "scope": Value("string"),
        "panel": Value("int32"),
        "location": Value("string"),
        "level": Value("int8"),
        "alt_text": Value("string"),
        "text": Value("string"),
    }
)
"""Columns of the ``descriptions`` config: one row per line of ``descriptions.jsonl``."""

CONFIG_FEATURES: dict[str, Features] = {
    "figures": FIGURE_FEATURES,
    "qa": QA_FEATURES,
    "descriptions": DESCRIPTION_FEATURES,
}


def qa_row(item: QAItem, png_bytes: bytes) -> dict[str, Any]:
    """One ``qa`` row from a question item and its figure's PNG."""
    return {
        "image": image_cell(item.figure_id, png_bytes),
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
        "axis_span": item.axis_span,
    }


def description_row(row: dict[str, Any], png_bytes: bytes) -> dict[str, Any]:
    """One ``descriptions`` row from a line of ``descriptions.jsonl`` and its figure's PNG."""
    return {"image": image_cell(row["figure_id"], png_bytes)} | {
        key: row.get(key) for key in DESCRIPTION_FEATURES if key != "image"
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
        axis_span=row.get("axis_span"),
    )
