"""Question text with what differs between figures masked: the template a blind reader sees."""

from __future__ import annotations

import re

from figgen.schema.qa_item import QAItem

_QUOTED = re.compile(r'"[^"]*"|“[^”]*”')
_FORMULA = re.compile(r"\$[^$]*\$")
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?")


def masked_question(item: QAItem) -> str:
    """The question with its location words, quoted strings, formulas and numbers masked."""
    text = item.question
    if item.location:
        text = text.replace(item.location, "<loc>")
    text = _QUOTED.sub("<q>", text)
    text = _FORMULA.sub("<f>", text)
    return _NUMBER.sub("<n>", text)
