"""Every answer type as one declaration, and the sentence that tells a reader exactly how to
answer (and the question without it, for people and harnesses that ask in their own words).

What varies by answer type is a field of its :class:`AnswerTypeSpec` in :data:`ANSWER_TYPES`:
the question's instruction, the eval prompt's wording, the input the human-study page shows,
and what kind of value it is for blind baselines, chance and people's agreement. Each reader
takes the field it needs and never branches on the type's name. The reply parser and the
``chance`` provider's guesser register one function per type beside their own code
(``figgen.eval.scoring.parse``, ``figgen.eval.providers.guesses``).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any, Literal, get_args

from figgen._util.registry import Registry

AnswerType = Literal[
    "integer",  # 7
    "number",  # 3.25
    "boolean",  # true / false
    "choice",  # one of ``choices`` (a string)
    "string",  # free text, e.g. a title
    "string_list",  # ["title a", "title b"]
    "choice_list",  # several of ``choices``, order irrelevant
    "integer_pair",  # [rows, cols]
    "number_pair",  # [low, high]
    "number_list",  # [1.0, 2.5, 4.0], order irrelevant
]
"""The answer types, for mypy; :data:`ANSWER_TYPES` declares each (checked at import)."""

InputKind = Literal["number", "pair", "choice", "choices", "list", "text"]
"""The inputs of the human-study page (``figgen.human.inputs``)."""

Agreement = Literal["categorical", "numeric"]


@dataclass(frozen=True)
class AnswerTypeSpec:
    """Everything figgen knows about one answer type, apart from how a reply is parsed and how
    the ``chance`` provider guesses (registered per type beside that code)."""

    name: str
    placeholder: str
    """The value in the question's instruction, ``{"key": <placeholder>}``; a type picked from
    the offered choices has ``{choices}`` filled with them, quoted."""
    shape: str
    """The eval prompt's wording of the answer ("ANSWER is an integer, e.g. 3")."""
    page_input: InputKind
    """The input the human-study page gives a person."""
    choices: Literal["one", "any"] | None = None
    """The answer is one of the item's offered choices, or any set of them; None: not picked
    from them. The question needs choices to state it."""
    fixed_choices: tuple[tuple[str, Any], ...] = ()
    """The values every answer is one of, whatever the item offers, with their labels (true
    and false): the page's buttons, and a uniform guess's chance of being right."""
    numbers: bool = False
    """Values are numbers, or lists of them: the page reads them as numbers and people's
    agreement is measured on them as numbers."""
    integers: bool = False
    """Values are whole numbers: the page accepts only integers, and chance is a uniform guess
    among the answers the family takes."""
    continuous: bool = False
    """Real numbers of a fixed shape: blind baselines guess the median of the family's answers
    (a value that rarely recurs has no most frequent class)."""
    few_classes: bool = False
    """The answers fall into few classes, which the blind text model learns from the
    question's words."""
    unordered: bool = False
    """A list whose order is irrelevant: people's number lists are compared sorted."""

    @property
    def agreement(self) -> Agreement | None:
        """How people's agreement is measured: on the labels they picked, on the numbers they
        gave, or not at all (free text is compared with the truth only)."""
        if self.choices is not None or self.fixed_choices:
            return "categorical"
        return "numeric" if self.numbers else None


ANSWER_TYPES: Registry[AnswerTypeSpec] = Registry("answer type")
"""Every answer type by name, in the order of :data:`AnswerType`."""


def declare_answer_type(spec: AnswerTypeSpec) -> AnswerTypeSpec:
    """Add ``spec`` to :data:`ANSWER_TYPES` under its name; a taken name is an error."""
    return ANSWER_TYPES.add(spec.name, spec)


declare_answer_type(
    AnswerTypeSpec(
        "integer",
        "<integer>",
        "an integer, e.g. 3",
        "number",
        numbers=True,
        integers=True,
        few_classes=True,
    )
)
declare_answer_type(
    AnswerTypeSpec(
        "number",
        "<number>",
        "a number, e.g. 2.5 or -1.2e-3",
        "number",
        numbers=True,
        continuous=True,
    )
)
declare_answer_type(
    AnswerTypeSpec(
        "boolean",
        "<true or false>",
        "true or false",
        "choice",
        fixed_choices=(("true", True), ("false", False)),
        few_classes=True,
    )
)
declare_answer_type(
    AnswerTypeSpec(
        "choice",
        "<one of {choices}>",
        "one of the choices, as a string",
        "choice",
        choices="one",
        few_classes=True,
    )
)
declare_answer_type(AnswerTypeSpec("string", "<string>", "a string", "text"))
declare_answer_type(
    AnswerTypeSpec("string_list", "<list of strings>", 'a list of strings, e.g. ["a", "b"]', "list")
)
declare_answer_type(
    AnswerTypeSpec(
        "choice_list",
        "<list of any of {choices}>",
        "a list of the choices that apply",
        "choices",
        choices="any",
        few_classes=True,
        unordered=True,
    )
)
declare_answer_type(
    AnswerTypeSpec(
        "integer_pair",
        "[<integer>, <integer>]",
        "a list of two integers, e.g. [2, 3]",
        "pair",
        numbers=True,
        integers=True,
        few_classes=True,
    )
)
declare_answer_type(
    AnswerTypeSpec(
        "number_pair",
        "[<number>, <number>]",
        "a list of two numbers, e.g. [0.5, 10]",
        "pair",
        numbers=True,
        continuous=True,
    )
)
declare_answer_type(
    AnswerTypeSpec(
        "number_list",
        "<list of numbers>",
        "a list of numbers, e.g. [1.5, 2, 4.25]",
        "list",
        numbers=True,
        unordered=True,
    )
)

if tuple(ANSWER_TYPES) != get_args(AnswerType):  # mypy checks names against the Literal
    raise TypeError(
        f"AnswerType lists {get_args(AnswerType)} but ANSWER_TYPES declares "
        f"{tuple(ANSWER_TYPES)}: declare every answer type once, in the Literal's order"
    )


def answer_spec(answer_type: str) -> AnswerTypeSpec:
    """The declaration of ``answer_type``; an unknown name is a one-line FiggenError."""
    return ANSWER_TYPES.get_or_fail(answer_type)


def _quoted(choices: list[str]) -> str:
    return ", ".join(json.dumps(choice) for choice in choices)


def answer_instruction(key: str, answer_type: AnswerType, choices: list[str] | None = None) -> str:
    """'Answer with a JSON object {"key": <type>}.' with the choice list where one is offered."""
    spec = answer_spec(answer_type)
    value = spec.placeholder
    if spec.choices is not None:
        if not choices:
            raise ValueError(f"a {answer_type} answer needs choices")
        value = value.format(choices=_quoted(choices))
    return f"Answer with a JSON object {{{json.dumps(key)}: {value}}} and nothing else."


_JSON_FORMAT = re.compile(r"\s*Answer with a JSON object \{.*\} and nothing else\.?\s*$", re.DOTALL)


def plain_question(question: str) -> str:
    """The question without figgen's JSON answer-format sentence.

    VLMEvalKit adds its own instruction (pick a letter, or answer briefly) and the ``answer``
    column holds a plain value; a person answers in a form: the JSON request would only conflict.
    """
    return _JSON_FORMAT.sub("", question).strip()
