"""Offline inspect_ai models: ``--model figgen/oracle`` and ``figgen/chance`` (``-M data=DIR``).

They answer from the build's ground truth, as ``figgen eval run --model oracle|chance`` does,
so a first ``inspect eval`` needs no key, no server and no network. Each reply reports its
usage (an estimate), so inspect counts no tokens itself (its counter would fetch tiktoken's
tables from the network).
"""

from __future__ import annotations

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

from inspect_ai.model import (
    ChatMessage,
    ContentImage,
    ContentText,
    GenerateConfig,
    ModelAPI,
    ModelOutput,
    ModelUsage,
)
from inspect_ai.tool import ToolChoice, ToolInfo

from figgen.errors import FiggenError
from figgen.eval.providers.guesses import chance_answer
from figgen.eval.providers.offline import oracle_reply
from figgen.eval.run.prompt import prompt_text
from figgen.schema.qa_item import QAItem

ANSWERERS = ("oracle", "chance")


class FiggenModel(ModelAPI):
    """Answers each figgen question from the build in ``data``, found by its image and text."""

    def __init__(
        self,
        model_name: str,
        base_url: str | None = None,
        api_key: str | None = None,
        config: GenerateConfig | None = None,
        data: str = "dataset",
        **_: Any,
    ) -> None:
        super().__init__(model_name, base_url, api_key, [], config or GenerateConfig())
        if model_name not in ANSWERERS:
            raise FiggenError(
                f"figgen/{model_name} is not a figgen model; use figgen/oracle or figgen/chance"
            )
        from figgen.eval.run.dataset import load_dataset

        dataset = load_dataset(data)
        digests: dict[str, str] = {}
        self._items: dict[tuple[str, str], QAItem] = {}
        for item in dataset.items:
            if item.figure_id not in digests:
                png = (Path(data) / "figures" / f"{item.figure_id}.png").read_bytes()
                digests[item.figure_id] = hashlib.sha256(png).hexdigest()
            self._items[(digests[item.figure_id], prompt_text(item))] = item

    async def generate(
        self,
        input: list[ChatMessage],
        tools: list[ToolInfo],
        tool_choice: ToolChoice,
        config: GenerateConfig,
    ) -> ModelOutput:
        item = self._item(input)
        if self.model_name == "oracle":
            reply = oracle_reply(item)
        else:
            reply = json.dumps({item.answer_key: chance_answer(item)}, ensure_ascii=False)
        output = ModelOutput.from_content(model=f"figgen/{self.model_name}", content=reply)
        words = sum(len(part.split()) for part in (item.question, reply))
        output.usage = ModelUsage(input_tokens=words, output_tokens=1, total_tokens=words + 1)
        return output

    def _item(self, messages: list[ChatMessage]) -> QAItem:
        content = messages[-1].content
        parts = content if isinstance(content, list) else []
        images = [p.image for p in parts if isinstance(p, ContentImage)]
        texts = [p.text for p in parts if isinstance(p, ContentText)]
        if not images or not texts:
            raise FiggenError("figgen/oracle answers figgen_qa samples only (an image and a text)")
        encoded = images[0].split(",", 1)[-1]
        digest = hashlib.sha256(base64.b64decode(encoded)).hexdigest()
        item = self._items.get((digest, texts[-1]))
        if item is None:
            raise FiggenError(
                "this question is not in the build given by -M data=DIR; pass the same folder "
                "as -T data=DIR"
            )
        return item
