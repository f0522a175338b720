"""Offline providers: ``mock`` (scripted replies), ``oracle`` (ground truth), ``chance``."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from figgen.errors import FiggenError
from figgen.eval.grounding.grounding import oracle_extra
from figgen.eval.grounding.set_grounding import oracle_set_extra
from figgen.eval.providers.base import Provider, register_provider
from figgen.eval.providers.exchange import AskConfig, Prompt, Reply
from figgen.eval.providers.guesses import chance_answer
from figgen.schema.qa_item import QAItem

MockErrorKind = Literal["rate_limit", "server", "context_length", "fatal"]


class MockError(Exception):
    """A scripted failure, classified like the vendor error it stands for."""

    def __init__(self, kind: MockErrorKind) -> None:
        super().__init__(f"scripted {kind} error")
        self.kind = kind


ScriptEntry = str | Reply | MockError
Script = Sequence[ScriptEntry] | Mapping[str, ScriptEntry | Sequence[ScriptEntry]]


def _entry(value: Any) -> ScriptEntry:
    if isinstance(value, str | Reply | MockError):
        return value
    if isinstance(value, dict) and "error" in value:
        return MockError(value["error"])
    if isinstance(value, dict) and "text" in value:
        return Reply(value["text"], value.get("input_tokens", 0), value.get("output_tokens", 0))
    raise FiggenError(f"mock script entry {value!r} is not a string, {{text}} or {{error}}")


class MockProvider(Provider):
    """Replies from a script: a list used in order, or per-qid lists used in order.

    ``answer`` may instead compute the reply from the prompt. Unscripted questions get ``{}``
    (a reply in no requested format).
    """

    def __init__(
        self,
        model: str,
        script: Script | None = None,
        answer: Callable[[Prompt], str] | None = None,
    ) -> None:
        super().__init__(model)
        self._answer = answer
        self._queue: list[ScriptEntry] = []
        self._by_qid: dict[str, list[ScriptEntry]] = {}
        if isinstance(script, Mapping):
            for qid, value in script.items():
                values = value if isinstance(value, list) else [value]
                self._by_qid[qid] = [_entry(v) for v in values]
        elif script is not None:
            self._queue = [_entry(v) for v in script]
        self.asked: list[str] = []

    async def ask(self, prompt: Prompt, config: AskConfig) -> Reply:
        self.asked.append(prompt.item.qid)
        queue = self._by_qid.get(prompt.item.qid, self._queue)
        if queue:
            entry = queue.pop(0)
        elif self._answer is not None:
            entry = self._answer(prompt)
        else:
            entry = "{}"
        if isinstance(entry, MockError):
            raise entry
        if isinstance(entry, str):
            return Reply(entry)
        return entry

    def is_retryable(self, error: Exception) -> bool:
        return isinstance(error, MockError) and error.kind in ("rate_limit", "server")

    def is_context_overflow(self, error: Exception) -> bool:
        return isinstance(error, MockError) and error.kind == "context_length"

    def is_fatal(self, error: Exception) -> bool:
        return isinstance(error, MockError) and error.kind == "fatal"


def oracle_reply(item: QAItem) -> str:
    """The reply a perfect model gives: the true answer in the requested JSON shape."""
    return json.dumps({item.answer_key: item.answer}, ensure_ascii=False)


class OracleProvider(Provider):
    """Answers every question correctly; an oracle run that does not score 100% is a bug.

    In a grounded or pointed prompt it also gives the evidence's exact boxes or points.
    """

    async def ask(self, prompt: Prompt, config: AskConfig) -> Reply:
        if prompt.mode == "plain":
            return Reply(oracle_reply(prompt.item))
        reply = {prompt.item.answer_key: prompt.item.answer}
        reply |= oracle_extra(prompt.mode, prompt.evidence)
        reply |= oracle_set_extra(prompt.mode, prompt.set_evidence)
        return Reply(json.dumps(reply, ensure_ascii=False))


class ChanceProvider(Provider):
    """A baseline that guesses from the answer type (:mod:`figgen.eval.providers.guesses`)."""

    async def ask(self, prompt: Prompt, config: AskConfig) -> Reply:
        item = prompt.item
        return Reply(json.dumps({item.answer_key: chance_answer(item)}, ensure_ascii=False))


def _load_script(path: str) -> Script:
    file = Path(path)
    if not file.is_file():
        raise FiggenError(f"mock script {path} does not exist; pass --option script=FILE.json")
    try:
        return json.loads(file.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
    except json.JSONDecodeError as exc:
        raise FiggenError(f"mock script {path} is not JSON ({exc.msg}); fix the file") from None


@register_provider("mock", MockProvider)
def mock_provider(
    model: str, *, base_url: str | None = None, script: str | Script | None = None, **_: Any
) -> Provider:
    """Scripted replies; ``--option script=FILE.json`` (a list, or an object keyed by qid)."""
    return MockProvider(model, _load_script(script) if isinstance(script, str) else script)


@register_provider("oracle", OracleProvider)
def oracle_provider(model: str, *, base_url: str | None = None, **_: Any) -> Provider:
    return OracleProvider(model)


@register_provider("chance", ChanceProvider)
def chance_provider(model: str, *, base_url: str | None = None, **_: Any) -> Provider:
    return ChanceProvider(model)
