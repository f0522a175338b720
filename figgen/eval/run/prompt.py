"""The text sent with each figure: the question and the answer format it must come back in."""

from __future__ import annotations

import json

from figgen.errors import FiggenError
from figgen.eval.grounding.evidence import evidence_target
from figgen.eval.grounding.grounding import PromptMode, with_mode
from figgen.eval.grounding.set_grounding import SetTarget, set_instruction
from figgen.eval.providers.exchange import Prompt
from figgen.eval.providers.image import FigureImage
from figgen.schema.answer_types import AnswerType, answer_spec
from figgen.schema.qa_item import QAItem
from figgen.schema.record import Record


def answer_shape(answer_type: AnswerType) -> str:
    return answer_spec(answer_type).shape


def format_instruction(item: QAItem) -> str:
    """How to answer: a JSON object with the answer under ``answer_key``."""
    lines = [
        f"Reply with only a JSON object of the form {{{json.dumps(item.answer_key)}: ANSWER}}, "
        f"where ANSWER is {answer_shape(item.answer_type)}."
    ]
    if item.choices:
        lines.append(
            "Choices: " + ", ".join(json.dumps(c, ensure_ascii=False) for c in item.choices)
        )
    return "\n".join(lines)


def states_format(item: QAItem) -> bool:
    """Whether the question already says to answer in JSON under its key (figgen.vqa's do)."""
    return "JSON" in item.question and json.dumps(item.answer_key) in item.question


def prompt_text(item: QAItem) -> str:
    """The full text of one independent question about one figure.

    The answer-format instruction is appended unless the question already states it.
    """
    question = item.question.strip()
    return question if states_format(item) else f"{question}\n\n{format_instruction(item)}"


def build_prompt(
    item: QAItem,
    image: FigureImage,
    *,
    mode: PromptMode = "plain",
    record: Record | None = None,
    more: tuple[FigureImage, ...] = (),
    text: str | None = None,
    set_target: SetTarget | None = None,
) -> Prompt:
    """The prompt for ``item`` about ``image`` (then ``more``) in ``mode``.

    ``record`` supplies the evidence of a grounded or pointed prompt about one image,
    ``set_target`` the evidence per image of one about several (a multi-chart set). ``text``
    replaces the item's own question text (another task's prompt).
    """
    text = prompt_text(item) if text is None else text
    if mode == "plain":
        return Prompt(text, image, item, more)
    if more and set_target is None:
        raise FiggenError(f"{item.qid}: no evidence per image to locate; use --prompt plain")
    if set_target is not None:  # a set's question, of one image or several
        sizes = [(i.width, i.height) for i in (image, *more)]
        # the target is in pixels of the stored images; state and score the ones sent
        extra = set_instruction(mode, sizes)
        located = set_target.in_images(sizes)
        return Prompt(f"{text}\n\n{extra}", image, item, more, mode, set_evidence=located)
    target = None if record is None else evidence_target(record, item)
    evidence = None if target is None else target.in_image(image.width, image.height)
    return Prompt(
        with_mode(text, mode, image.width, image.height), image, item, mode=mode, evidence=evidence
    )


def locatable(
    item: QAItem,
    record: Record | None,
    mode: PromptMode,
    set_target: SetTarget | None = None,
) -> bool:
    """Whether ``item`` can be scored in ``mode``: it has evidence boxes (and points), in its
    figure or in the images of its set."""
    if mode == "plain":
        return True
    if set_target is not None:
        return set_target.any(mode)
    target = None if record is None else evidence_target(record, item)
    return target is not None and (mode == "grounded" or bool(target.points))
