"""The OpenAI-compatible path through the real openai SDK against a local fake server."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.eval.providers import oracle_reply
from figgen.schema.answers import read_answers
from figgen.schema.qa_item import QAItem
from tests.eval.fake_server import FakeServer, Request, Response, chat_reply, error, responses_reply
from tests.eval.fixtures import items

pytest.importorskip("openai")

ITEMS = {item.qid: item for item in items()}
SECRET = "sk-test-SECRETKEY0123456789"
MALFORMED = "There are a couple of panels, I believe."


def usage_of(qid: str) -> tuple[int, int]:
    """Tokens the fake server bills for a question: distinct per qid."""
    n = int(qid[1:])
    return 1000 + 7 * n, 20 + n


def scripted(request: Request, seen: int) -> Response:
    """429 once for q000, a 5xx once for q004, overflow above 450 px for q003, q001 malformed."""
    qid = request.qid
    assert qid is not None
    if qid == "q000" and seen == 0:
        return error(429, "Rate limit reached, slow down", "rate_limit_exceeded")
    if qid == "q004" and seen == 0:
        return error(503, "upstream overloaded")
    if qid == "q003" and request.image_size and request.image_size[0] > 450:
        return error(
            400,
            "This model's maximum context length is 4096 tokens. However, you "
            "requested 9000 tokens.",
            "context_length_exceeded",
        )
    text = MALFORMED if qid == "q001" else oracle_reply(ITEMS[qid])
    return chat_reply(request.model, text, *usage_of(qid))


def run_cli(*args: str) -> None:
    result = CliRunner().invoke(app, ["eval", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output


def run_args(data: Path, out: Path, server: FakeServer, model: str, *extra: str) -> list[str]:
    return [
        "run",
        "--data",
        str(data),
        "--model",
        model,
        "--base-url",
        server.base_url,
        "--out",
        str(out),
        "--retry-wait",
        "0.01",
        "--no-progress",
        "--concurrency",
        "3",
        *extra,
    ]


def write_prices(path: Path, model: str, input_usd: float, output_usd: float) -> Path:
    path.write_text(f'[models."{model}"]\ninput = {input_usd}\noutput = {output_usd}\n')
    return path


def test_retries_overflow_rejects_and_usage_reach_metrics(
    dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    out = tmp_path / "answers.jsonl"
    prices = write_prices(tmp_path / "prices.toml", "fake-vlm", 2.0, 8.0)
    with FakeServer(scripted) as server:
        run_cli(
            *run_args(
                dataset_dir, out, server, "openai-compatible:fake-vlm", "--prices", str(prices)
            )
        )
    rows = {row["qid"]: row for row in read_answers(out)}
    assert set(rows) == set(ITEMS)
    assert all(row["error"] is None for row in rows.values())
    # 429 then success: two calls (the SDK's own retries are off), one row
    assert rows["q000"]["attempts"] == 2
    assert sum(r.qid == "q000" for r in server.requests) == 2
    assert rows["q004"]["attempts"] == 2
    # context overflow at 900 px, success at 450 px
    sizes = [r.image_size for r in server.requests if r.qid == "q003"]
    assert sizes == [(900, 900), (450, 450)]
    assert rows["q003"]["image_scale"] == 0.5
    assert rows["q001"]["rejected"] and rows["q001"]["raw"] == MALFORMED
    # the key authenticated the calls but was never written
    assert server.headers[0]["authorization"] == f"Bearer {SECRET}"
    assert SECRET not in out.read_text()

    report = tmp_path / "report"
    run_cli(
        "score",
        "--data",
        str(dataset_dir),
        "--answers",
        str(out),
        "--prices",
        str(prices),
        "--out",
        str(report),
    )
    metrics = json.loads((report / "metrics.json").read_text())
    model = metrics["models"]["openai-compatible:fake-vlm"]
    expected_in = sum(usage_of(q)[0] for q in ITEMS)
    expected_out = sum(usage_of(q)[1] for q in ITEMS)
    assert model["n"] == len(ITEMS)
    assert model["answered"] == len(ITEMS)
    assert model["rejected"] == 1
    assert model["input_tokens"] == expected_in
    assert model["output_tokens"] == expected_out
    assert model["cost_usd"] == pytest.approx((expected_in * 2.0 + expected_out * 8.0) / 1e6)
    panel_count = model["by_family"]["panel_count"]
    # the malformed reply to q001 is rejected: wrong in accuracy, absent from accuracy_answered
    assert (panel_count["n"], panel_count["rejected"], panel_count["correct"]) == (3, 1, 2)
    assert panel_count["accuracy"] == pytest.approx(2 / 3, abs=1e-6)
    assert panel_count["accuracy_answered"] == 1.0
    assert model["by_family"]["titles"]["cer"] == 0.0
    assert model["by_level"]["1"]["rejected"] == 1
    for text in (report / "report.md").read_text(), (report / "metrics.json").read_text():
        assert SECRET not in text


def test_openai_provider_with_base_url_uses_chat_or_switches_to_responses(
    dataset_dir: Path, tmp_path: Path
) -> None:
    def answer(request: Request, seen: int) -> Response:
        assert request.qid is not None
        text = oracle_reply(ITEMS[request.qid])
        if request.path.endswith("/responses"):
            return responses_reply(request.model, text, *usage_of(request.qid))
        return chat_reply(request.model, text, *usage_of(request.qid))

    for chat in (True, False):
        out = tmp_path / f"answers-{chat}.jsonl"
        with FakeServer(answer, responses=not chat, chat=chat) as server:
            run_cli(
                *run_args(
                    dataset_dir,
                    out,
                    server,
                    "openai:fake-vlm",
                    "--limit",
                    "4",
                    "--concurrency",
                    "1",
                )
            )
        rows = read_answers(out)
        assert [row["qid"] for row in rows] == ["q000", "q001", "q002", "q003"]
        assert all(not row["rejected"] for row in rows)
        assert [row["usage"]["input_tokens"] for row in rows] == [
            usage_of(q)[0] for q in ("q000", "q001", "q002", "q003")
        ]
        paths = {r.path.rsplit("/", 1)[-1] for r in server.requests}
        # a chat server is used as is; a Responses-only server is found after one 404
        assert paths == ({"completions"} if chat else {"completions", "responses"})
        assert sum(r.status == 404 for r in server.requests) == (0 if chat else 1)


def test_killed_run_resumes_without_asking_twice(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "answers.jsonl"
    with FakeServer(scripted) as server:
        run_cli(*run_args(dataset_dir, out, server, "openai-compatible:fake-vlm", "--limit", "5"))
        # a kill in the middle of a write leaves half a row behind
        with out.open("a") as handle:
            handle.write('{"qid": "q0')
        run_cli(*run_args(dataset_dir, out, server, "openai-compatible:fake-vlm"))
        run_cli(*run_args(dataset_dir, out, server, "openai-compatible:fake-vlm"))
    answered = [r.qid for r in server.requests if r.status == 200]
    assert sorted(answered) == sorted(ITEMS)  # each question answered (and billed) once
    rows = read_answers(out)
    assert sorted(row["qid"] for row in rows) == sorted(ITEMS)


def test_max_cost_stops_before_exceeding(dataset_dir: Path, tmp_path: Path) -> None:
    # each answer bills 100k input tokens at $1/M: $0.10 a question, far above the estimate
    def expensive(request: Request, seen: int) -> Response:
        assert request.qid is not None
        return chat_reply(request.model, oracle_reply(ITEMS[request.qid]), 100_000, 0)

    prices = write_prices(tmp_path / "prices.toml", "fake-vlm", 1.0, 1.0)
    out = tmp_path / "answers.jsonl"
    with FakeServer(expensive) as server:
        run_cli(
            *run_args(
                dataset_dir,
                out,
                server,
                "openai-compatible:fake-vlm",
                "--concurrency",
                "1",
                "--max-cost",
                "0.35",
                "--prices",
                str(prices),
            )
        )
    rows = read_answers(out)
    spent = sum(row["cost_usd"] for row in rows)
    assert len(server.requests) == 3
    assert spent == pytest.approx(0.3)
    assert spent <= 0.35


def test_max_cost_below_estimate_refuses_to_start(dataset_dir: Path, tmp_path: Path) -> None:
    from figgen.errors import FiggenError

    prices = write_prices(tmp_path / "prices.toml", "fake-vlm", 1.0, 1.0)
    with FakeServer(scripted) as server:
        with pytest.raises(FiggenError, match="exceeds --max-cost"):
            CliRunner().invoke(
                app,
                [
                    "eval",
                    *run_args(
                        dataset_dir,
                        tmp_path / "a.jsonl",
                        server,
                        "openai-compatible:fake-vlm",
                        "--max-cost",
                        "0.0001",
                        "--prices",
                        str(prices),
                    ),
                ],
                catch_exceptions=False,
            )
        assert server.requests == []


def test_unscripted_item_sanity() -> None:
    # the fixture's questions carry their qid, which the fake server reads back
    assert all(f"[{qid}]" in item.question for qid, item in ITEMS.items())
    assert isinstance(next(iter(ITEMS.values())), QAItem)


def test_retry_after_header_is_honoured(dataset_dir: Path, tmp_path: Path) -> None:
    import time

    def slow_down(request: Request, seen: int) -> Response:
        assert request.qid is not None
        if seen == 0:
            response = error(429, "Rate limit reached", "rate_limit_exceeded")
            response.headers["retry-after"] = "0.4"
            return response
        return chat_reply(request.model, oracle_reply(ITEMS[request.qid]), 10, 1)

    with FakeServer(slow_down) as server:
        started = time.monotonic()
        run_cli(
            *run_args(
                dataset_dir,
                tmp_path / "a.jsonl",
                server,
                "openai-compatible:fake-vlm",
                "--limit",
                "1",
            )
        )
        elapsed = time.monotonic() - started
    assert [r.status for r in server.requests] == [429, 200]
    assert elapsed >= 0.4


def test_bad_key_stops_the_run_and_is_not_echoed(
    dataset_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from figgen.errors import FiggenError

    monkeypatch.setenv("OPENAI_API_KEY", SECRET)

    def refuse(request: Request, seen: int) -> Response:
        return error(401, f"Incorrect API key provided: {SECRET}", "invalid_api_key")

    out = tmp_path / "a.jsonl"
    with FakeServer(refuse) as server:
        with pytest.raises(FiggenError, match="check the API key") as info:
            CliRunner().invoke(
                app,
                [
                    "eval",
                    *run_args(
                        dataset_dir, out, server, "openai-compatible:fake-vlm", "--concurrency", "1"
                    ),
                ],
                catch_exceptions=False,
            )
        assert len(server.requests) == 1  # no further question was sent
    assert SECRET not in str(info.value)
    assert not out.exists() or SECRET not in out.read_text()
