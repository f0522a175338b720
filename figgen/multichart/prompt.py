"""Questions as QA items for ``figgen eval``, worded as the paper's baseline prompt (appendix H).

Each question is asked once per mode, in its own call with all of that mode's images; the reply
is the paper's JSON object and the final answer is read from ``LLM_answer_final``.
"""

from __future__ import annotations

import json

from figgen.multichart.questions import LETTERS, Ask
from figgen.schema.qa_item import QAItem

ANSWER_KEY = "LLM_answer_final"
PREAMBLE = (
    "Please carefully examine the images provided above. They contain charts, tables, or data "
    "visualizations. Based on the information shown in these images, answer the following "
    "question. Respond with a JSON object containing 'LLM_answer_final': the final answer, a "
    "number, A/B/C/D, or True/False, and 'reasoning': a brief explanation of your reasoning."
)
FORMAT = {
    "LLM_answer_initial": "your initial answer here (a number, A/B/C/D, or True/False)",
    "reasoning": "brief explanation of how you arrived at this answer",
    "LLM_answer_final": "your final answer here (a number, A/B/C/D, or True/False)",
}


def options_text(ask: Ask) -> str:
    if not ask.options:
        return "none"
    return " ".join(f"{letter}. {text}" for letter, text in zip(LETTERS, ask.options, strict=True))


def question_text(ask: Ask, number: int) -> str:
    return (
        f"{PREAMBLE}\n\nQuestion {number}: {ask.text} Options: {options_text(ask)}\n"
        "Please answer in the following JSON format exactly:\n"
        f"{json.dumps(FORMAT, indent=1)}"
    )


def qa_item(ask: Ask, *, qid: str, figure_id: str, number: int) -> QAItem:
    """The item ``figgen eval`` asks and scores (numbers within 1%, choices and booleans exact)."""
    return QAItem(
        qid=qid,
        figure_id=figure_id,
        level=3 if ask.type == "compare" else 2,
        scope="cross-panel",
        panel=None,
        location=None,
        family=f"multichart_{ask.type}",
        question=question_text(ask, number),
        answer=ask.answer,
        answer_type=ask.answer_type,
        answer_key=ANSWER_KEY,
        metric="relative_1pct" if ask.answer_type == "number" else "exact",
        choices=list(LETTERS) if ask.answer_type == "choice" else None,
    )
