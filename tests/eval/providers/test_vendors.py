"""Anthropic and Gemini through their real SDKs against the local fake server; SDK hints."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from figgen.errors import FiggenError
from figgen.eval.cost.prices import load_prices
from figgen.eval.providers import make_provider, oracle_reply
from figgen.eval.run.dataset import load_dataset, select_items
from figgen.eval.run.runner import RetryPolicy, RunOptions, run_questions
from figgen.schema.answers import read_answers
from tests.eval.fake_server import FakeServer, Request, Response, gemini_reply, messages_reply
from tests.eval.fixtures import items

FAST = RetryPolicy(attempts=4, initial_wait=0.001, max_wait=0.01, jitter=0.001)
ITEMS = {item.qid: item for item in items()}


def _run(dataset_dir: Path, out: Path, model: str, base_url: str, n: int) -> None:
    dataset = load_dataset(dataset_dir)
    chosen = select_items(dataset.items, limit=n)

    async def go() -> None:
        provider = make_provider(model, base_url=base_url)
        await run_questions(
            dataset,
            chosen,
            provider,
            RunOptions(
                model, out, prices=load_prices(), policy=FAST, progress=False, concurrency=1
            ),
        )

    asyncio.run(go())


def test_anthropic_messages_with_overload_and_overflow(
    dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("anthropic")
    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-anthropic-key")

    def handler(request: Request, seen: int) -> Response:
        assert request.qid is not None
        if request.qid == "q000" and seen == 0:
            return Response(
                529,
                {"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}},
            )
        if request.qid == "q002" and request.image_size and request.image_size[0] > 450:
            return Response(
                400,
                {
                    "type": "error",
                    "error": {
                        "type": "invalid_request_error",
                        "message": "prompt is too long: 250000 tokens > 200000 maximum",
                    },
                },
            )
        return messages_reply(request.model, oracle_reply(ITEMS[request.qid]), 500, 9)

    out = tmp_path / "answers.jsonl"
    with FakeServer(handler) as server:
        _run(dataset_dir, out, "anthropic:claude-haiku-4-5", server.root_url, 3)
    rows = {r["qid"]: r for r in read_answers(out)}
    assert rows["q000"]["attempts"] == 2
    assert sum(r.qid == "q000" for r in server.requests) == 2
    assert rows["q002"]["image_scale"] == 0.5
    assert all(not r["rejected"] and r["error"] is None for r in rows.values())
    # claude-haiku-4-5 is $1 / $5 per million in the shipped table
    assert rows["q001"]["cost_usd"] == pytest.approx((500 * 1.0 + 9 * 5.0) / 1e6)
    assert server.requests[0].body["max_tokens"] == 1024


def test_gemini_generate_content_with_rate_limit(
    dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pytest.importorskip("google.genai")
    monkeypatch.setenv("GEMINI_API_KEY", "test-gemini-key")

    def handler(request: Request, seen: int) -> Response:
        assert request.qid is not None
        if request.qid == "q001" and seen == 0:
            return Response(
                429, {"error": {"code": 429, "message": "quota", "status": "RESOURCE_EXHAUSTED"}}
            )
        return gemini_reply(oracle_reply(ITEMS[request.qid]), 300, 5, thoughts=20)

    out = tmp_path / "answers.jsonl"
    with FakeServer(handler) as server:
        _run(dataset_dir, out, "gemini:gemini-2.5-flash-lite", server.root_url, 2)
    rows = {r["qid"]: r for r in read_answers(out)}
    assert rows["q001"]["attempts"] == 2
    assert sum(r.qid == "q001" for r in server.requests) == 2
    # thinking tokens are billed as output
    assert rows["q000"]["usage"] == {"input_tokens": 300, "output_tokens": 25}
    assert server.requests[0].image_size == (640, 480)


@pytest.mark.parametrize(
    ("model", "module", "extra"),
    [
        ("openai:gpt-4o", "openai", "openai"),
        ("openai-compatible:m", "openai", "openai"),
        ("anthropic:claude-haiku-4-5", "anthropic", "anthropic"),
        ("gemini:gemini-2.5-flash", "google.genai", "gemini"),
    ],
)
def test_missing_sdk_gives_one_line_install_hint(
    model: str, module: str, extra: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, module, None)  # makes ``import module`` fail
    with pytest.raises(FiggenError) as info:
        make_provider(model, base_url="http://127.0.0.1:9/v1")
    message = str(info.value)
    assert f"pip install 'figgen[{extra}]'" in message
    assert "\n" not in message


def test_missing_key_and_unknown_provider(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(FiggenError, match="set the environment variable OPENAI_API_KEY"):
        make_provider("openai:gpt-4o")
    with pytest.raises(FiggenError, match="unknown provider 'gpt'"):
        make_provider("gpt:4o")
    with pytest.raises(FiggenError, match="needs --base-url"):
        make_provider("openai-compatible:llava")


def test_context_overflow_classification_by_message() -> None:
    from figgen.eval.providers.overflow import says_context_overflow

    assert says_context_overflow("This model's maximum context length is 4096 tokens.")
    assert says_context_overflow("prompt is too long: 250000 tokens > 200000 maximum")
    assert says_context_overflow("The input token count (1200000) exceeds the maximum")
    assert not says_context_overflow("Invalid value for 'temperature'")
