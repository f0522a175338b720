"""Evaluating sets: the oracle scores 100% in both modes; a loopback OpenAI-compatible server
receives every image of the mode with each question; the report's numbers are recomputed."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from tests.eval.fake_server import FakeServer, Request, Response, chat_reply
from tests.multichart.independent import stored_sets

pytestmark = pytest.mark.e2e

QUESTION = re.compile(r"Question \d+: (.*?) Options:", re.DOTALL)


def _cli(*args: str) -> str:
    result = CliRunner().invoke(app, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def test_answers_for_one_mode_only_still_give_a_report(built: Path, tmp_path: Path):
    answers = tmp_path / "oracle.jsonl"
    _cli("eval", "run", "--data", str(built), "--model", "oracle", "--out", str(answers))
    extended = tmp_path / "extended.jsonl"
    rows = [line for line in answers.read_text().splitlines() if "-ext-" in line]
    extended.write_text("".join(line + "\n" for line in rows))
    out = tmp_path / "r"
    _cli("multichart", "score", "--data", str(built), "--answers", str(extended), "--out", str(out))
    modes = json.loads((out / "metrics.json").read_text())["models"]["oracle"]["modes"]
    assert modes["extended"]["accuracy"] == 1.0 and modes["in-depth"]["n"] == 0
    assert (out / "cost_performance.png").is_file() and "extended" in (
        out / "report.md"
    ).read_text()


def test_the_oracle_scores_100_percent_in_both_modes(built: Path, tmp_path: Path):
    answers = tmp_path / "oracle.jsonl"
    _cli(
        "eval",
        "run",
        "--data",
        str(built),
        "--model",
        "oracle",
        "--out",
        str(answers),
        "--no-progress",
    )
    _cli(
        "multichart",
        "score",
        "--data",
        str(built),
        "--answers",
        str(answers),
        "--out",
        str(tmp_path / "r"),
    )
    metrics = json.loads((tmp_path / "r" / "metrics.json").read_text())["models"]["oracle"]
    n = sum(len(s["questions"]) for s in stored_sets(built))
    for mode in ("extended", "in-depth"):
        assert metrics["modes"][mode]["n"] == n
        assert metrics["modes"][mode]["accuracy"] == 1.0
        assert all(g["accuracy"] == 1.0 for g in metrics["modes"][mode]["by_hops"].values())
    report = (tmp_path / "r" / "report.md").read_text()
    assert "Accuracy by hops" in report and "accuracy_by_hops.png" in report
    assert (tmp_path / "r" / "cost_performance.png").is_file()


def _images_in(body: dict) -> int:
    return sum(part.get("type") == "image_url" for m in body["messages"] for part in m["content"])


def _images(body: dict) -> list[bytes]:
    return [
        base64.b64decode(part["image_url"]["url"].split(",", 1)[1])
        for m in body["messages"]
        for part in m["content"]
        if part.get("type") == "image_url"
    ]


def test_a_loopback_server_gets_every_image_and_the_report_adds_up(built: Path, tmp_path: Path):
    sets = stored_sets(built)
    truth = {(s["id"], q["text"]): q for s in sets for q in s["questions"]}
    image_sets = json.loads((built / "image_sets.json").read_text())
    digest = {}
    for figure, files in image_sets.items():
        key = tuple(hashlib.sha256((built / f).read_bytes()).hexdigest() for f in files)
        digest[key] = figure
    seen_figures = []

    def model(request: Request, seen: int) -> Response:
        texts = [
            p["text"] for m in request.body["messages"] for p in m["content"] if p["type"] == "text"
        ]
        key = tuple(hashlib.sha256(data).hexdigest() for data in _images(request.body))
        figure = digest[key]  # exactly the images of one set and mode, in order
        question = truth[
            (figure.split("-")[0] + "-" + figure.split("-")[1], QUESTION.search(texts[0]).group(1))
        ]
        seen_figures.append(figure)
        n_images = len(key)
        wrong = figure.endswith("in-depth") and question["type"] == "compute"
        answer = question["answer"]
        if wrong:
            answer = answer * 1.5 + 1
        elif isinstance(answer, bool):
            answer = str(answer)  # the paper's "True"/"False"
        reply = json.dumps(
            {"LLM_answer_initial": answer, "reasoning": "read", "LLM_answer_final": answer}
        )
        return chat_reply(request.model, reply, 100 * n_images + 10, 5)

    answers = tmp_path / "loop.jsonl"
    with FakeServer(model) as server:
        _cli(
            "eval",
            "run",
            "--data",
            str(built),
            "--model",
            "openai-compatible:vlm",
            "--base-url",
            server.base_url,
            "--out",
            str(answers),
            "--no-progress",
            "--concurrency",
            "4",
        )
    questions = [q for s in sets for q in s["questions"]]
    assert len(seen_figures) == 2 * len(questions)
    assert set(seen_figures) == set(image_sets)
    out = tmp_path / "r"
    _cli("multichart", "score", "--data", str(built), "--answers", str(answers), "--out", str(out))
    metrics = json.loads((out / "metrics.json").read_text())["models"]["openai-compatible:vlm"]
    compute = sum(q["type"] == "compute" for q in questions)
    assert metrics["modes"]["extended"]["accuracy"] == 1.0
    assert metrics["modes"]["in-depth"]["accuracy"] == (len(questions) - compute) / len(questions)
    assert metrics["modes"]["in-depth"]["by_type"]["compute"]["accuracy"] == 0.0
    for mode in ("extended", "in-depth"):
        expected_tokens = sum(
            100 * len(s["modes"][mode]) + 10 + 5 for s in sets for _ in s["questions"]
        ) / len(questions)
        assert metrics["modes"][mode]["usage"]["tokens_per_question"] == expected_tokens
        hops = {}
        for q in questions:
            ok = not (mode == "in-depth" and q["type"] == "compute")
            hops.setdefault(str(q["modes"][mode]["hops"]), []).append(ok)
        assert {h: sum(v) / len(v) for h, v in hops.items()} == {
            h: g["accuracy"] for h, g in metrics["modes"][mode]["by_hops"].items()
        }
    ratio = metrics["comparison"]["token_ratio_in_depth_to_extended"]
    assert 0 < ratio < 1


def test_a_context_overflow_shrinks_every_image_of_the_question(built: Path, tmp_path: Path):
    from PIL import Image

    from tests.eval.fake_server import error

    def widths(body: dict) -> list[int]:
        return [Image.open(io.BytesIO(data)).width for data in _images(body)]

    def tight(request: Request, seen: int) -> Response:
        if max(widths(request.body)) > 400:
            return error(400, "maximum context length exceeded", "context_length_exceeded")
        return chat_reply(request.model, json.dumps({"LLM_answer_final": "1"}), 10, 1)

    answers = tmp_path / "tight.jsonl"
    with FakeServer(tight) as server:
        _cli(
            "eval",
            "run",
            "--data",
            str(built),
            "--model",
            "openai-compatible:small",
            "--base-url",
            server.base_url,
            "--out",
            str(answers),
            "--no-progress",
            "--limit",
            "3",
            "--concurrency",
            "1",
        )
        accepted = [r for r in server.requests if r.status == 200]
    rows = [json.loads(line) for line in answers.read_text().splitlines()]
    assert len(rows) == 3 and all(r["error"] is None and r["image_scale"] == 0.5 for r in rows)
    for request in accepted:
        assert len(widths(request.body)) > 1 and max(widths(request.body)) <= 400
