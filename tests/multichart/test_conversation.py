"""Conversation mode: one conversation per set and mode, images once, the retrieval turn
first, history kept and resumed; initial and final answers both scored."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from figgen.eval.cost.prices import PriceTable
from figgen.eval.providers import MockProvider, Prompt, Reply
from figgen.eval.run.dataset import load_dataset
from figgen.eval.run.run_options import RunOptions
from figgen.multichart.conversation import (
    RETRIEVAL_PROMPT,
    question_turn,
    run_conversations,
)
from figgen.multichart.report import write_report
from tests.multichart.independent import stored_sets

pytestmark = pytest.mark.e2e


def _truth(built: Path) -> dict[str, dict]:
    return {
        facts["qid"]: q
        for s in stored_sets(built)
        for q in s["questions"]
        for facts in q["modes"].values()
    }


def _replier(truth: dict[str, dict], calls: list[Prompt]):
    """Right final answers; the initial answer of a compute question is wrong."""

    def answer(prompt: Prompt) -> Reply:
        calls.append(prompt)
        if prompt.item.qid.endswith("-retrieval"):
            return Reply("| year | value |", 1000, 200)
        q = truth[prompt.item.qid]
        final = q["answer"]
        initial = final + 1000 + abs(final) if q["type"] == "compute" else final
        text = json.dumps({"LLM_answer_initial": initial, "LLM_answer_final": final})
        return Reply(text, 10 + 5 * len(prompt.history), 7)

    return answer


def _run(built: Path, out: Path, provider: MockProvider, items=None) -> None:
    dataset = load_dataset(built)
    asyncio.run(
        run_conversations(
            dataset,
            dataset.items if items is None else items,
            provider,
            RunOptions("mock:conv", out, prices=PriceTable({}), free=True, concurrency=3),
        )
    )


def test_each_set_and_mode_is_one_conversation_with_its_history(built: Path, tmp_path: Path):
    truth, calls = _truth(built), []
    _run(built, tmp_path / "a.jsonl", MockProvider("conv", answer=_replier(truth, calls)))
    image_sets = json.loads((built / "image_sets.json").read_text())
    by_figure: dict[str, list[Prompt]] = {}
    for prompt in calls:
        by_figure.setdefault(prompt.item.figure_id, []).append(prompt)
    assert set(by_figure) == set(image_sets)
    items = load_dataset(built).items
    for figure, prompts in by_figure.items():
        opening, *questions = prompts
        assert opening.text == RETRIEVAL_PROMPT and opening.history == ()
        asked = [i for i in items if i.figure_id == figure]
        assert [p.item.qid for p in questions] == [i.qid for i in asked]  # in order, each once
        for k, prompt in enumerate(questions):
            assert len(prompt.images) == len(image_sets[figure])
            assert [t.asked for t in prompt.history] == [RETRIEVAL_PROMPT] + [
                question_turn(i) for i in asked[:k]
            ]
            assert prompt.history[0].replied == "| year | value |"
            assert prompt.text.startswith("Question ") and "LLM_answer_initial" in prompt.text


def test_initial_and_final_answers_are_scored_and_the_change_reported(built: Path, tmp_path: Path):
    truth, calls = _truth(built), []
    answers = tmp_path / "a.jsonl"
    _run(built, answers, MockProvider("conv", answer=_replier(truth, calls)))
    metrics = write_report(built, [answers], tmp_path / "r")
    (label,) = metrics["models"]
    assert label == "mock:conv [conversation]"
    sets = stored_sets(built)
    for mode in ("extended", "in-depth"):
        m = metrics["models"][label]["modes"][mode]
        questions = [q for s in sets for q in s["questions"]]
        compute = sum(q["type"] == "compute" for q in questions)
        change = m["initial_vs_final"]
        assert m["accuracy"] == change["final_accuracy"] == 1.0
        assert change["initial_accuracy"] == (len(questions) - compute) / len(questions)
        assert (change["changed"], change["fixed"], change["broken"]) == (compute, compute, 0)
        # the reconstruction turn is paid by its conversation's questions
        tokens = sum(
            1200 + sum(10 + 5 * (k + 1) + 7 for k in range(len(s["questions"]))) for s in sets
        )
        assert m["usage"]["tokens_per_question"] == tokens / len(questions)
    report = (tmp_path / "r" / "report.md").read_text()
    assert "Initial vs final answers" in report


def test_a_stopped_conversation_resumes_with_its_history(built: Path, tmp_path: Path):
    truth = _truth(built)
    items = load_dataset(built).items
    figure = items[0].figure_id
    mine = [i for i in items if i.figure_id == figure]
    answers = tmp_path / "a.jsonl"
    first: list[Prompt] = []
    _run(built, answers, MockProvider("conv", answer=_replier(truth, first)), mine[:3])
    assert len(first) == 4  # the reconstruction and three questions
    again: list[Prompt] = []
    _run(built, answers, MockProvider("conv", answer=_replier(truth, again)), mine)
    assert [p.item.qid for p in again] == [i.qid for i in mine[3:]]  # nothing asked twice
    resumed = again[0].history
    assert [t.asked for t in resumed] == [RETRIEVAL_PROMPT] + [question_turn(i) for i in mine[:3]]
    assert [t.replied for t in resumed[1:]] == [
        json.loads(line)["raw"] for line in answers.read_text().splitlines()[1:4]
    ]


def test_the_converse_command_with_the_oracle_scores_100_percent(built: Path, tmp_path: Path):
    from typer.testing import CliRunner

    from figgen._cli.main import app

    answers = tmp_path / "oracle.jsonl"
    run = ["multichart", "converse", "--data", str(built), "--model", "oracle"]
    result = CliRunner().invoke(app, [*run, "--out", str(answers)])
    assert result.exit_code == 0, result.output
    result = CliRunner().invoke(
        app,
        ["multichart", "score", "--data", str(built), "--answers", str(answers)]
        + ["--out", str(tmp_path / "r")],
    )
    assert result.exit_code == 0, result.output
    assert "oracle [conversation]: extended 1.000" in result.output
    rows = [json.loads(line) for line in answers.read_text().splitlines()]
    assert sum(r["qid"].endswith("-retrieval") for r in rows) == 2 * len(stored_sets(built))


def test_a_conversation_stops_before_max_cost(built: Path, tmp_path: Path):
    from figgen.eval.cost.prices import ModelPrice

    dataset = load_dataset(built)
    figure = dataset.items[0].figure_id
    items = [i for i in dataset.items if i.figure_id == figure]
    answers = tmp_path / "a.jsonl"
    provider = MockProvider("conv", answer=lambda prompt: Reply("{}", 100_000, 0))
    summary = asyncio.run(
        run_conversations(
            dataset,
            items,
            provider,
            RunOptions(
                "mock:conv",
                answers,
                prices=PriceTable({"conv": ModelPrice(1.0, 1.0)}),  # $0.10 a call
                max_cost=0.35,
                concurrency=1,
            ),
        )
    )
    rows = [json.loads(line) for line in answers.read_text().splitlines()]
    assert summary.stopped_for_budget and len(rows) == 3 < len(items) + 1
    assert sum(r["cost_usd"] for r in rows) == pytest.approx(0.3)
