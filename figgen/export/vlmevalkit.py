"""Export the questions as a VLMEvalKit TSV (index, base64 image, question, answer, options)."""

from __future__ import annotations

import base64
import csv
import json
import re
import string
from pathlib import Path
from typing import Any

from figgen.errors import FiggenError
from figgen.export.source import BuiltDataset
from figgen.export.splits import Split, SplitFractions, assign_splits
from figgen.storage import staged_folder
from figgen.vqa.item import QAItem

TSV_FILE = "figgen_qa.tsv"
MIN_OPTIONS = 4


def option_letters(n: int) -> list[str]:
    if n > len(string.ascii_uppercase):
        raise FiggenError(f"a question offers {n} choices; VLMEvalKit options stop at Z")
    return list(string.ascii_uppercase[:n])


def _answer_text(item: QAItem) -> str:
    if item.answer_type == "choice" and item.choices:
        return option_letters(len(item.choices))[item.choices.index(item.answer)]
    if isinstance(item.answer, str):
        return item.answer
    return json.dumps(item.answer, ensure_ascii=False)


_JSON_FORMAT = re.compile(r"\s*Answer with a JSON object \{.*\} and nothing else\.?\s*$", re.DOTALL)


def plain_question(question: str) -> str:
    """The question without figgen's JSON answer-format sentence.

    VLMEvalKit adds its own instruction (pick a letter, or answer briefly), and the ``answer``
    column holds a plain value, so the JSON request would only conflict with both.
    """
    return _JSON_FORMAT.sub("", question).strip()


def _question_text(item: QAItem) -> str:
    question = plain_question(item.question)
    if item.answer_type != "choice" and item.choices:
        return f"{question}\nOptions: {'; '.join(item.choices)}"
    return question


def vlmevalkit_rows(
    dataset: BuiltDataset, *, fractions: SplitFractions, split: Split | None = None
) -> tuple[list[str], list[dict[str, Any]]]:
    """The TSV header and rows.

    A figure's image is stored once, base64 in its first question's row; later rows about the
    same figure hold that row's index instead, which VLMEvalKit resolves (any image cell of 64
    characters or fewer is read as the index of another row).
    """
    splits = assign_splits(dataset.figure_ids(), fractions)
    items = [
        item for item in dataset.qa_items() if split is None or splits.get(item.figure_id) == split
    ]
    offered = [len(i.choices or []) for i in items if i.answer_type == "choice"]
    n_options = max([MIN_OPTIONS, *offered])
    letters = option_letters(n_options)
    first_row: dict[str, int] = {}
    rows = []
    for index, item in enumerate(items):
        if item.figure_id in first_row:
            image = str(first_row[item.figure_id])
        else:
            first_row[item.figure_id] = index
            image = base64.b64encode(dataset.png(item.figure_id)).decode("ascii")
        options = item.choices if item.answer_type == "choice" and item.choices else []
        row: dict[str, Any] = {
            "index": index,
            "image": image,
            "question": _question_text(item),
            "figgen_question": item.question,
            "answer": _answer_text(item),
            **{
                letter: (options[k] if k < len(options) else "") for k, letter in enumerate(letters)
            },
            "category": item.family,
            "l2-category": f"level {item.level}",
            "split": splits.get(item.figure_id),
            "qid": item.qid,
            "figure_id": item.figure_id,
            "level": item.level,
            "answer_type": item.answer_type,
            "metric": item.metric,
        }
        rows.append(row)
    header = [
        "index",
        "image",
        "question",
        "answer",
        *letters,
        "category",
        "l2-category",
        "split",
        "qid",
        "figure_id",
        "level",
        "answer_type",
        "metric",
        "figgen_question",
    ]
    return header, rows


def export_vlmevalkit(
    data_dir: str | Path,
    out: str | Path,
    *,
    fractions: SplitFractions | None = None,
    split: Split | None = None,
    overwrite: bool = False,
) -> Path:
    """Write ``out/figgen_qa.tsv``; with ``split``, only that split's questions."""
    dataset = BuiltDataset.open(data_dir)
    header, rows = vlmevalkit_rows(dataset, fractions=fractions or SplitFractions(), split=split)
    if not rows:
        raise FiggenError(f"no questions to export (split {split!r}); choose another --split")
    with (
        staged_folder(out, overwrite=overwrite) as stage,
        (stage / TSV_FILE).open("w", encoding="utf-8", newline="") as handle,
    ):
        writer = csv.DictWriter(handle, fieldnames=header, delimiter="\t", lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return Path(out) / TSV_FILE
