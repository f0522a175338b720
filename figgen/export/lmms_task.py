"""lmms-eval task functions for the ``qa`` config of a figgen dataset.

``figgen export --format lmms-eval`` copies this file next to the task YAML as ``utils.py``,
so it imports nothing from figgen at load time. Replies are scored by
``figgen.eval.metrics.score_answer(item, reply_text)`` (a score in [0, 1], higher is better)
when figgen is installed; otherwise by exact match after light normalisation, and a warning
says so once.
"""

from __future__ import annotations

import json
import logging
import re
from typing import Any

logger = logging.getLogger(__name__)

LEVELS = (1, 2, 3)
_FENCE = re.compile(r"```(?:json)?\s*(.*?)```", re.DOTALL)
_warned: list[bool] = []


def doc_to_visual(doc: dict[str, Any]) -> list[Any]:
    return [doc["image"].convert("RGB")]


def doc_to_text(
    doc: dict[str, Any], lmms_eval_specific_kwargs: dict[str, Any] | None = None
) -> str:
    kwargs = lmms_eval_specific_kwargs or {}
    text = doc["question"]
    if doc.get("choices"):
        text += "\nChoices: " + "; ".join(doc["choices"])
    return f"{kwargs.get('pre_prompt', '')}{text}{kwargs.get('post_prompt', '')}"


def doc_to_target(doc: dict[str, Any]) -> str:
    return str(doc["answer"])


def item_from_doc(doc: dict[str, Any]) -> dict[str, Any]:
    """The figgen QA item (as a dict) behind a ``qa`` row: the answer decoded, no image."""
    item = {key: value for key, value in doc.items() if key != "image"}
    item["answer"] = json.loads(doc["answer"])
    return item


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
    """1.0 when the reply equals the answer after normalisation (case, separators, list order
    where order does not matter), else 0.0."""
    unordered = item.get("metric") == "exact_set" or item.get("answer_type") in (
        "choice_list",
        "number_list",
    )
    got = _normal(_reply_value(item, reply), unordered=unordered)
    return float(got == _normal(item["answer"], unordered=unordered))


def score_reply(doc: dict[str, Any], reply: str) -> float:
    """figgen's score for one reply, or exact match when figgen's metrics are not installed."""
    item = item_from_doc(doc)
    try:
        from figgen.eval.metrics import score_answer
    except ImportError:
        if not _warned:
            logger.warning("figgen.eval.metrics.score_answer not available; scoring by exact match")
            _warned.append(True)
        return exact_match(item, reply)
    score = score_answer(item, reply)
    return 0.0 if score is None else float(score)


def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
    score = score_reply(doc, results[0] if results else "")
    per_level = {"level": int(doc["level"]), "score": score}
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
