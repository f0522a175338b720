"""``blind:majority|template|text|choice``: baselines that answer from the question alone.

The provider is fitted on the train split of the dataset it answers (the export's split
rule), so ``figgen eval run --model blind:text`` asks only the validation and test questions
(:func:`blind_items`) and writes an answers file scored like any model's.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from figgen.errors import FiggenError
from figgen.eval.blind.fit import figure_splits
from figgen.eval.blind.models import BASELINES, BlindBaseline
from figgen.eval.providers.base import Provider, register_provider
from figgen.eval.providers.exchange import AskConfig, Prompt, Reply
from figgen.schema.qa_item import QAItem


class BlindProvider(Provider):
    """One blind baseline fitted on the train split; it never looks at the image."""

    def __init__(self, model: str, items: Sequence[QAItem]) -> None:
        super().__init__(model)
        split = figure_splits(items)
        train = [item for item in items if split[item.figure_id] == "train"]
        if not train:
            raise FiggenError("the dataset has no train split to fit a blind baseline on")
        self._baseline = BlindBaseline(model).fit(train)  # type: ignore[arg-type]
        self._train = {item.figure_id for item in train}

    async def ask(self, prompt: Prompt, config: AskConfig) -> Reply:
        item = prompt.item
        if item.figure_id in self._train:
            raise FiggenError(f"{item.qid} is in the train split the blind baseline learnt from")
        value = self._baseline.predict(item)
        return Reply(json.dumps({item.answer_key: value}, ensure_ascii=False))


def blind_items(items: Sequence[QAItem], asked: Sequence[QAItem]) -> list[QAItem]:
    """The ``asked`` items a blind baseline may answer: those outside the train split."""
    split = figure_splits(items)
    return [item for item in asked if split.get(item.figure_id) != "train"]


@register_provider("blind", BlindProvider)
def blind_provider(
    model: str,
    *,
    base_url: str | None = None,
    items: Sequence[QAItem] | None = None,
    **_: Any,
) -> Provider:
    """A blind baseline (``blind:majority``, ``blind:template``, ``blind:text``,
    ``blind:choice``) fitted on the train split of the dataset's questions."""
    if model not in BASELINES:
        raise FiggenError(
            f"unknown blind baseline {model!r}; use one of "
            + ", ".join(f"blind:{name}" for name in BASELINES)
        )
    if items is None:
        raise FiggenError("a blind baseline needs the dataset's questions to learn from")
    return BlindProvider(model, items)
