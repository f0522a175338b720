"""Reading source files: both record shapes, and a one-line error for each bad input."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from figgen.corpora.sources import read_sources
from figgen.errors import FiggenError


def test_reads_both_record_shapes(tiny_sources: list[Path]) -> None:
    corpus = read_sources(tiny_sources)

    assert [record.source for record in corpus.abstracts] == ["cs-ml-sample"] * 3 + [
        "astro-ph-sample"
    ]
    assert corpus.abstracts[0].id is None  # the cs-ml sample has no ids
    assert [len(paper.paragraphs) for paper in corpus.papers] == [11]
    assert [(source.name, source.abstracts, source.papers) for source in corpus.files] == [
        ("tiny_abstracts.jsonl", 4, 0),
        ("tiny_fulltext.jsonl", 0, 1),
    ]
    assert all(len(source.sha256) == 64 for source in corpus.files)


def test_one_file_may_mix_shapes_and_blank_lines(tmp_path: Path) -> None:
    mixed = tmp_path / "mixed.jsonl"
    records = [
        {"source": "s", "title": "t", "abstract": "a"},
        {"id": "p", "title": "t", "paragraphs": ["one", "two"]},
    ]
    mixed.write_text("\n".join(json.dumps(record) for record in records) + "\n\n", "utf-8")

    corpus = read_sources([mixed])

    assert (len(corpus.abstracts), len(corpus.papers)) == (1, 1)


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (
            b'{"source": "s", "title": "t", "abstract": "a"}\n{not json}\n',
            r"bad\.jsonl:2 is not valid JSON",
        ),
        (b"[1, 2]\n", r"bad\.jsonl:1 is not a JSON object"),
        (b'{"source": "s", "title": "t"}\n', r"bad\.jsonl:1 lacks valid fields \(abstract\)"),
        (
            b'{"id": "p", "title": "t", "paragraphs": "text"}\n',
            r"lacks valid fields \(paragraphs\)",
        ),
        (b"\xff\xfe\n", r"bad\.jsonl is not UTF-8 text"),
    ],
)
def test_bad_content_is_one_line_error(tmp_path: Path, content: bytes, message: str) -> None:
    bad = tmp_path / "bad.jsonl"
    bad.write_bytes(content)

    with pytest.raises(FiggenError, match=message) as error:
        read_sources([bad])

    assert "\n" not in str(error.value)


def test_directory_is_not_a_source(tmp_path: Path) -> None:
    with pytest.raises(FiggenError, match="is not a file"):
        read_sources([tmp_path])
