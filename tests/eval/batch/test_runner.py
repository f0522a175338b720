"""``--batch`` through each vendor's batch endpoints on a loopback server: scored as the live
path, priced at batch prices, resumed after a kill without a second submission, and only the
questions an expired batch left submitted again."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from figgen.errors import FiggenError
from figgen.eval.batch import BatchPolicy, batch_backend, run_batch
from figgen.eval.batch.journal import journal_path
from figgen.eval.providers.base import batch_provider_names
from figgen.eval.providers.batch_api import BatchBackend, BatchResult, BatchStatus
from figgen.eval.providers.exchange import AskConfig, Prompt
from figgen.eval.report.report import write_report
from figgen.eval.run.dataset import load_dataset
from figgen.eval.run.runner import RunOptions, RunSummary
from figgen.schema.answers import read_answers
from tests.eval.cost.test_caching import (
    MODEL,
    PRICES,
    VENDORS,
    answer,
    independent_cost,
    run_live,
    vendor_provider,
)
from tests.eval.fake_vendors import FakeVendors
from tests.eval.fixtures import items

POLL = BatchPolicy(poll_initial=0.01, poll_max=0.02, rounds=2)
ITEMS = {item.qid: item for item in items()}


class Killed(BaseException):
    """Stands for a kill: not an Exception, so nothing in the run catches it."""


class Interrupted(BatchBackend):
    """The real backend, killed at one point: after the create call returned but before its
    id was recorded (``before_record``), or when first polling (``after_submit``)."""

    def __init__(self, inner: BatchBackend, point: str) -> None:
        self.inner = inner
        self.point = point
        self.name = inner.name
        self.max_requests = inner.max_requests
        self.max_bytes = inner.max_bytes

    def request(self, key: str, prompt: Prompt, config: AskConfig) -> dict[str, Any]:
        return self.inner.request(key, prompt, config)

    async def submit(self, requests: list[dict[str, Any]], token: str) -> str:
        batch_id = await self.inner.submit(requests, token)
        if self.point == "before_record":
            raise Killed
        return batch_id

    async def find(self, token: str, n_requests: int, since: float) -> str | None:
        return await self.inner.find(token, n_requests, since)

    async def status(self, batch_id: str) -> BatchStatus:
        raise Killed

    async def results(self, batch_id: str) -> list[BatchResult]:
        return await self.inner.results(batch_id)

    async def aclose(self) -> None:
        await self.inner.aclose()


def run_batched(
    dataset_dir: Path,
    out: Path,
    vendor: str,
    server: FakeVendors,
    monkeypatch: pytest.MonkeyPatch,
    *,
    kill: str | None = None,
    max_cost: float | None = None,
    max_requests: int | None = None,
) -> RunSummary:
    dataset = load_dataset(dataset_dir)

    async def go() -> RunSummary:
        provider = vendor_provider(vendor, server, monkeypatch)
        backend = batch_backend(provider)
        if max_requests is not None:
            backend.max_requests = max_requests
        if kill is not None:
            backend = Interrupted(backend, kill)
        return await run_batch(
            dataset,
            dataset.items,
            provider,
            backend,
            RunOptions(
                f"{vendor}:{MODEL}",
                out,
                prices=PRICES,
                max_cost=max_cost,
                announce=lambda _: None,
            ),
            policy=POLL,
        )

    return asyncio.run(go())


@pytest.mark.parametrize("vendor", VENDORS)
def test_batch_scores_as_live_and_costs_batch_prices(
    vendor: str, dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    live_out, batch_out = tmp_path / "live.jsonl", tmp_path / "batch.jsonl"
    with FakeVendors(answer) as server:
        run_live(dataset_dir, live_out, vendor, server, monkeypatch)
    with FakeVendors(answer) as server:
        summary = run_batched(dataset_dir, batch_out, vendor, server, monkeypatch)
    assert len(server.created) == 1 and not server.live_requests
    live = {row["qid"]: row for row in read_answers(live_out)}
    batch = {row["qid"]: row for row in read_answers(batch_out)}
    assert set(batch) == set(ITEMS) and all(row["batch"] for row in batch.values())
    for qid in ITEMS:
        for key in ("raw", "parsed", "rejected", "reason", "image_scale", "image_size"):
            assert batch[qid][key] == live[qid][key], (qid, key)
    # a batch runs its requests in order, so each figure's first writes and the rest read
    assert sum(1 for b in server.billed if b.cached == 0) == 3
    assert summary.usage.cost_usd == pytest.approx(independent_cost(server.billed), rel=1e-12)
    assert all(b.batch for b in server.billed)
    # the report scores both files alike and prices the batch rows at batch prices
    dataset = load_dataset(dataset_dir)
    metrics = write_report(dataset, [batch_out], PRICES, tmp_path / "report")["models"]
    entry = metrics[f"{vendor}:{MODEL}"]
    assert entry["accuracy"] == 1.0 and entry["n"] == len(ITEMS)
    assert entry["cost_usd"] == pytest.approx(summary.usage.cost_usd, rel=1e-12)
    assert entry["batch_questions"] == len(ITEMS)
    assert entry["cached_input_tokens"] == sum(b.cached for b in server.billed)
    at_list = sum(
        ((b.input_tokens) * 2.0 + b.output_tokens * 8.0) / 1e6 for b in server.billed
    )  # every input token at the list input price, no cache, no batch
    assert entry["list_cost_usd"] == pytest.approx(at_list)
    assert entry["saving_usd"] == pytest.approx(at_list - summary.usage.cost_usd)
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "## Cost" in report and "| cached read | cache written | batch questions |" in report


@pytest.mark.parametrize("point", ["after_submit", "before_record"])
@pytest.mark.parametrize("vendor", VENDORS)
def test_a_killed_batch_run_resumes_without_submitting_twice(
    vendor: str, point: str, dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "answers.jsonl"
    with FakeVendors(answer) as server:
        with pytest.raises(Killed):
            run_batched(dataset_dir, out, vendor, server, monkeypatch, kill=point)
        assert len(server.created) == 1 and not read_answers(out)
        events = [json.loads(line)["event"] for line in journal_path(out).read_text().splitlines()]
        assert events == (
            ["submitting"] if point == "before_record" else ["submitting", "submitted"]
        )
        summary = run_batched(dataset_dir, out, vendor, server, monkeypatch)
        assert len(server.created) == 1  # found again (by its id, or by its token), not resent
        again = run_batched(dataset_dir, out, vendor, server, monkeypatch)
    rows = read_answers(out)
    assert sorted(row["qid"] for row in rows) == sorted(ITEMS)
    assert summary.answered == len(ITEMS) and summary.asked == 0
    assert again.asked == 0 and again.answered == 0 and len(server.created) == 1


@pytest.mark.parametrize("vendor", VENDORS)
def test_an_expired_batch_resubmits_only_what_it_left(
    vendor: str, dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "answers.jsonl"
    # Gemini's expired job returns nothing, the others the requests they ran
    left = len(ITEMS) if vendor == "gemini" else 3
    with FakeVendors(answer, expire=1, expire_last=3) as server:
        summary = run_batched(dataset_dir, out, vendor, server, monkeypatch)
    assert len(server.created) == 2
    first, second = server.created
    key = {"openai": "custom_id", "anthropic": "custom_id", "gemini": "key"}[vendor]
    assert len(second.requests) == left
    assert summary.asked == len(ITEMS) + left
    rows = read_answers(out)
    assert sorted(row["qid"] for row in rows) == sorted(ITEMS)  # each answered once
    assert len({r[key] for r in first.requests} & {r[key] for r in second.requests}) == 0


@pytest.mark.parametrize("vendor", VENDORS)
def test_max_cost_is_checked_before_anything_is_submitted(
    vendor: str, dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "answers.jsonl"
    with FakeVendors(answer) as server, pytest.raises(FiggenError, match="exceeds --max-cost"):
        run_batched(dataset_dir, out, vendor, server, monkeypatch, max_cost=1e-6)
    assert not server.created and not journal_path(out).exists()


def test_batches_split_by_request_count_and_a_budget_stops_the_next(
    dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "answers.jsonl"
    with FakeVendors(answer) as server:
        run_batched(dataset_dir, out, "anthropic", server, monkeypatch, max_requests=6)
    assert [len(b.requests) for b in server.created] == [6, 6, 4]
    assert sorted(row["qid"] for row in read_answers(out)) == sorted(ITEMS)


REFUSED = re.escape(
    "--batch needs a model of a provider with a batch API "
    f"({', '.join(batch_provider_names())}), not oracle; drop --batch"
)


def test_batch_refuses_an_offline_provider() -> None:
    from figgen.eval.providers import make_provider

    with pytest.raises(FiggenError, match=REFUSED):
        batch_backend(make_provider("oracle"))


def test_cli_batch_and_no_cache(
    dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``figgen eval run --batch --no-cache`` end to end; ``--batch`` refused for an offline
    model with figgen's one-line error."""
    pytest.importorskip("anthropic")
    from typer.testing import CliRunner

    from figgen._cli.main import app

    monkeypatch.setenv("ANTHROPIC_API_KEY", "test-key")
    prices = tmp_path / "prices.toml"
    prices.write_text(f'[models."{MODEL}"]\ninput = 2.0\noutput = 8.0\nbatch_input = 1.0\n')
    out = tmp_path / "answers.jsonl"
    common = ["eval", "run", "--data", str(dataset_dir), "--out", str(out), "--batch"]
    with FakeVendors(answer, polls=0) as server:  # done at the first check: no wait
        result = CliRunner().invoke(
            app,
            [
                *common,
                "--model",
                f"anthropic:{MODEL}",
                "--base-url",
                server.root_url,
                "--prices",
                str(prices),
                "--no-cache",
            ],
        )
    assert result.exit_code == 0, result.output
    assert "in batches" in result.output and "submitted batch batch_1" in result.output
    assert len(server.created) == 1 and len(read_answers(out)) == len(ITEMS)
    assert all(b.cached == 0 and b.written == 0 for b in server.billed)
    # batch_output left out: output bills at list price, input at the batch price
    expected = sum(b.input_tokens * 1.0 + b.output_tokens * 8.0 for b in server.billed) / 1e6
    assert sum(row["cost_usd"] for row in read_answers(out)) == pytest.approx(expected)
    with pytest.raises(FiggenError, match=REFUSED):
        CliRunner().invoke(app, [*common, "--model", "oracle"], catch_exceptions=False)
