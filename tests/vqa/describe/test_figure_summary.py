"""Figure-level text for listening: within the word budget, no repeats, alt text whole."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from figgen.config.load import FigureConfig
from figgen.schema.record import Record
from figgen.vqa import describe_record
from figgen.vqa.describe.alt_text import MAX_ALT
from figgen.vqa.describe.figure_summary import WORD_BUDGET
from figgen.words.spoken import spoken
from tests.vqa.records import composed_records

WORDS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")
CLAUSE = re.compile(r"(?<=[.;])\s+")


@pytest.fixture(scope="module")
def described() -> list[tuple[Record, list[dict[str, Any]]]]:
    records = composed_records(FigureConfig(), 23, 30)  # the default mix: up to 25 panels
    return [(record, describe_record(record)) for record in records]


def test_figure_levels_2_and_3_keep_the_word_budget(described: list) -> None:
    many = 0
    for record, rows in described:
        for row in rows:
            if row["scope"] == "figure" and row["level"] in (2, 3):
                assert len(row["text"].split()) <= WORD_BUDGET, row["text"]
        many += len(record.panels) >= 9
    assert many >= 5  # the budget was tested where panel-by-panel text would break it


def test_figure_level1_keeps_the_word_budget_with_whole_titles(described: list) -> None:
    cut = 0
    for record, rows in described:
        text = next(r["text"] for r in rows if r["scope"] == "figure" and r["level"] == 1)
        assert len(text.split()) <= WORD_BUDGET, text
        titles = [spoken(p.title) for p in record.panels if p.title]
        said = [t for t in titles if f'"{t}"' in text]
        assert said == titles[: len(said)]  # whole titles, in panel order
        left = len(titles) - len(said)
        if left and said:
            cut += 1
            said_left = re.search(r"; and (\w+) more titled panels?\.$", text)
            assert said_left and said_left.group(1) in (str(left), WORDS[left] if left < 11 else "")
    assert cut >= 1  # some figures had more titles than the budget holds


def test_no_text_says_a_sentence_or_clause_twice(described: list) -> None:
    for _, rows in described:
        for row in rows:
            parts = [p.rstrip(".;").split(": ", 1)[-1].lower() for p in CLAUSE.split(row["text"])]
            repeated = [p for p, n in Counter(parts).items() if n > 1]
            assert not repeated, (repeated, row["text"])


def test_multi_panel_figures_say_what_the_panels_share(described: list) -> None:
    summaries = [
        row["text"]
        for record, rows in described
        for row in rows
        if row["scope"] == "figure" and row["level"] == 3 and len(record.panels) > 3
    ]
    assert summaries
    shared = re.compile(r"^(All|Both|\w+ of the \d+ panels|The .+? panels?) ")
    assert all(shared.match(text) for text in summaries), summaries[:3]


def test_alt_texts_are_whole(described: list) -> None:
    for record, rows in described:
        names = {
            spoken(text) for p in record.panels for text in (p.title, p.xlabel, p.ylabel) if text
        }
        for alt in {row["alt_text"] for row in rows}:
            assert 0 < len(alt) <= MAX_ALT and "..." not in alt, alt
            assert alt.count('"') % 2 == 0, alt
            assert all(q in names for q in alt.split('"')[1::2]), alt
            assert alt.endswith("."), alt
