"""Every provider sends all of a prompt's images, in order, before the question text."""

from __future__ import annotations

import asyncio
import base64
import io
import json
from dataclasses import replace

import pytest
from PIL import Image

from figgen.eval.providers import AskConfig, Prompt, Turn, make_provider
from figgen.eval.providers.image import FigureImage
from figgen.schema.qa_item import QAItem
from tests.eval.fake_server import (
    FakeServer,
    Request,
    Response,
    chat_reply,
    gemini_reply,
    messages_reply,
    responses_reply,
)

ITEM = QAItem(
    "q1",
    "mc-0-extended",
    2,
    "cross-panel",
    None,
    None,
    "multichart_extract",
    "Q?",
    1.0,
    "number",
    "LLM_answer_final",
    "relative_1pct",
)


def _png(width: int) -> FigureImage:
    out = io.BytesIO()
    Image.new("RGB", (width, 20), "white").save(out, format="PNG")
    return FigureImage(out.getvalue(), width, 20)


PROMPT = Prompt("the question", _png(30), ITEM, (_png(40), _png(50)))


def _widths(datas: list[str]) -> list[int]:
    widths = []
    for data in datas:
        encoded = data.split(",", 1)[-1].replace("-", "+").replace("_", "/")  # gemini: urlsafe
        raw = base64.b64decode(encoded + "=" * (-len(encoded) % 4))
        with Image.open(io.BytesIO(raw)) as img:
            widths.append(img.width)
    return widths


def _parts(body: dict) -> list[tuple[str, str]]:
    """(kind, payload) of every content part, in order, for each vendor's request shape."""
    messages = body.get("messages") or body.get("input") or body.get("contents")
    out = []
    for part in messages[0].get("content", messages[0].get("parts", [])):
        if part.get("type") in ("text", "input_text") or "text" in part:
            out.append(("text", part["text"]))
        elif part.get("type") == "image_url":
            out.append(("image", part["image_url"]["url"]))
        elif part.get("type") == "input_image":
            out.append(("image", part["image_url"]))
        elif part.get("type") == "image":
            out.append(("image", part["source"]["data"]))
        else:
            inline = part.get("inlineData") or part.get("inline_data")
            out.append(("image", inline["data"]))
    return out


def _sent(model, env, reply, responses, prompt, monkeypatch) -> Request:
    """The one request a provider makes to a loopback server for ``prompt``."""
    if env:
        monkeypatch.setenv(env, "test-key-123456")

    def handler(request: Request, seen: int) -> Response:
        return reply(request.model)

    with FakeServer(handler, responses=responses, chat=not responses) as server:
        base = server.base_url if model.startswith("openai") else server.root_url
        if model.startswith("openai:"):
            monkeypatch.setenv("OPENAI_BASE_URL", server.base_url)
            provider = make_provider(model)
        else:
            provider = make_provider(model, base_url=base)

        async def go():
            try:
                return await provider.ask(prompt, AskConfig())
            finally:
                await provider.aclose()

        asyncio.run(go())
        (request,) = server.requests
    return request


@pytest.mark.parametrize(
    ("model", "env", "reply", "responses"),
    [
        ("openai-compatible:vlm", None, lambda m: chat_reply(m, "{}", 1, 1), False),
        ("openai:gpt-x", "OPENAI_API_KEY", lambda m: responses_reply(m, "{}", 1, 1), True),
        ("anthropic:claude-x", "ANTHROPIC_API_KEY", lambda m: messages_reply(m, "{}", 1, 1), False),
        ("gemini:gemini-x", "GEMINI_API_KEY", lambda m: gemini_reply("{}", 1, 1), False),
    ],
)
def test_all_images_then_the_text(model, env, reply, responses, monkeypatch):
    request = _sent(model, env, reply, responses, PROMPT, monkeypatch)
    parts = _parts(request.body)
    assert [kind for kind, _ in parts] == ["image", "image", "image", "text"]
    assert _widths([payload for _, payload in parts[:3]]) == [30, 40, 50]
    assert parts[3][1] == "the question"


def _turns(body: dict) -> list[tuple[str, list[str]]]:
    """(role, kinds of its parts) of every message, for each vendor's request shape."""
    messages = body.get("messages") or body.get("input") or body.get("contents")
    out = []
    for message in messages:
        content = message.get("content", message.get("parts"))
        if isinstance(content, str):
            kinds = ["text"]
        else:
            kinds = ["text" if "text" in p else "image" for p in content]
        out.append((message["role"], kinds))
    return out


@pytest.mark.parametrize(
    ("model", "env", "reply", "responses", "assistant"),
    [
        ("openai-compatible:vlm", None, lambda m: chat_reply(m, "{}", 1, 1), False, "assistant"),
        (
            "openai:gpt-x",
            "OPENAI_API_KEY",
            lambda m: responses_reply(m, "{}", 1, 1),
            True,
            "assistant",
        ),
        (
            "anthropic:claude-x",
            "ANTHROPIC_API_KEY",
            lambda m: messages_reply(m, "{}", 1, 1),
            False,
            "assistant",
        ),
        ("gemini:gemini-x", "GEMINI_API_KEY", lambda m: gemini_reply("{}", 1, 1), False, "model"),
    ],
)
def test_a_conversation_sends_the_images_once_then_the_turns(
    model, env, reply, responses, assistant, monkeypatch
):
    prompt = replace(PROMPT, history=(Turn("reconstruct", "the data"), Turn("Q1?", "12")))
    request = _sent(model, env, reply, responses, prompt, monkeypatch)
    assert _turns(request.body) == [
        ("user", ["image", "image", "image", "text"]),
        (assistant, ["text"]),
        ("user", ["text"]),
        (assistant, ["text"]),
        ("user", ["text"]),
    ]
    texts = json.dumps(request.body)
    assert texts.index("reconstruct") < texts.index("the data") < texts.index("Q1?")
    assert texts.index("Q1?") < texts.index('"12"') < texts.index("the question")


def test_a_scaled_prompt_scales_every_image():
    half = PROMPT.scaled(0.5)
    assert [i.width for i in half.images] == [15, 20, 25]
    assert half.text == PROMPT.text and half.item is PROMPT.item
