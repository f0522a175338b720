"""lmms-eval task functions for the ``qa`` config of a figgen dataset.

``figgen export --format lmms-eval`` copies this file next to the task YAML as ``utils.py``,
so it imports nothing from figgen at load time. Each reply is scored by figgen's reply parser
and scorer (``figgen.eval.parse.parse_reply`` and ``figgen.eval.scoring.score_answer``, the
ones ``figgen eval score`` uses): 1.0 when the answer counts as correct, else 0.0. Where
figgen is not installed, replies are scored by exact match after light normalisation, with a
warning (install figgen beside lmms-eval for figgen's metrics).

A reply figgen rejects as unparseable scores 0.0 here; ``figgen eval score`` reports those
separately instead.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable
from typing import Any

logger = logging.getLogger(__name__)

LEVELS = (1, 2, 3)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_warned: list[bool] = []

Scorer = Callable[[dict[str, Any], str], float]


def item_from_doc(doc: dict[str, Any]) -> dict[str, Any]:
    """The figgen QA item (as a dict) behind a ``qa`` row: the answer decoded, no image."""
    item = {key: value for key, value in doc.items() if key != "image"}
    item["answer"] = json.loads(doc["answer"])
    return item


def doc_to_visual(doc: dict[str, Any]) -> list[Any]:
    return [doc["image"].convert("RGB")]


def _format_line(doc: dict[str, Any]) -> str:
    line = (
        f"Answer with a JSON object {{{json.dumps(doc['answer_key'])}: <answer>}} and nothing else."
    )
    if doc.get("choices"):
        line += " Choices: " + ", ".join(json.dumps(c) for c in doc["choices"]) + "."
    return line


def doc_to_text(
    doc: dict[str, Any], lmms_eval_specific_kwargs: dict[str, Any] | None = None
) -> str:
    """The question; figgen's questions already say how to answer (JSON under ``answer_key``)."""
    kwargs = lmms_eval_specific_kwargs or {}
    text = doc["question"].strip()
    if "JSON" not in text:
        text = f"{text}\n{_format_line(doc)}"
    return f"{kwargs.get('pre_prompt', '')}{text}{kwargs.get('post_prompt', '')}"


def doc_to_target(doc: dict[str, Any]) -> str:
    return str(doc["answer"])


def _reply_value(item: dict[str, Any], reply: str) -> Any:
    text = reply.strip()
    fenced = _FENCE.search(text)
    if fenced:
        text = fenced.group(1).strip()
    try:
        value = json.loads(text)
    except ValueError:
        return text
    if isinstance(value, dict):
        if item.get("answer_key") in value:
            return value[item["answer_key"]]
        if len(value) == 1:
            return next(iter(value.values()))
    return value


def _normal(value: Any, *, unordered: bool) -> Any:
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, list):
        parts = [_normal(v, unordered=False) for v in value]
        return sorted(parts, key=repr) if unordered else parts
    if isinstance(value, str):
        text = value.strip().strip(".").casefold()
        if text in ("true", "yes"):
            return True
        if text in ("false", "no"):
            return False
        try:
            return float(text.replace(",", ""))
        except ValueError:
            return text
    return value


def exact_match(item: dict[str, Any], reply: str) -> float:
    """1.0 when the reply equals the answer after normalisation, else 0.0.

    Strings compare case-insensitively, numbers as floats (thousands separators allowed), and
    lists ignore order where the answer is a set.
    """
    unordered = item.get("metric") == "exact_set" or item.get("answer_type") in (
        "choice_list",
        "number_list",
    )
    got = _normal(_reply_value(item, reply), unordered=unordered)
    return float(got == _normal(item["answer"], unordered=unordered))


def _figgen_scorer() -> Scorer | None:
    try:
        from figgen.eval.parse import parse_reply
        from figgen.eval.scoring import score_answer
        from figgen.vqa.item import QAItem
    except ImportError:
        return None

    def score(item: dict[str, Any], reply: str) -> float:
        qa_item = QAItem.from_dict({k: v for k, v in item.items() if k in QAItem.__annotations__})
        result = score_answer(qa_item, parse_reply(reply, qa_item))
        return 1.0 if result.correct else 0.0

    return score


def score_reply(doc: dict[str, Any], reply: str) -> float:
    """figgen's score for one reply, or exact match when figgen's metrics are not installed."""
    item = item_from_doc(doc)
    scorer = _figgen_scorer()
    if scorer is None:
        if not _warned:
            logger.warning("figgen's metrics are not installed; scoring replies by exact match")
            _warned.append(True)
        return exact_match(item, reply)
    return scorer(item, reply)


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    score = score_reply(doc, results[0] if results else "")
    # the qid rides along: lmms-eval's samples log drops the doc but keeps these values, and
    # `figgen eval import --from lmms-eval` matches replies to questions by it
    per_level = {"level": int(doc["level"]), "score": score, "qid": doc["qid"]}
    return {"figgen_score": score, **{f"figgen_level_{level}": per_level for level in LEVELS}}


def _level_mean(items: list[dict[str, Any]], level: int) -> float:
    scores = [entry["score"] for entry in items if entry["level"] == level]
    return sum(scores) / len(scores) if scores else float("nan")


def aggregate_level_1(items: list[dict[str, Any]]) -> float:
    return _level_mean(items, 1)


def aggregate_level_2(items: list[dict[str, Any]]) -> float:
    return _level_mean(items, 2)


def aggregate_level_3(items: list[dict[str, Any]]) -> float:
    return _level_mean(items, 3)
