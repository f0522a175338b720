"""Prompt caching: each SDK's cache usage read and priced per token class, the cache warmed
per figure, and the estimate's prediction, against a loopback server and hand arithmetic."""

from __future__ import annotations

import asyncio
import math
from pathlib import Path
from typing import Any

import pytest

from figgen.eval.cost.prices import ModelPrice, PriceTable, load_prices
from figgen.eval.cost.tokens import anthropic_image_tokens
from figgen.eval.providers import make_provider, oracle_reply
from figgen.eval.providers.base import Provider
from figgen.eval.run.dataset import load_dataset
from figgen.eval.run.estimate import estimate_run
from figgen.eval.run.runner import RetryPolicy, RunOptions, run_questions
from figgen.schema.answers import read_answers
from tests.eval.fake_vendors import QID, Billed, FakeVendors
from tests.eval.fixtures import FIGURES, items

FAST = RetryPolicy(attempts=2, initial_wait=0.001, max_wait=0.01, jitter=0.001)
ITEMS = {item.qid: item for item in items()}
MODEL = "fake-model"
# USD per million: input, cached read, cache write, output; in a batch: half of each
LIST = (2.0, 0.2, 2.5, 8.0)
BATCH = (1.0, 0.1, 1.25, 4.0)
PRICES = PriceTable(
    {
        MODEL: ModelPrice(
            input=2.0,
            output=8.0,
            cached_input=0.2,
            cache_write=2.5,
            batch_input=1.0,
            batch_output=4.0,
            cache_min_tokens=256,
        )
    }
)
VENDORS = ("openai", "anthropic", "gemini")


def answer(text: str) -> str:
    match = QID.search(text)
    assert match is not None
    return oracle_reply(ITEMS[match.group(1)])


def independent_cost(billed: list[Billed]) -> float:
    """Tokens x the price of their class, summed by hand from what the server reported."""
    total = 0.0
    for b in billed:
        rate_in, rate_cached, rate_write, rate_out = BATCH if b.batch else LIST
        uncached = b.input_tokens - b.cached - b.written
        total += (
            uncached * rate_in + b.cached * rate_cached + b.written * rate_write
        ) / 1e6 + b.output_tokens * rate_out / 1e6
    return total


def vendor_provider(
    vendor: str, server: FakeVendors, monkeypatch: pytest.MonkeyPatch, cache: bool = True
) -> Provider:
    """The vendor's provider on its official SDK, pointed at the loopback server."""
    if vendor == "openai":
        openai = pytest.importorskip("openai")
        from figgen.eval.providers.openai_provider import OPENAI_LIMITS, OpenAIProvider

        client = openai.AsyncOpenAI(
            api_key="test-key", base_url=server.root_url + "/v1", max_retries=0
        )
        # as against api.openai.com: the Responses API, prompt_cache_key sent
        return OpenAIProvider(
            f"{MODEL}",
            client,
            openai,
            api="responses",
            may_switch=False,
            image_limits=OPENAI_LIMITS,
            cache=cache,
            official=True,
        )
    if vendor == "anthropic":
        pytest.importorskip("anthropic")
        monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    else:
        pytest.importorskip("google.genai")
        monkeypatch.setenv("GEMINI_API_KEY", "test-key")
    return make_provider(f"{vendor}:{MODEL}", base_url=server.root_url, cache=cache)


def run_live(
    dataset_dir: Path,
    out: Path,
    vendor: str,
    server: FakeVendors,
    monkeypatch: pytest.MonkeyPatch,
    cache: bool = True,
) -> Any:
    dataset = load_dataset(dataset_dir)

    async def go() -> Any:
        provider = vendor_provider(vendor, server, monkeypatch, cache)
        return await run_questions(
            dataset,
            dataset.items,
            provider,
            RunOptions(
                f"{vendor}:{MODEL}", out, prices=PRICES, policy=FAST, progress=False, concurrency=4
            ),
        )

    return asyncio.run(go())


@pytest.mark.parametrize("vendor", VENDORS)
def test_cache_usage_is_read_warmed_per_figure_and_priced_per_class(
    vendor: str, dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "answers.jsonl"
    with FakeVendors(answer) as server:
        summary = run_live(dataset_dir, out, vendor, server, monkeypatch)
    rows = {row["qid"]: row for row in read_answers(out)}
    assert set(rows) == set(ITEMS) and all(row["error"] is None for row in rows.values())
    billed = {b.qid: b for b in server.billed}
    for qid, row in rows.items():
        assert row["usage"]["input_tokens"] == billed[qid].input_tokens
        assert row["usage"].get("cached_input_tokens", 0) == billed[qid].cached
        assert row["usage"].get("cache_write_tokens", 0) == billed[qid].written
    # the first question of each figure went alone: one miss per figure, every other a hit
    misses = [b for b in server.billed if b.cached == 0]
    assert sorted(ITEMS[b.qid].figure_id for b in misses if b.qid) == sorted(FIGURES)
    if vendor == "anthropic":  # only Anthropic reports (and bills) the write
        assert sum(1 for b in server.billed if b.written) == len(FIGURES)
        images = [
            p for p in server.live_requests[0]["messages"][0]["content"] if p["type"] == "image"
        ]
        assert images[-1]["cache_control"] == {"type": "ephemeral"}
    if vendor == "openai":
        assert {r["prompt_cache_key"] for r in server.live_requests} == set(FIGURES)
    assert summary.usage.cost_usd == pytest.approx(independent_cost(server.billed), rel=1e-12)
    assert sum(row["cost_usd"] for row in rows.values()) == pytest.approx(summary.usage.cost_usd)
    assert summary.usage.cached_input_tokens == sum(b.cached for b in server.billed) > 0


def test_no_cache_sends_no_cache_control_and_reads_nothing(
    dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with FakeVendors(answer) as server:
        run_live(dataset_dir, tmp_path / "a.jsonl", "anthropic", server, monkeypatch, cache=False)
    assert all(
        "cache_control" not in part
        for request in server.live_requests
        for part in request["messages"][0]["content"]
    )
    assert all(b.cached == 0 and b.written == 0 for b in server.billed)


def test_price_classes_by_hand() -> None:
    """Shipped prices, each class checked against the vendors' published numbers."""
    table = load_prices()
    sonnet = table.lookup("anthropic:claude-sonnet-4-5")
    assert sonnet is not None
    # 10,000 input of which 6,000 read and 2,000 written; 100 output
    assert sonnet.cost(10_000, 100, 6_000, 2_000) == pytest.approx(
        (2_000 * 3.0 + 6_000 * 0.30 + 2_000 * 3.75 + 100 * 15.0) / 1e6
    )
    # in a batch every class is half price
    assert sonnet.cost(10_000, 100, 6_000, 2_000, batch=True) == pytest.approx(
        (2_000 * 1.5 + 6_000 * 0.15 + 2_000 * 1.875 + 100 * 7.5) / 1e6
    )
    mini = table.lookup("openai:gpt-5-mini")
    assert mini is not None and mini.cost(2_000, 0, 1_024) == pytest.approx(
        (976 * 0.25 + 1_024 * 0.025) / 1e6
    )
    flash = table.lookup("gemini:gemini-2.5-flash")
    assert flash is not None  # cached tokens in a batch keep the interactive cached price
    assert flash.cost(2_000, 10, 1_500, batch=True) == pytest.approx(
        (500 * 0.15 + 1_500 * 0.03 + 10 * 1.25) / 1e6
    )
    two = table.lookup("gemini:gemini-2.0-flash")
    assert two is not None and not two.caches  # no implicit caching on 2.0
    assert all(price.has_batch for price in table.models.values())


def test_estimate_prediction_by_hand(dataset_dir: Path) -> None:
    dataset = load_dataset(dataset_dir)
    price = PRICES.lookup(MODEL)
    plain = estimate_run(dataset, dataset.items, image_tokens=anthropic_image_tokens, price=price)
    cached = estimate_run(
        dataset, dataset.items, image_tokens=anthropic_image_tokens, price=price, cache=True
    )
    batch = estimate_run(
        dataset,
        dataset.items,
        image_tokens=anthropic_image_tokens,
        price=price,
        cache=True,
        batch=True,
    )
    # Anthropic's rule: width x height / 750 below a 1568 px long edge
    tokens = {
        name: math.ceil(spec["size"][0] * spec["size"][1] / 750) for name, spec in FIGURES.items()
    }
    per_figure: dict[str, int] = {}
    for item in dataset.items:
        per_figure[item.figure_id] = per_figure.get(item.figure_id, 0) + 1
    assert cached.cache_write_tokens == sum(tokens.values())
    assert cached.cached_input_tokens == sum(tokens[f] * (n - 1) for f, n in per_figure.items())
    assert cached.input_tokens == plain.input_tokens
    saved = cached.cached_input_tokens * (2.0 - 0.2) - cached.cache_write_tokens * (2.5 - 2.0)
    assert plain.cost_usd is not None and cached.cost_usd is not None
    assert plain.cost_usd - cached.cost_usd == pytest.approx(saved / 1e6)
    assert batch.cost_usd == pytest.approx(cached.cost_usd / 2)  # every class at half price
    assert cached.plain_cost_usd == pytest.approx(plain.cost_usd)
    assert "read from the prompt cache" in cached.describe(MODEL)
