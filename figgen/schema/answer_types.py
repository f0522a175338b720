"""The sentence that tells a reader exactly how to answer, per answer type, and the question
without it (for people and harnesses that ask in their own words)."""

from __future__ import annotations

import json
import re

from figgen.schema.qa_item import AnswerType

_PLACEHOLDER: dict[str, str] = {
    "integer": "<integer>",
    "number": "<number>",
    "boolean": "<true or false>",
    "string": "<string>",
    "string_list": "<list of strings>",
    "integer_pair": "[<integer>, <integer>]",
    "number_pair": "[<number>, <number>]",
    "number_list": "<list of numbers>",
}


def _quoted(choices: list[str]) -> str:
    return ", ".join(json.dumps(choice) for choice in choices)


def answer_instruction(key: str, answer_type: AnswerType, choices: list[str] | None = None) -> str:
    """'Answer with a JSON object {"key": <type>}.' with the choice list where one is offered."""
    if answer_type == "choice":
        if not choices:
            raise ValueError("a choice answer needs choices")
        value = f"<one of {_quoted(choices)}>"
    elif answer_type == "choice_list":
        if not choices:
            raise ValueError("a choice_list answer needs choices")
        value = f"<list of any of {_quoted(choices)}>"
    else:
        value = _PLACEHOLDER[answer_type]
    return f"Answer with a JSON object {{{json.dumps(key)}: {value}}} and nothing else."


_JSON_FORMAT = re.compile(r"\s*Answer with a JSON object \{.*\} and nothing else\.?\s*$", re.DOTALL)


def plain_question(question: str) -> str:
    """The question without figgen's JSON answer-format sentence.

    VLMEvalKit adds its own instruction (pick a letter, or answer briefly) and the ``answer``
    column holds a plain value; a person answers in a form: the JSON request would only conflict.
    """
    return _JSON_FORMAT.sub("", question).strip()
