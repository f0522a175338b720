"""Predictions made by other harnesses, turned into a figgen answers file for ``eval score``.

- VLMEvalKit writes ``{model}_{dataset}.xlsx`` (or ``.tsv``): the exported TSV's columns plus
  ``prediction``. A multiple-choice prediction is the model's raw reply to a lettered prompt;
  a reply that gives a letter (``B``, ``B.``, ``(B)``, ``B: text``) becomes the option text,
  as VLMEvalKit's own matching reads it, and anything else is kept for figgen's parser.
- lmms-eval with ``--log_samples`` writes ``<date>_samples_<task>.jsonl``: one object per
  document with the model's ``filtered_resps`` and the task's metric values, whose per-level
  entries carry the question's ``qid`` (the log drops the document itself).

Rows carry no usage or cost: the harness did not report them to figgen.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from figgen.errors import FiggenError
from figgen.eval.run.dataset import EvalDataset
from figgen.harness.vlmevalkit.export import option_letters
from figgen.schema.answers import AnswerRow
from figgen.schema.qa_item import QAItem

Harness = Literal["vlmevalkit", "lmms-eval"]
XLSX_HINT = "pip install 'figgen[vlmevalkit]' (or save the predictions as .tsv)"
# "B", "B.", "B)", "B: text", "(B)"; not "A linear trend", where A may be an article
_LETTER = re.compile(r"^\s*(?:\(([A-Z])\)|([A-Z])(?:[.:)]|\s*$))")


def import_predictions(
    path: Path, harness: Harness, dataset: EvalDataset, model: str | None = None
) -> list[AnswerRow]:
    """One answer row per prediction in ``path``, matched to ``dataset``'s questions by qid."""
    if not path.is_file():
        raise FiggenError(f"{path} does not exist; give the harness's prediction file")
    replies = _vlmevalkit(path) if harness == "vlmevalkit" else _lmms_eval(path)
    items = {item.qid: item for item in dataset.items}
    name = model or default_model(path, harness)
    rows = []
    for qid, reply in replies:
        item = items.get(qid)
        if item is None:
            raise FiggenError(
                f"{path}: question {qid!r} is not in {dataset.root}; "
                "pass --data the build the predictions were made on"
            )
        if harness == "vlmevalkit":
            reply = letter_to_choice(item, reply)
        rows.append(AnswerRow(qid, name, reply))
    if not rows:
        raise FiggenError(f"{path} holds no predictions; give the harness's prediction file")
    return rows


def default_model(path: Path, harness: Harness) -> str:
    """VLMEvalKit names its file ``{model}_{dataset}``; lmms-eval's log is named by task."""
    if harness == "vlmevalkit" and "_FiggenQA" in path.stem:
        return f"vlmevalkit:{path.stem.split('_FiggenQA')[0]}"
    return f"{harness}:{path.stem}"


def letter_to_choice(item: QAItem, reply: str) -> str:
    """A lettered reply to a single-choice question as figgen's JSON answer, else ``reply``."""
    if item.answer_type != "choice" or not item.choices:
        return reply
    match = _LETTER.match(reply)
    letter = (match.group(1) or match.group(2)) if match else None
    letters = option_letters(len(item.choices))
    if letter not in letters:
        return reply
    choice = item.choices[letters.index(letter)]
    return json.dumps({item.answer_key: choice}, ensure_ascii=False)


def _vlmevalkit(path: Path) -> Iterator[tuple[str, str]]:
    import pandas as pd

    try:
        if path.suffix.lower() == ".xlsx":
            table = pd.read_excel(path, dtype=str, keep_default_na=False)
        else:
            table = pd.read_csv(path, sep="\t", dtype=str, keep_default_na=False)
    except ImportError:
        raise FiggenError(f"reading {path.name} needs openpyxl; {XLSX_HINT}") from None
    except Exception as exc:  # pandas raises many kinds for a damaged file
        raise FiggenError(f"{path}: not a VLMEvalKit prediction file ({exc})") from None
    missing = [column for column in ("qid", "prediction") if column not in table.columns]
    if missing:
        raise FiggenError(
            f"{path}: no {' or '.join(missing)} column; give VLMEvalKit's prediction file "
            "for figgen's exported FiggenQA_MCQ or FiggenQA_openended"
        )
    for qid, prediction in zip(table["qid"], table["prediction"], strict=True):
        yield str(qid), str(prediction)


def _lmms_eval(path: Path) -> Iterator[tuple[str, str]]:
    with path.open(encoding="utf-8") as lines:
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                sample = json.loads(line)
                qid = _sample_qid(sample)
                reply = _first_text(sample.get("filtered_resps") or sample.get("resps"))
            except (json.JSONDecodeError, KeyError, TypeError):
                raise FiggenError(
                    f"{path}, line {number}: not an lmms-eval sample of a figgen task "
                    "(run lmms-eval with --log_samples and give its samples_*.jsonl)"
                ) from None
            yield str(qid), reply


def _sample_qid(sample: dict[str, Any]) -> str:
    """The qid of a logged sample: the task's per-level metric values carry it (the log on
    disk drops ``doc``); ``doc`` has it in samples taken from ``simple_evaluate``'s result."""
    for key, value in sample.items():
        if key.startswith("figgen_level_") and isinstance(value, dict) and "qid" in value:
            return str(value["qid"])
    return str(sample["doc"]["qid"])


def _first_text(value: Any) -> str:
    """The first string in lmms-eval's (possibly nested) list of responses."""
    while isinstance(value, list) and value:
        value = value[0]
    if not isinstance(value, str):
        raise TypeError("no response text")
    return value
