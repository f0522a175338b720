"""The answers file: one JSON row per question, appended and flushed as answers arrive."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import IO, Any

from figgen.errors import FiggenError
from figgen.schema.fingerprint import build_fingerprint


@dataclass
class AnswerRow:
    """What one question cost and what came back; ``error`` is set when no reply came."""

    qid: str
    model: str
    raw: str | None
    parsed: Any = None
    rejected: bool = False
    reason: str | None = None
    usage: dict[str, int] = field(default_factory=lambda: {"input_tokens": 0, "output_tokens": 0})
    """``input_tokens`` (all of them), ``output_tokens``, and of the input
    ``cached_input_tokens`` (read from the prompt cache) and ``cache_write_tokens``."""
    usage_estimated: bool = False
    """The reply reported no usage, so ``usage`` and ``cost_usd`` are the pre-flight estimate."""
    cost_usd: float = 0.0
    image_scale: float = 1.0
    image_size: list[int] | None = None
    image_media_type: str | None = None
    latency_s: float | None = None
    attempts: int = 0
    error: str | None = None
    prompt: str = "plain"
    batch: bool = False
    """Answered through a vendor's batch API (billed at its batch prices)."""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


def read_answers(path: str | Path) -> list[dict[str, Any]]:
    """All rows of an answers file; a last line cut off by a kill is skipped."""
    path = Path(path)
    if not path.is_file():
        return []
    rows = []
    with path.open(encoding="utf-8") as handle:
        for line in handle:
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                continue
            if isinstance(row, dict) and "qid" in row:
                rows.append(row)
    return rows


def latest_rows(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """One row per qid: the last reply, or the last error when no reply ever came."""
    best: dict[str, dict[str, Any]] = {}
    for row in rows:
        previous = best.get(row["qid"])
        if previous is None or row.get("error") is None or previous.get("error") is not None:
            best[row["qid"]] = row
    return best


def answered_qids(rows: list[dict[str, Any]], model: str, prompt: str = "plain") -> set[str]:
    """Questions that already have a reply; refuses a file of another model or prompt mode."""
    models = {row.get("model") for row in rows}
    others = models - {model}
    if others:
        raise FiggenError(
            f"the answers file holds answers of {sorted(map(str, others))[0]}, not {model}; "
            "use another --out"
        )
    modes = {row.get("prompt", "plain") for row in rows} - {prompt}
    if modes:
        raise FiggenError(
            f"the answers file holds {sorted(map(str, modes))[0]} answers, not {prompt}; "
            "use another --out"
        )
    return {row["qid"] for row in rows if row.get("error") is None}


class AnswerWriter:
    """Appends rows, flushing each, so a killed run keeps every finished answer.

    ``build`` (the dataset's fingerprint, :mod:`figgen.schema.fingerprint`) is written into
    every row, so scoring can refuse answers to another build.
    """

    def __init__(self, path: str | Path, *, build: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        self._build = build
        self.path.parent.mkdir(parents=True, exist_ok=True)
        needs_newline = (
            self.path.is_file()
            and self.path.stat().st_size > 0
            and (self.path.read_bytes()[-1:] != b"\n")
        )
        self._handle: IO[str] = self.path.open("a", encoding="utf-8")
        if needs_newline:  # a row cut off by a kill must not swallow the next one
            self._handle.write("\n")

    @classmethod
    def for_build(cls, path: str | Path, root: str | Path) -> AnswerWriter:
        """A writer whose rows carry the fingerprint of the build in ``root`` (if it has one)."""
        fingerprint = build_fingerprint(root)
        return cls(path, build=fingerprint.to_dict() if fingerprint else None)

    def write(self, row: AnswerRow) -> None:
        values = row.to_dict()
        if self._build is not None:
            values["build"] = self._build
        self._handle.write(json.dumps(values, ensure_ascii=False) + "\n")
        self._handle.flush()

    def close(self) -> None:
        self._handle.close()


HUMAN_PREFIX = "human:"
"""Answers of people carry the model name ``human:NAME``."""


def is_human(model: str) -> bool:
    """Whether answers of ``model`` are a person's."""
    return model.startswith(HUMAN_PREFIX)
