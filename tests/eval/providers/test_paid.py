"""One real call per vendor; skipped unless FIGGEN_PAID_TESTS=1 and the vendor's key is set."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from figgen.eval.cost.prices import load_prices
from figgen.eval.providers import make_provider
from figgen.eval.run.dataset import load_dataset, select_items
from figgen.eval.run.runner import RunOptions, run_questions
from figgen.schema.answers import read_answers

pytestmark = [
    pytest.mark.paid,
    pytest.mark.skipif(os.environ.get("FIGGEN_PAID_TESTS") != "1", reason="FIGGEN_PAID_TESTS!=1"),
]


@pytest.mark.parametrize(
    ("model", "key"),
    [
        ("openai:gpt-4o-mini", "OPENAI_API_KEY"),
        ("anthropic:claude-haiku-4-5", "ANTHROPIC_API_KEY"),
        ("gemini:gemini-2.5-flash-lite", "GEMINI_API_KEY"),
    ],
)
def test_one_real_question(model: str, key: str, dataset_dir: Path, tmp_path: Path) -> None:
    if not os.environ.get(key):
        pytest.skip(f"{key} is not set")
    dataset = load_dataset(dataset_dir)
    out = tmp_path / "answers.jsonl"

    async def go() -> None:
        provider = make_provider(model)
        await run_questions(
            dataset,
            select_items(dataset.items, limit=1),
            provider,
            RunOptions(model, out, prices=load_prices(), progress=False, max_cost=0.01),
        )

    asyncio.run(go())
    (row,) = read_answers(out)
    assert row["error"] is None and row["usage"]["input_tokens"] > 0 and row["cost_usd"] > 0
