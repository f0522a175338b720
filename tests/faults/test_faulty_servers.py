"""Every provider SDK path against a server that fails in every way a real one does.

Each question of the eval fixtures gets its own fault; afterwards every question must have
ended answered or with its error recorded, no question may have been tried more often than
the retry cap allows, the cost must stay within --max-cost, and the report must count the
errors.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from figgen.eval.cost.prices import PriceTable, load_prices
from figgen.eval.cost.tokens import openai_image_tokens
from figgen.eval.providers import make_provider, oracle_reply
from figgen.eval.report.aggregate import score_rows
from figgen.eval.report.report import write_report
from figgen.eval.run.dataset import load_dataset
from figgen.eval.run.estimate import estimate_run
from figgen.eval.run.runner import CUT_MARK, RetryPolicy, RunOptions, RunSummary, run_questions
from figgen.eval.scoring.parse import MAX_REPLY_CHARS
from figgen.schema.answers import latest_rows, read_answers
from tests.eval.fixtures import items, make_dataset

from .fault_server import (
    Action,
    Api,
    FaultServer,
    Reset,
    Send,
    Trickle,
    Truncate,
    reply,
    status,
    without_usage,
)

ITEMS = {item.qid: item for item in items()}
PRICES = PriceTable({"m": load_prices().models["gpt-5-mini"]})
SDK_TIMEOUT = 1.5  # each network read (generous: CI machines are loaded)
CALL_TIMEOUT = 3.0  # a whole call
POLICY = RetryPolicy(
    attempts=4, initial_wait=0.001, max_wait=0.5, jitter=0.001, call_timeout=CALL_TIMEOUT
)
RETRY_AFTER_S = 0.3
PERSISTENT = "q010"  # 503 every time: must end as a recorded error after exactly the cap

# provider spec, the APIs the server offers (the Responses path: chat is missing, so the
# openai provider on a --base-url switches to Responses), the SDK to import
PATHS: dict[str, tuple[str, frozenset[Api], str]] = {
    "openai-chat": ("openai-compatible:m", frozenset({"chat"}), "openai"),
    "openai-responses": ("openai:m", frozenset({"responses"}), "openai"),
    "anthropic": ("anthropic:m", frozenset({"messages"}), "anthropic"),
    "gemini": ("gemini:m", frozenset({"gemini"}), "google.genai"),
}


def correct(api: Api, qid: str) -> Action:
    return Send(reply(api, oracle_reply(ITEMS[qid])))


def plan(api: Api, qid: str, seen: int) -> Action:
    """One fault per question, on its first tries; then the right answer."""
    ok = reply(api, oracle_reply(ITEMS[qid]))
    faults: dict[str, list[Action]] = {
        "q000": [Send(status(api, 500)), Send(status(api, 502))],
        "q001": [Send(status(api, 429, {"retry-after-ms": str(int(RETRY_AFTER_S * 1000))}))],
        "q002": [Send(status(api, 429))],
        "q003": [Truncate(ok)],  # the connection drops before Content-Length is reached
        "q004": [Truncate(ok, honest_length=True)],  # a complete response of cut JSON
        "q005": [Reset(ok)],
        "q006": [Trickle(ok, chunk=16, interval=0.3)],  # every read in time, the call not
        "q007": [Send(ok, delay=SDK_TIMEOUT * 2)],  # a stall past the read timeout
        PERSISTENT: [Send(status(api, 503))] * 99,
    }
    if qid == "q008":
        return Send(reply(api, json.dumps({"n_panels": 2}) + " " * (MAX_REPLY_CHARS * 2)))
    if qid == "q009":
        return Send(without_usage(ok))
    script = faults.get(qid, [])
    return script[seen] if seen < len(script) else Send(ok)


def run(
    data: Path, out: Path, spec: str, base_url: str, *, max_cost: float | None = None
) -> RunSummary:
    dataset = load_dataset(data)

    async def go() -> RunSummary:
        provider = make_provider(spec, base_url=base_url, timeout=SDK_TIMEOUT)
        return await run_questions(
            dataset,
            dataset.items,
            provider,
            RunOptions(
                spec,
                out,
                prices=PRICES,
                policy=POLICY,
                progress=False,
                concurrency=4,
                max_cost=max_cost,
            ),
        )

    return asyncio.run(go())


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return make_dataset(tmp_path / "data")


@pytest.mark.parametrize("path", list(PATHS))
def test_every_question_ends_answered_or_with_its_error(
    path: str, data: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec, apis, sdk = PATHS[path]
    pytest.importorskip(sdk)
    monkeypatch.setenv("GEMINI_API_KEY", "test-gemini-key")
    out = tmp_path / "answers.jsonl"
    with FaultServer(plan, apis=apis) as server:
        summary = run(data, out, spec, server.root_url + ("/v1" if "openai" in path else ""))
    rows = latest_rows(read_answers(out))
    assert set(rows) == set(ITEMS)  # nothing lost
    failed = {qid for qid, row in rows.items() if row["error"] is not None}
    assert failed == {PERSISTENT}, {q: rows[q]["error"] for q in failed}
    assert "503" in rows[PERSISTENT]["error"] or "server error" in rows[PERSISTENT]["error"]
    assert summary.errors == 1 and summary.answered == len(ITEMS) - 1
    # retries are capped: the persistent failure got exactly the cap, nothing more than it
    assert server.asked[PERSISTENT] == POLICY.attempts
    assert max(server.asked.values()) <= POLICY.attempts
    assert server.asked["q000"] == 3 and server.asked["q002"] == 2
    for qid in ("q003", "q004", "q005", "q006", "q007"):
        assert server.asked[qid] == 2, (qid, rows[qid])
    # the server's Retry-After was honoured although our own backoff is a millisecond
    first, second = server.times["q001"]
    assert second - first >= RETRY_AFTER_S * 0.9
    # answered questions carry the right answer, the oversized one is rejected, not kept
    for qid, row in rows.items():
        if qid not in (PERSISTENT, "q008"):
            assert row["parsed"] is not None and not row["rejected"], (qid, row)
    assert rows["q008"]["rejected"] and "longer than" in rows["q008"]["reason"]
    assert rows["q008"]["raw"] == rows["q008"]["raw"][:MAX_REPLY_CHARS] + CUT_MARK
    score = score_rows(load_dataset(data), [rows["q008"]])[0]  # scoring rejects it as well
    assert score.score is not None and score.score.rejected
    # a reply without usage is billed at the estimate, never at zero
    assert rows["q009"]["usage_estimated"] and rows["q009"]["cost_usd"] > 0
    assert not rows["q000"]["usage_estimated"]


def test_report_counts_the_errors_by_kind(data: Path, tmp_path: Path) -> None:
    pytest.importorskip("openai")
    out = tmp_path / "answers.jsonl"
    with FaultServer(plan, apis=frozenset({"chat"})) as server:
        run(data, out, "openai-compatible:m", server.root_url + "/v1")
    metrics = write_report(load_dataset(data), [out], load_prices(), tmp_path / "report")
    entry = metrics["models"]["openai-compatible:m"]
    assert entry["errors"] == 1
    assert entry["errors_by_kind"] == {"InternalServerError": 1}
    report = (tmp_path / "report" / "report.md").read_text(encoding="utf-8")
    assert "## Errors" in report and "| openai-compatible:m | InternalServerError | 1 |" in report


def test_max_cost_holds_through_faults_and_missing_usage(data: Path, tmp_path: Path) -> None:
    """Replies without usage are billed at the estimate, so the budget still binds."""
    pytest.importorskip("openai")

    def dear_plan(api: Api, qid: str, seen: int) -> Action:
        """Bills three times the estimate, except two replies that report no usage at all."""
        if seen == 0 and qid in ("q001", "q005"):
            return Send(status(api, 503))
        answer = reply(api, oracle_reply(ITEMS[qid]), tokens=(3000, 30))
        return Send(without_usage(answer) if qid in ("q000", "q002") else answer)

    out = tmp_path / "answers.jsonl"
    dataset = load_dataset(data)
    price = PRICES.lookup("m")
    estimate = estimate_run(
        dataset, dataset.items, image_tokens=openai_image_tokens, price=price
    ).cost_usd
    assert estimate is not None
    limit = estimate * 1.2  # passes the pre-flight check; the real bills do not all fit
    with FaultServer(dear_plan, apis=frozenset({"chat"})) as server:
        summary = run(data, out, "openai-compatible:m", server.root_url + "/v1", max_cost=limit)
    rows = read_answers(out)
    spent = sum(row["cost_usd"] for row in rows)
    assert summary.stopped_for_budget
    assert 0 < spent <= limit
    assert summary.usage.cost_usd == pytest.approx(spent)
    estimated = {row["qid"] for row in rows if row["usage_estimated"]}
    assert estimated == {"q000", "q002"}  # asked first, so surely asked
