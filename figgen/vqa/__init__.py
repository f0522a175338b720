"""Level 1-3 question/answer items and reference descriptions derived from figure records.

The names below load on first use, so a plot kind can import :mod:`figgen.vqa.api.families` (to
declare its question families) without pulling in the question builders, which import the kinds.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from figgen.schema.qa_item import QAItem
    from figgen.vqa.api.location import panel_location, parse_location
    from figgen.vqa.describe.describe import describe_record
    from figgen.vqa.files import qa_counts, write_qa
    from figgen.vqa.questions.builder import questions_for_record

_HOME = {
    "QAItem": "figgen.schema.qa_item",
    "describe_record": "figgen.vqa.describe.describe",
    "panel_location": "figgen.vqa.api.location",
    "parse_location": "figgen.vqa.api.location",
    "qa_counts": "figgen.vqa.files",
    "questions_for_record": "figgen.vqa.questions.builder",
    "write_qa": "figgen.vqa.files",
}

__all__ = [
    "QAItem",
    "describe_record",
    "panel_location",
    "parse_location",
    "qa_counts",
    "questions_for_record",
    "write_qa",
]


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module 'figgen.vqa' has no attribute {name!r}")
    return getattr(import_module(_HOME[name]), name)
