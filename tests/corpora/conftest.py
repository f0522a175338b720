"""Shared fixtures for the corpus tests: the tiny hand-written source files."""

from __future__ import annotations

from pathlib import Path

import pytest

DATA = Path(__file__).parent / "data"


@pytest.fixture
def tiny_sources() -> list[Path]:
    """Four abstract records in two sources, and one full-text paper (see test_corpus_build.py)."""
    return [DATA / "tiny_abstracts.jsonl", DATA / "tiny_fulltext.jsonl"]
