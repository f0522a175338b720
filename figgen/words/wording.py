"""Small pieces of English that questions and descriptions share."""

from __future__ import annotations

from typing import Any

_NUMBER_WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
)


def count(n: int, noun: str) -> str:
    """ "three lines", "one bin", "12 points"."""
    word = _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)
    return f"{word} {noun}{'' if n == 1 else 's'}"


def num(value: float) -> str:
    """A value in a description: three significant figures."""
    return f"{value:.3g}".replace("e+0", "e").replace("e-0", "e-")


def join(parts: list[str], last: str = "and") -> str:
    """ "a", "a and b", "a, b and c" (``last="or"``: "a, b or c")."""
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + f" {last} " + parts[-1]


def cap(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


def has(values: Any) -> bool:
    """A stored list that is present and not empty (error sizes, colour values)."""
    return values is not None and len(values) > 0
