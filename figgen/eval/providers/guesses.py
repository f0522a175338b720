"""The ``chance`` provider's guesses: one guesser per answer type, registered with
``@guesses(name)``, that uses only the type and the offered choices."""

from __future__ import annotations

import hashlib
import random
from collections.abc import Callable
from typing import Any

from figgen._util.registry import Registry
from figgen.schema.answer_types import AnswerType
from figgen.schema.qa_item import QAItem

Guesser = Callable[[random.Random, list[str]], Any]
"""``(rng, offered choices)`` -> a guess of the type (the choices are ``[]`` when none are)."""

GUESSERS: Registry[Guesser] = Registry("chance guesser")
"""One guesser per answer type (:data:`figgen.schema.answer_types.ANSWER_TYPES`)."""


def guesses(answer_type: AnswerType) -> Callable[[Guesser], Guesser]:
    """``@guesses("number_pair")``: register the decorated function as the type's guesser."""
    return GUESSERS.decorator(answer_type)


def _rng(item: QAItem) -> random.Random:
    digest = hashlib.sha256(item.qid.encode("utf-8")).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def chance_answer(item: QAItem) -> Any:
    """A guess that uses only the answer type and the offered choices, seeded by the qid."""
    return GUESSERS.get_or_fail(item.answer_type)(_rng(item), item.choices or [])


@guesses("integer")
def _integer(rng: random.Random, choices: list[str]) -> Any:
    return rng.randint(1, 10)


@guesses("number")
def _number(rng: random.Random, choices: list[str]) -> Any:
    return 0.0


@guesses("boolean")
def _boolean(rng: random.Random, choices: list[str]) -> Any:
    return rng.random() < 0.5


@guesses("choice")
def _choice(rng: random.Random, choices: list[str]) -> Any:
    return rng.choice(choices) if choices else ""


@guesses("string")
def _string(rng: random.Random, choices: list[str]) -> Any:
    return ""


@guesses("string_list")
def _string_list(rng: random.Random, choices: list[str]) -> Any:
    return [""]


@guesses("choice_list")
def _choice_list(rng: random.Random, choices: list[str]) -> Any:
    return [c for c in choices if rng.random() < 0.5]


@guesses("integer_pair")
def _integer_pair(rng: random.Random, choices: list[str]) -> Any:
    return [rng.randint(1, 5), rng.randint(1, 5)]


@guesses("number_pair")
def _number_pair(rng: random.Random, choices: list[str]) -> Any:
    return [0.0, 1.0]


@guesses("number_list")
def _number_list(rng: random.Random, choices: list[str]) -> Any:
    return [0.0]
