"""Export the questions as VLMEvalKit TSVs: a multiple-choice dataset and an open-ended one.

VLMEvalKit (``vlmeval/dataset/__init__.py``, ``build_dataset``) loads a dataset it does not
know from ``$LMUData/<NAME>.tsv`` and picks its class from the columns: with ``A`` and ``B`` a
``CustomMCQDataset`` (prompt with lettered options, scored by matching the letter), else a
``CustomVQADataset``; ``DATASET_TYPE(NAME)`` is ``MCQ`` unless the name contains ``openended``.
A single file mixing both would have every open question scored as a multiple-choice one, so:

- ``FiggenQA_MCQ.tsv``: the single-choice questions; ``answer`` is the letter, ``A``.. the
  options (type ``MCQ``).
- ``FiggenQA_openended.tsv``: every other question, with figgen's answer-format sentence (a
  JSON object) kept, since VLMEvalKit adds no instruction to custom VQA data; no option
  columns, ``answer`` the plain value (type ``VQA``; VLMEvalKit has no scorer for custom VQA
  data: ``figgen eval import --from vlmevalkit PRED.xlsx`` brings its predictions back to
  ``figgen eval score``).
"""

from __future__ import annotations

import base64
import csv
import json
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figgen.errors import FiggenError
from figgen.export.source import BuiltDataset
from figgen.schema.answer_types import plain_question
from figgen.schema.qa_item import QAItem
from figgen.schema.splits import Split, SplitFractions, assign_splits
from figgen.store.storage import staged_folder

MCQ_NAME = "FiggenQA_MCQ"
OPEN_NAME = "FiggenQA_openended"
DATASET_TYPES = {MCQ_NAME: "MCQ", OPEN_NAME: "VQA"}
"""What VLMEvalKit's ``DATASET_TYPE`` gives each exported dataset name."""
MIN_OPTIONS = 4
_READS_AS_MISSING = frozenset(
    # pandas.read_csv's default NA strings: VLMEvalKit reads TSVs with the defaults, so an
    # option spelled like one of these would silently vanish from the prompt.
    [
        "",
        "#N/A",
        "#N/A N/A",
        "#NA",
        "-1.#IND",
        "-1.#QNAN",
        "-NaN",
        "-nan",
        "1.#IND",
        "1.#QNAN",
        "<NA>",
        "N/A",
        "NA",
        "NULL",
        "NaN",
        "None",
        "n/a",
        "nan",
        "null",
    ]
)


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


LETTER_ONLY = "Answer with the option's letter only."
"""Added where one option's text contains another's: VLMEvalKit matches a reply that gives the
option text by containment, so "nonlinear" would match both "linear" and "nonlinear"."""


def texts_overlap(options: list[str]) -> bool:
    """Whether some option's text (case-folded) lies inside another's."""
    folded = [option.casefold() for option in options]
    return any(a in b for i, a in enumerate(folded) for j, b in enumerate(folded) if i != j)


def _question_text(item: QAItem) -> str:
    if not _is_mcq(item):
        # VLMEvalKit adds no instruction to custom VQA data: keep figgen's answer format, so a
        # reply is read the way `figgen eval score` reads it (see `figgen eval import`)
        if item.choices and item.answer_type != "choice":
            return f"{item.question}\nOptions: {'; '.join(item.choices)}"
        return item.question
    question = plain_question(item.question)
    return f"{question}\n{LETTER_ONLY}" if texts_overlap(item.choices or []) else question


def _is_mcq(item: QAItem) -> bool:
    return item.answer_type == "choice" and bool(item.choices)


def _option_cells(item: QAItem, letters: list[str]) -> dict[str, str]:
    options = item.choices or []
    for option in options:
        if option.strip() in _READS_AS_MISSING:
            raise FiggenError(
                f"{item.qid}: option {option!r} would read as missing in VLMEvalKit's loader; "
                "rename it in the question family"
            )
    return {letter: (options[k] if k < len(options) else "") for k, letter in enumerate(letters)}


@dataclass(frozen=True)
class Table:
    """One VLMEvalKit dataset: its name (the file stem), columns and rows."""

    name: str
    header: list[str]
    rows: list[dict[str, Any]]


_TAIL = ["category", "l2-category", "split", "qid", "figure_id", "level", "answer_type", "metric"]


def vlmevalkit_tables(
    dataset: BuiltDataset, *, fractions: SplitFractions, split: Split | None = None
) -> list[Table]:
    """The multiple-choice and the open-ended table (either left out when it has no rows).

    In each table a figure's image is stored once, base64 in its first row; later rows about
    the same figure hold that row's index, which VLMEvalKit resolves.
    """
    splits = assign_splits(dataset.figure_ids(), fractions)
    items = [
        item for item in dataset.qa_items() if split is None or splits.get(item.figure_id) == split
    ]
    mcq = [item for item in items if _is_mcq(item)]
    letters = option_letters(max([MIN_OPTIONS, *(len(i.choices or []) for i in mcq)]))
    images: dict[str, str] = {}

    def image(figure_id: str) -> str:
        if figure_id not in images:
            images[figure_id] = base64.b64encode(dataset.png(figure_id)).decode("ascii")
        return images[figure_id]

    tables = []
    for name, chosen in ((MCQ_NAME, mcq), (OPEN_NAME, [i for i in items if not _is_mcq(i)])):
        first_row: dict[str, int] = {}
        rows = []
        for index, item in enumerate(chosen):
            if item.figure_id in first_row:
                cell = str(first_row[item.figure_id])
            else:
                first_row[item.figure_id] = index
                cell = image(item.figure_id)
            row: dict[str, Any] = {
                "index": index,
                "image": cell,
                "question": _question_text(item),
                "answer": _answer_text(item),
                **(_option_cells(item, letters) if name == MCQ_NAME else {}),
                "category": item.family,
                "l2-category": f"level {item.level}",
                "split": splits.get(item.figure_id),
                "qid": item.qid,
                "figure_id": item.figure_id,
                "level": item.level,
                "answer_type": item.answer_type,
                "metric": item.metric,
                "figgen_question": item.question,
            }
            rows.append(row)
        options = letters if name == MCQ_NAME else []
        header = ["index", "image", "question", "answer", *options, *_TAIL, "figgen_question"]
        if rows:
            tables.append(Table(name, header, rows))
    return tables


def export_vlmevalkit(
    data_dir: str | Path,
    out: str | Path,
    *,
    fractions: SplitFractions | None = None,
    split: Split | None = None,
    overwrite: bool = False,
) -> list[Path]:
    """Write ``out/FiggenQA_MCQ.tsv`` and ``out/FiggenQA_openended.tsv``.

    With ``split``, only that split's questions. Copy both into VLMEvalKit's ``$LMUData``
    folder and run ``--data FiggenQA_MCQ FiggenQA_openended``.
    """
    dataset = BuiltDataset.open(data_dir)
    tables = vlmevalkit_tables(dataset, fractions=fractions or SplitFractions(), split=split)
    if not tables:
        raise FiggenError(f"no questions to export (split {split!r}); choose another --split")
    with staged_folder(out, overwrite=overwrite) as stage:
        for table in tables:
            with (stage / f"{table.name}.tsv").open("w", encoding="utf-8", newline="") as handle:
                writer = csv.DictWriter(
                    handle, fieldnames=table.header, delimiter="\t", lineterminator="\n"
                )
                writer.writeheader()
                writer.writerows(table.rows)
    return [Path(out) / f"{table.name}.tsv" for table in tables]
