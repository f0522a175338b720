"""Answers files as ``figgen eval run`` writes them, made from a build's questions."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from figgen.schema.answers import AnswerRow


def write_answers(
    path: Path, model: str, items: list[dict[str, Any]], reply: Callable[[dict[str, Any]], str]
) -> Path:
    with path.open("w", encoding="utf-8") as handle:
        for item in items:
            row = AnswerRow(qid=item["qid"], model=model, raw=reply(item), attempts=1)
            handle.write(json.dumps(row.to_dict()) + "\n")
    return path


def oracle(item: dict[str, Any]) -> str:
    return json.dumps({item["answer_key"]: item["answer"]})


def half_wrong(item: dict[str, Any]) -> str:
    """Right on even-numbered characters of the qid's hash, unparseable otherwise."""
    return oracle(item) if sum(map(ord, item["qid"])) % 2 == 0 else "I cannot tell."
