"""The inspect_ai task run offline with inspect's mockllm model."""

from __future__ import annotations

import base64
import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

inspect_ai = pytest.importorskip("inspect_ai")

from inspect_ai import eval as inspect_eval  # noqa: E402
from inspect_ai.model import (  # noqa: E402
    ChatMessage,
    ContentImage,
    ContentText,
    ModelOutput,
    ModelUsage,
    get_model,
)

from figgen.eval.scoring.metrics import cer_list  # noqa: E402
from figgen.harness.inspect_plugin import figgen_qa  # noqa: E402
from tests.export.conftest import read_qa  # noqa: E402

pytestmark = pytest.mark.e2e


def _parts(messages: list[ChatMessage]) -> tuple[str, str]:
    (message,) = messages
    assert isinstance(message.content, list)
    image, text = message.content
    assert isinstance(image, ContentImage) and isinstance(text, ContentText)
    return image.image, text.text


def _wrong(item: dict[str, Any]) -> Any:
    """A parseable answer that is wrong by every metric figgen uses."""
    answer = item["answer"]
    if isinstance(answer, bool):
        return not answer
    if isinstance(answer, int | float):
        return answer * 3 + 7
    if isinstance(answer, list) and item.get("choices"):
        missing = [c for c in item["choices"] if c not in answer]
        return [*answer, missing[0]] if missing else answer[:-1]
    if isinstance(answer, list):
        # an empty list is a list of strings too (a figure without titles)
        return [*answer, "zzz"] if not answer or isinstance(answer[0], str) else [-999, 999]
    choices = [c for c in item.get("choices") or [] if c != answer]
    return choices[0] if choices else f"{answer} zzz"


def _run(built: Path, tmp_path: Path, reply: Any, *, samples: int | None = None) -> Any:
    """Run the task; ``reply(image, text) -> str`` answers each request.

    With ``samples``, only that many are asked and kept in the log; without, all are asked
    and the log keeps only the metrics (writing every sample's image is most of the time).
    """

    def respond(messages: list[ChatMessage], *_: Any) -> ModelOutput:
        output = ModelOutput.from_content(model="mockllm", content=reply(*_parts(messages)))
        # with usage given, mockllm does not count tokens (tiktoken would fetch its tables)
        output.usage = ModelUsage(input_tokens=1, output_tokens=1, total_tokens=2)
        return output

    model = get_model("mockllm/model", custom_outputs=respond)
    (log,) = inspect_eval(
        figgen_qa(data=str(built)),
        model=model,
        log_dir=str(tmp_path / "logs"),
        display="none",
        score_display=False,
        limit=samples,
        log_samples=samples is not None,
        log_images=False,
    )
    assert log.status == "success", log.error
    return log


def _metrics(log: Any) -> dict[str, float]:
    (score,) = log.results.scores
    return {name: m.value for name, m in score.metrics.items()}


@pytest.fixture(scope="module")
def by_prompt(built: Path) -> dict[tuple[str, str], dict[str, Any]]:
    from figgen.eval.run.prompt import prompt_text
    from figgen.schema.qa_item import QAItem

    items = read_qa(built)
    table = {}
    for item in items:
        # inspect sends the image file inline, as a data URI of its exact bytes
        png = (built / "figures" / f"{item['figure_id']}.png").read_bytes()
        image = "data:image/png;base64," + base64.b64encode(png).decode("ascii")
        table[(image, prompt_text(QAItem.from_dict(item)))] = item
    assert len(table) == len(items)  # every request names its item
    return table


def test_oracle_scores_every_level_perfectly(
    built: Path, tmp_path: Path, by_prompt: dict[tuple[str, str], dict[str, Any]]
) -> None:
    def oracle(image: str, text: str) -> str:
        item = by_prompt[(image, text)]
        return json.dumps({item["answer_key"]: item["answer"]})

    log = _run(built, tmp_path, oracle)
    metrics = _metrics(log)
    items = read_qa(built)
    assert log.results.completed_samples == len(items)
    assert metrics["accuracy"] == 1.0 and metrics["rejected"] == 0.0
    for level in {i["level"] for i in items}:
        assert metrics[f"level_{level}"] == 1.0
    for family in {i["family"] for i in items if i["metric"] in ("cer", "cer_list")}:
        assert metrics[f"{family}/cer"] == 0.0
    # the blind baselines as figgen eval score computes them, on the same questions
    from figgen.eval.blind.compare import blind_comparison
    from figgen.schema.qa_item import QAItem

    qa = [QAItem.from_dict(i) for i in items]
    report = blind_comparison(qa, [(i, True) for i in qa])
    assert metrics["blind_accuracy"] == pytest.approx(report["blind_accuracy"], abs=1e-6)
    assert metrics["lift_over_blind"] == pytest.approx(1.0 - report["blind_accuracy"], abs=1e-6)


def test_scores_match_an_independent_count(
    built: Path, tmp_path: Path, by_prompt: dict[tuple[str, str], dict[str, Any]]
) -> None:
    """Every third question wrong, every fifth unparseable: the metrics count exactly that."""
    items = read_qa(built)
    plan = {
        item["qid"]: ("bad" if n % 5 == 0 else "wrong" if n % 3 == 0 else "right")
        for n, item in enumerate(items)
    }

    def reply(image: str, text: str) -> str:
        item = by_prompt[(image, text)]
        how = plan[item["qid"]]
        if how == "bad":
            return "I cannot read this figure."
        value = _wrong(item) if how == "wrong" else item["answer"]
        return json.dumps({item["answer_key"]: value})

    metrics = _metrics(_run(built, tmp_path, reply))
    right = [i for i in items if plan[i["qid"]] == "right"]
    assert metrics["accuracy"] == pytest.approx(len(right) / len(items))
    assert metrics["rejected"] == pytest.approx(
        sum(1 for i in items if plan[i["qid"]] == "bad") / len(items)
    )
    by_level: dict[int, list[bool]] = defaultdict(list)
    for item in items:
        by_level[item["level"]].append(plan[item["qid"]] == "right")
    for level, hits in by_level.items():
        assert metrics[f"level_{level}"] == pytest.approx(sum(hits) / len(hits))
    # a CER family's mean over the answered questions, computed here from the strings
    families = {i["family"] for i in items if i["metric"] == "cer_list"}
    for family in families:
        answered = [i for i in items if i["family"] == family and plan[i["qid"]] != "bad"]
        if not answered:
            continue
        for key, normalize in (("cer", False), ("cer_normalized", True)):
            expected = [
                cer_list(
                    i["answer"],
                    i["answer"] if plan[i["qid"]] == "right" else _wrong(i),
                    normalize=normalize,
                )
                for i in answered
            ]
            assert metrics[f"{family}/{key}"] == pytest.approx(sum(expected) / len(expected))


def test_default_mockllm_reply_is_rejected_everywhere(built: Path, tmp_path: Path) -> None:
    log = _run(built, tmp_path, lambda image, text: "Default output from mockllm/model", samples=5)
    metrics = _metrics(log)
    assert metrics["accuracy"] == 0.0 and metrics["rejected"] == 1.0
    sample = log.samples[0]
    assert sample.scores["figgen_scorer"].metadata["rejected"] is True


def test_task_filters_levels_and_families(built: Path) -> None:
    items = read_qa(built)
    family = items[0]["family"]
    task = figgen_qa(data=str(built), levels="1,2", families=family)
    expected = [i["qid"] for i in items if i["family"] == family and i["level"] in (1, 2)]
    assert [s.id for s in task.dataset] == expected


def test_bad_levels_is_a_one_line_error(built: Path) -> None:
    from figgen.errors import FiggenError

    with pytest.raises(FiggenError, match="comma-separated"):
        figgen_qa(data=str(built), levels="one")


def test_inspect_cli_runs_the_registered_task_against_an_openai_compatible_server(
    built: Path, tmp_path: Path
) -> None:
    """``inspect eval figgen/figgen_qa`` as a user types it, against a loopback server."""
    from inspect_ai.log import list_eval_logs, read_eval_log
    from PIL import Image

    from figgen.eval.run.prompt import prompt_text
    from figgen.schema.qa_item import QAItem
    from tests.eval.fake_server import FakeServer, Request, Response, chat_reply

    families = ("panel_count", "titles")
    items = [i for i in read_qa(built) if i["family"] in families and i["level"] == 1]
    by_request = {}
    for item in items:
        with Image.open(built / "figures" / f"{item['figure_id']}.png") as image:
            by_request[(prompt_text(QAItem.from_dict(item)), image.size)] = item
    assert len(by_request) == len(items)  # each request names its item

    def oracle(request: Request, _: int) -> Response:
        text = request.body["messages"][-1]["content"][-1]["text"]
        item = by_request[(text, request.image_size)]
        return chat_reply(request.model, json.dumps({item["answer_key"]: item["answer"]}), 90, 9)

    command = [
        str(Path(sys.executable).parent / "inspect"),
        "eval",
        "figgen/figgen_qa",
        *("-T", f"data={built}", "-T", "levels=1", "-T", f"families={','.join(families)}"),
        *("--model", "openai-api/fake/oracle", "--log-dir", str(tmp_path / "logs")),
        *("--display", "none", "--no-log-images"),
    ]
    with FakeServer(oracle) as server:
        env = {**os.environ, "FAKE_API_KEY": "test-key", "FAKE_BASE_URL": server.base_url}
        done = subprocess.run(
            command, env=env, capture_output=True, text=True, timeout=300, check=False
        )
        assert done.returncode == 0, done.stderr[-2000:]
        assert len(server.requests) == len(items)
    (info,) = list_eval_logs(str(tmp_path / "logs"))
    metrics = _metrics(read_eval_log(info, header_only=True))
    assert metrics["accuracy"] == 1.0 and metrics["level_1"] == 1.0
    assert metrics["titles/cer"] == 0.0


def test_the_docs_first_example_runs_offline_with_figgen_models(
    built: Path, tmp_path: Path
) -> None:
    """``inspect eval figgen/figgen_qa ... --model figgen/oracle -M data=DIR``, no network."""
    from inspect_ai.log import list_eval_logs, read_eval_log

    scores = {}
    for answerer in ("oracle", "chance"):
        logs = tmp_path / answerer
        command = [
            str(Path(sys.executable).parent / "inspect"),
            *("eval", "figgen/figgen_qa", "-T", f"data={built}", "-T", "levels=1"),
            *("-T", "families=panel_count,titles,plot_type"),
            *("--model", f"figgen/{answerer}", "-M", f"data={built}", "--log-dir", str(logs)),
            *("--display", "none", "--no-log-images"),
        ]
        # an empty tiktoken cache: counting tokens itself would make inspect fetch its tables
        env = {**os.environ, "TIKTOKEN_CACHE_DIR": str(tmp_path / "tiktoken")}
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr[-2000:]
        (info,) = list_eval_logs(str(logs))
        scores[answerer] = _metrics(read_eval_log(info, header_only=True))
    assert scores["oracle"]["accuracy"] == 1.0 and scores["oracle"]["rejected"] == 0.0
    assert scores["chance"]["accuracy"] < 1.0
    assert not (tmp_path / "tiktoken").exists() or not any((tmp_path / "tiktoken").iterdir())
