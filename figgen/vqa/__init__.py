"""Level 1-3 question/answer items and reference descriptions derived from figure records."""

from figgen.vqa.builder import questions_for_record
from figgen.vqa.describe import describe_record
from figgen.vqa.files import qa_counts, write_qa
from figgen.vqa.item import QAItem
from figgen.vqa.location import panel_location, parse_location

__all__ = [
    "QAItem",
    "describe_record",
    "panel_location",
    "parse_location",
    "qa_counts",
    "questions_for_record",
    "write_qa",
]
