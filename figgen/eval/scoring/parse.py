"""Turn a model's reply into a value of the requested answer type, or reject it.

A reply is accepted when it holds a JSON object with the answer key (bare, in a code fence
or inside prose; the key matched case-insensitively), a bare JSON value, or a bare value of
the requested scalar type ("7", "true", "1.2e-3"). A JSON object without the key is
rejected. Values are coerced leniently: thousands separators, units, scientific notation in
text or LaTeX, ``\\frac``, and numbers given as strings all parse.

Rejected means no answer could be read at all. A value that reads but cannot be right (a
choice that was not offered, 2.5 where a count is asked, three numbers for a pair) is kept
as it is and scored as wrong: rejecting it would leave it out of accuracy and flatter the
model.

Each answer type has one parser, registered with ``@parses(name)`` in :data:`PARSERS`: how a
value becomes an answer of the type, and whether a bare reply without JSON may give it.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from figgen._util.registry import Registry
from figgen.schema.answer_types import AnswerType
from figgen.schema.qa_item import QAItem


class Rejected(ValueError):
    """The reply does not fit the requested format."""


@dataclass(frozen=True)
class ParsedAnswer:
    """The parsed value, or ``rejected`` with the reason."""

    value: Any = None
    rejected: bool = False
    reason: str | None = None


_FENCE = re.compile(r"```[a-zA-Z]*\s*(.*?)```", re.DOTALL)
_NO_VALUE = object()
MAX_REPLY_CHARS = 100_000
"""Longer replies are rejected unread: a figgen answer is a small JSON object, and a runaway
model must neither stall the run nor fill the answers file."""
_OBJECT_START = re.compile(r"\{(?=\s*[\"}])")  # where a JSON object can begin
MAX_OBJECT_STARTS = 1000
"""Objects tried inside prose; each failed try costs time linear in the reply's length, so
a reply of garbage braces must not cost quadratic time."""


def json_candidates(text: str) -> list[Any]:
    """Every JSON value found: the whole text, fenced blocks, then objects inside prose."""
    # RecursionError: JSON nested deeper than Python's stack allows is no answer either
    with contextlib.suppress(json.JSONDecodeError, RecursionError):
        return [json.loads(text)]  # the common case: the reply is just the JSON asked for
    found: list[Any] = []
    for chunk in _FENCE.findall(text):
        with contextlib.suppress(json.JSONDecodeError, RecursionError):
            found.append(json.loads(chunk.strip()))
    decoder = json.JSONDecoder()
    for match in itertools.islice(_OBJECT_START.finditer(text), MAX_OBJECT_STARTS):
        try:
            value, _ = decoder.raw_decode(text, match.start())
        except (json.JSONDecodeError, RecursionError):
            continue
        if isinstance(value, dict):
            found.append(value)
    return found


def extract_value(text: str, answer_key: str) -> Any:
    """The raw answer in a reply, or ``_NO_VALUE`` when the reply holds no JSON answer."""
    candidates = json_candidates(text)
    objects = [c for c in candidates if isinstance(c, dict)]
    for obj in objects:
        for key, value in obj.items():
            if key.strip().casefold() == answer_key.casefold():
                return value
    if objects:  # JSON objects, but none under the requested key
        raise Rejected(f"no {answer_key!r} key in the JSON reply")
    return candidates[0] if candidates else _NO_VALUE


# ---- numbers -------------------------------------------------------------------------------

_NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_TIMES_TEN = re.compile(
    r"([-+]?(?:\d+\.?\d*|\.\d+))\s*(?:\\times|\\cdot|×|·|\*|x)\s*10\s*\^\s*\{?\s*([-+]?\d+)\s*\}?"
)
_BARE_POWER = re.compile(r"(?<![\d.])10\s*\^\s*\{?\s*([-+]?\d+)\s*\}?")
_FRAC = re.compile(r"\\d?frac\s*\{\s*([-+]?[\d.]+)\s*\}\s*\{\s*([-+]?[\d.]+)\s*\}")
_THOUSANDS = re.compile(r"(?<![\d.])(\d{1,3})((?:,\d{3})+)(?![\d,])")
_LATEX_WRAP = re.compile(r"\\(?:mathrm|text|textrm|mathit|mathbf|operatorname)\s*\{([^{}]*)\}")


def _normalise_number_text(text: str) -> str:
    text = text.replace("\u2212", "-").replace("\u2013", "-").replace("\u2009", "")
    text = text.replace("\\left", "").replace("\\right", "")
    text = _LATEX_WRAP.sub(r"\1", text)
    text = re.sub(r"(?<=\d)\\[,;!: ](?=\d)", "", text)  # LaTeX thin spaces between digit groups
    text = re.sub(r"\\[(\[\])]|\$", " ", text)
    text = _FRAC.sub(lambda m: repr(float(m.group(1)) / float(m.group(2))), text)
    text = _TIMES_TEN.sub(r"\1e\2", text)
    text = _BARE_POWER.sub(r"1e\1", text)
    return _THOUSANDS.sub(lambda m: m.group(1) + m.group(2).replace(",", ""), text)


def parse_number(value: Any) -> float:
    """A finite number from a JSON number or a string such as "1,234.5 km" or "3\\times10^{4}"."""
    if isinstance(value, bool):
        raise Rejected("a boolean is not a number")
    if isinstance(value, int | float):
        number = float(value)
    elif isinstance(value, str):
        match = _NUMBER.search(_normalise_number_text(value))
        if match is None:
            raise Rejected(f"no number in {value[:40]!r}")
        try:
            number = float(match.group(0))
        except (ValueError, OverflowError):
            raise Rejected(f"bad number {match.group(0)!r}") from None
    else:
        raise Rejected(f"expected a number, got {type(value).__name__}")
    if not math.isfinite(number):
        raise Rejected("the number is not finite")
    return number


def parse_integer(value: Any) -> int | float:
    """An integer; a number that is not one (2.5 panels) is returned as is, to score wrong."""
    number = parse_number(value)
    if abs(number - round(number)) > 1e-9:
        return number
    return int(round(number))


def _is_bare_number(text: str) -> bool:
    """Whether the text is one number, optionally followed by a short unit ("12.5 km/s")."""
    normalised = _normalise_number_text(text).strip().rstrip(".")
    return (
        re.fullmatch(rf"\s*{_NUMBER.pattern}\s*[A-Za-z%°/^\-\d]{{0,8}}\s*", normalised) is not None
    )


# ---- other scalars and lists ---------------------------------------------------------------

_TRUE = {"true", "yes", "y", "1"}
_FALSE = {"false", "no", "n", "0"}


def parse_boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().strip(".").casefold()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise Rejected(f"{value!r} is not true or false")


def _as_text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return json.dumps(value)
    raise Rejected(f"expected a string, got {type(value).__name__}")


def _match_choice(value: Any, choices: list[str] | None) -> str:
    """The offered choice the text names, else the text itself (a wrong answer, not a rejection)."""
    text = _as_text(value).strip()
    if not choices:
        return text
    key = text.strip("\"'`. ").casefold()
    for choice in choices:
        if choice.casefold() == key:
            return choice
    # a lettered choice given with its option text: "A. 2021", "(B) North", "C: 12"
    lettered = _LETTERED.match(text)
    if lettered:
        for choice in choices:
            if len(choice) == 1 and choice.casefold() == lettered.group(1).casefold():
                return choice
    return text


_LETTERED = re.compile(r"^\(?([A-Za-z])[.):]\s+\S")


def _as_list(value: Any) -> list[Any]:
    if isinstance(value, list | tuple):
        return list(value)
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("["):
            try:
                loaded = json.loads(stripped)
            except json.JSONDecodeError:
                loaded = None
            if isinstance(loaded, list):
                return loaded
        stripped = stripped.strip("()[]{} ")
        return [p for p in re.split(r"\s*[,;]\s*|\s+(?:x|×|by|and)\s+", stripped) if p]
    return [value]


# ---- one parser per answer type -----------------------------------------------------------

Coerce = Callable[[Any, list[str] | None], Any]
"""A reply's raw value (and the item's offered choices) -> the answer, or raise ``Rejected``."""
BareTest = Callable[[str, list[str] | None], bool]
"""Whether a reply that holds no JSON is just a value of the type ("7", "true")."""


@dataclass(frozen=True)
class AnswerParser:
    """How a reply's value becomes an answer of one type."""

    coerce: Coerce
    bare: BareTest | None = None
    """None: a reply of the type without JSON is no answer (lists, free text)."""


PARSERS: Registry[AnswerParser] = Registry("answer parser")
"""One parser per answer type (:data:`figgen.schema.answer_types.ANSWER_TYPES`)."""


def parses(answer_type: AnswerType, *, bare: BareTest | None = None) -> Callable[[Coerce], Coerce]:
    """``@parses("number_pair")``: register the decorated function as the type's parser."""

    def register(coerce: Coerce) -> Coerce:
        PARSERS.add(answer_type, AnswerParser(coerce, bare))
        return coerce

    return register


def _bare_number(text: str, choices: list[str] | None) -> bool:
    return _is_bare_number(text)


def _bare_boolean(text: str, choices: list[str] | None) -> bool:
    return text.strip(".").casefold() in _TRUE | _FALSE


def _bare_choice(text: str, choices: list[str] | None) -> bool:
    # only a bare word that is one of the choices: free prose is no answer at all
    key = text.strip("\"'`. ").casefold()
    return bool(choices) and any(choice.casefold() == key for choice in choices or [])


@parses("integer", bare=_bare_number)
def _integer(value: Any, choices: list[str] | None) -> Any:
    return parse_integer(value)


@parses("number", bare=_bare_number)
def _number(value: Any, choices: list[str] | None) -> Any:
    return parse_number(value)


@parses("boolean", bare=_bare_boolean)
def _boolean(value: Any, choices: list[str] | None) -> Any:
    return parse_boolean(value)


@parses("choice", bare=_bare_choice)
def _choice(value: Any, choices: list[str] | None) -> Any:
    return _match_choice(value, choices)


@parses("string")
def _string(value: Any, choices: list[str] | None) -> Any:
    return _as_text(value)


@parses("string_list")
def _string_list(value: Any, choices: list[str] | None) -> Any:
    return [_as_text(v) for v in (value if isinstance(value, list) else [value])]


@parses("choice_list")
def _choice_list(value: Any, choices: list[str] | None) -> Any:
    return [_match_choice(v, choices) for v in _as_list(value)]


@parses("integer_pair")
def _integer_pair(value: Any, choices: list[str] | None) -> Any:
    return [parse_integer(v) for v in _as_list(value)]  # a wrong length scores wrong


@parses("number_pair")
def _number_pair(value: Any, choices: list[str] | None) -> Any:
    return [parse_number(v) for v in _as_list(value)]


@parses("number_list")
def _number_list(value: Any, choices: list[str] | None) -> Any:
    return [parse_number(v) for v in _as_list(value)]


def coerce(value: Any, answer_type: AnswerType, choices: list[str] | None = None) -> Any:
    """The value as the requested type, or raise ``Rejected``."""
    parser = PARSERS.get(answer_type)
    if parser is None:
        raise Rejected(f"unknown answer type {answer_type!r}")
    return parser.coerce(value, choices)


def _bare_value(text: str, item: QAItem) -> Any:
    """A reply that is just the value, without JSON; only for scalar types."""
    stripped = text.strip().strip("`").strip()
    parser = PARSERS.get(item.answer_type)
    if parser is not None and parser.bare is not None and parser.bare(stripped, item.choices):
        return stripped
    raise Rejected("no JSON answer in the reply")


def parse_reply(text: str | None, item: QAItem) -> ParsedAnswer:
    """Parse a reply to ``item``; a reply holding no readable answer is rejected."""
    if text is None or not text.strip():
        return ParsedAnswer(rejected=True, reason="empty reply")
    if len(text) > MAX_REPLY_CHARS:
        reason = f"reply of {len(text):,} characters is longer than the {MAX_REPLY_CHARS:,} read"
        return ParsedAnswer(rejected=True, reason=reason)
    try:
        value = extract_value(text, item.answer_key)
        if value is _NO_VALUE:
            value = _bare_value(text, item)
        return ParsedAnswer(coerce(value, item.answer_type, item.choices))
    except Rejected as exc:
        return ParsedAnswer(rejected=True, reason=str(exc))
