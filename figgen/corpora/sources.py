"""Read the arXiv jsonl source files: abstract records and full-text papers."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from figgen.errors import FiggenError

FULLTEXT_SOURCE = "unarxive-fulltext"
"""Source name given to full-text papers, whose records carry no ``source`` field."""


class AbstractRecord(BaseModel):
    """One arXiv metadata record: title and abstract, tagged with the sample it came from."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    source: str
    id: str | None = None
    title: str
    abstract: str
    categories: str = ""


class FulltextPaper(BaseModel):
    """One full-text paper: body paragraphs with inline math restored as ``$...$``."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str
    title: str
    license: str = ""
    paragraphs: list[str]


@dataclass(frozen=True)
class SourceFile:
    """What one source file held, for the provenance header."""

    name: str
    sha256: str
    abstracts: int
    papers: int


@dataclass
class Corpus:
    """All records of the source files, in file and line order."""

    files: list[SourceFile] = field(default_factory=list)
    abstracts: list[AbstractRecord] = field(default_factory=list)
    papers: list[FulltextPaper] = field(default_factory=list)


def read_sources(paths: Sequence[Path]) -> Corpus:
    """Read jsonl files whose lines are abstract records or full-text papers (mixing is fine).

    Raises:
        FiggenError: a file is missing or unreadable, or a line is not one of the two records.
    """
    corpus = Corpus()
    for path in paths:
        data = _read_bytes(path)
        abstracts, papers = _parse_lines(path, data)
        corpus.abstracts.extend(abstracts)
        corpus.papers.extend(papers)
        corpus.files.append(
            SourceFile(
                name=path.name,
                sha256=hashlib.sha256(data).hexdigest(),
                abstracts=len(abstracts),
                papers=len(papers),
            )
        )
    return corpus


def _read_bytes(path: Path) -> bytes:
    if not path.is_file():
        raise FiggenError(f"corpus source {path} does not exist or is not a file; pass jsonl files")
    try:
        return path.read_bytes()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise FiggenError(
            f"cannot read corpus source {path} ({reason}); check its permissions"
        ) from None


def _parse_lines(path: Path, data: bytes) -> tuple[list[AbstractRecord], list[FulltextPaper]]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise FiggenError(f"corpus source {path} is not UTF-8 text; pass jsonl files") from None
    abstracts: list[AbstractRecord] = []
    papers: list[FulltextPaper] = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            raw = json.loads(line)
        except json.JSONDecodeError:
            raise FiggenError(f"{where} is not valid JSON; each line must be one record") from None
        if not isinstance(raw, dict):
            raise FiggenError(f"{where} is not a JSON object; each line must be one record")
        try:
            if "paragraphs" in raw:
                papers.append(FulltextPaper.model_validate(raw))
            else:
                abstracts.append(AbstractRecord.model_validate(raw))
        except ValidationError as exc:
            fields = ", ".join(str(error["loc"][0]) for error in exc.errors() if error["loc"])
            raise FiggenError(
                f"{where} lacks valid fields ({fields}); a record needs source, title and "
                "abstract, or id, title and paragraphs"
            ) from None
    return abstracts, papers
