"""What the page asks for each answer type, and a person's input turned into an answer row.

The page shows one of five inputs: ``number`` (one field), ``pair`` (two labelled fields),
``choice`` (one of several buttons; yes/no for a boolean), ``choices`` (several boxes to
tick) and ``list`` or ``text`` (one entry per line, or one line of text); each answer type
declares its input (:attr:`figgen.schema.answer_types.AnswerTypeSpec.page_input`). What the person
gives is stored as a reply holding the JSON object a model is asked for, numbers kept as
typed (``{"mean_y": "3.5"}``), so ``figgen eval score`` parses and scores it by the same
rules as any model's reply.
"""

from __future__ import annotations

import json
import re
from typing import Any

from figgen.errors import FiggenError
from figgen.eval.scoring.parse import ParsedAnswer, Rejected, parse_number, parse_reply
from figgen.schema.answer_types import AnswerTypeSpec, answer_spec, plain_question
from figgen.schema.qa_item import QAItem

SKIPPED = "(skipped: the annotator could not tell)"
"""The reply stored when a person gives no answer; it is rejected like an unreadable reply."""

_PAIR_NAMES = re.compile(r"\[\s*([^\[\],]{1,30}?)\s*,\s*([^\[\],]{1,30}?)\s*\]")


class InvalidAnswer(FiggenError):
    """The person's input cannot be read as an answer of the asked type; they can fix it."""


def _pair_labels(question: str) -> list[str]:
    """Names of the two numbers from "Give [rows, columns]", else first and second."""
    match = _PAIR_NAMES.search(question)
    return [match.group(1), match.group(2)] if match else ["first number", "second number"]


def page_question(item: QAItem) -> dict[str, Any]:
    """What the page shows of ``item``: the question in plain words and its input, no truth."""
    text = plain_question(item.question)
    spec = answer_spec(item.answer_type)
    kind = spec.page_input
    question: dict[str, Any] = {
        "qid": item.qid,
        "text": text,
        "input": kind,
        "integer": spec.integers,
    }
    if spec.fixed_choices:
        question["choices"] = [{"label": label, "value": v} for label, v in spec.fixed_choices]
    elif kind in ("choice", "choices"):
        question["choices"] = [{"label": c, "value": c} for c in item.choices or []]
    if kind == "pair":
        question["labels"] = _pair_labels(text)
    if kind == "list":
        question["numbers"] = spec.numbers
    return question


def _string(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise InvalidAnswer(f"{what} must be text")
    return value.strip()


def _number_text(value: Any, what: str) -> str:
    text = _string(value, what)
    try:
        parse_number(text)
    except Rejected:
        raise InvalidAnswer(f"{what} {text[:40]!r} is not a number") from None
    return text


def _lines(value: Any) -> list[str]:
    if not isinstance(value, list):
        raise InvalidAnswer("give the list as one entry per line")
    return [line for line in (_string(v, "each entry") for v in value) if line]


def _is_fixed_choice(value: Any, spec: AnswerTypeSpec) -> bool:
    """Whether ``value`` is one of the type's fixed values, and of its type (1 is not true)."""
    return any(type(value) is type(v) and value == v for _, v in spec.fixed_choices)


def answer_value(item: QAItem, value: Any) -> Any:
    """The JSON value stored for the person's ``value``; InvalidAnswer says what to fix."""
    spec = answer_spec(item.answer_type)
    kind = spec.page_input
    if kind == "number":
        return _number_text(value, "the answer")
    if kind == "pair":
        if not isinstance(value, list) or len(value) != 2:
            raise InvalidAnswer("give both numbers")
        labels = _pair_labels(plain_question(item.question))
        return [_number_text(v, label) for v, label in zip(value, labels, strict=True)]
    if spec.fixed_choices:
        if not _is_fixed_choice(value, spec):
            named = " or ".join(label for label, _ in spec.fixed_choices)
            raise InvalidAnswer(f"choose {named}")
        return value
    if kind == "choice":
        if value not in (item.choices or []):
            raise InvalidAnswer("choose one of the options")
        return value
    if kind == "choices":
        if not isinstance(value, list) or not all(v in (item.choices or []) for v in value):
            raise InvalidAnswer("tick options from the list")
        return list(value)
    if kind == "list":
        lines = _lines(value)
        if spec.numbers:
            return [_number_text(line, "each entry") for line in lines]
        return lines
    return _string(value, "the answer")


def answer_reply(item: QAItem, value: Any, *, skipped: bool = False) -> tuple[str, ParsedAnswer]:
    """The reply text stored for the person's input, and how figgen's parser reads it."""
    if skipped:
        return SKIPPED, ParsedAnswer(rejected=True, reason="skipped by the annotator")
    raw = json.dumps({item.answer_key: answer_value(item, value)}, ensure_ascii=False)
    parsed = parse_reply(raw, item)
    if parsed.rejected:  # the checks above should make this impossible; say so plainly
        raise InvalidAnswer(f"the answer cannot be read ({parsed.reason})")
    return raw, parsed
