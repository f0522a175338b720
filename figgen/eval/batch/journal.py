"""The batch journal beside an answers file: what was submitted, under which id, collected.

Each event is a JSON line appended and synced to disk before the step it records goes on,
so a run killed at any point knows on its next start which batches exist. ``submitting`` is
written before the upload and ``submitted`` (with the vendor's id) right after the create
call: a submission with no id is looked up at the vendor by its token before its questions
are sent again, so a kill between the two never submits twice.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SUFFIX = ".batches.jsonl"


@dataclass
class Submission:
    """One batch: its token (in every request key), questions in key order, and the image
    each was sent with (scale, width, height, media type)."""

    token: str
    qids: list[str]
    images: dict[str, list[Any]] = field(default_factory=dict)
    at: float = 0.0
    batch_id: str | None = None
    closed: bool = False
    """Collected, or found never to have been created."""

    def key(self, index: int) -> str:
        return f"{self.token}-{index}"


def journal_path(answers: str | Path) -> Path:
    answers = Path(answers)
    return answers.with_name(answers.name + SUFFIX)


class BatchJournal:
    """Reads and appends the journal of one answers file."""

    def __init__(self, answers: str | Path) -> None:
        self.path = journal_path(answers)

    def read(self) -> dict[str, Submission]:
        """Every submission by token, in the order submitted; a line cut by a kill is skipped."""
        found: dict[str, Submission] = {}
        if not self.path.is_file():
            return found
        for line in self.path.read_text(encoding="utf-8").splitlines():
            try:
                event = json.loads(line)
            except json.JSONDecodeError:
                continue
            token = event.get("token")
            kind = event.get("event")
            if kind == "submitting":
                found[token] = Submission(
                    token, list(event["qids"]), dict(event.get("images", {})), event.get("at", 0)
                )
            elif token in found and kind == "submitted":
                found[token].batch_id = event["batch"]
            elif token in found and kind in ("collected", "abandoned"):
                found[token].closed = True
        return found

    def _append(self, event: dict[str, Any]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(event) + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def submitting(self, submission: Submission) -> None:
        self._append(
            {
                "event": "submitting",
                "token": submission.token,
                "at": submission.at,
                "qids": submission.qids,
                "images": submission.images,
            }
        )

    def submitted(self, token: str, batch_id: str) -> None:
        self._append({"event": "submitted", "token": token, "batch": batch_id})

    def collected(self, token: str) -> None:
        self._append({"event": "collected", "token": token})

    def abandoned(self, token: str) -> None:
        """The vendor has no batch under this token: its questions are asked again."""
        self._append({"event": "abandoned", "token": token})
