"""The study server without a browser: what the page gets, how answers are written and read."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from figgen.errors import FiggenError
from figgen.eval.run.dataset import load_dataset
from figgen.eval.scoring.parse import parse_reply
from figgen.eval.scoring.scoring import score_answer
from figgen.human.inputs import SKIPPED, InvalidAnswer, answer_reply
from figgen.human.study import Study, open_study
from figgen.schema.answers import AnswerRow, read_answers
from figgen.schema.fingerprint import build_fingerprint
from tests.export.conftest import read_qa
from tests.human.conftest import serve, typed_truth

_PAYLOAD = re.compile(r'<script type="application/json" id="payload">(.*?)</script>', re.DOTALL)


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def _post(url: str, body: Any) -> tuple[int, dict[str, Any]]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(f"{url}/api/answer", data=data, method="POST")
    request.add_header("Content-Type", "application/json")
    status, content = _get_request(request)
    return status, json.loads(content)


def _get_request(request: urllib.request.Request) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return reply.status, reply.read()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read()


def test_typing_the_truth_scores_right_for_every_answer_type(built: Path) -> None:
    dataset = load_dataset(built)
    assert len({item.answer_type for item in dataset.items}) >= 8
    for item, plain in zip(dataset.items, read_qa(built), strict=True):
        raw, parsed = answer_reply(item, typed_truth(plain))
        assert json.loads(raw).keys() == {item.answer_key}
        # the stored reply scores the same when scoring parses it again, and is right
        assert score_answer(item, parse_reply(raw, item)) == score_answer(item, parsed)
        assert score_answer(item, parsed).correct, (item.qid, raw, item.answer)


def test_numbers_are_kept_as_typed_and_read_leniently(built: Path) -> None:
    items = load_dataset(built).items
    number = next(i for i in items if i.answer_type == "number")
    raw, parsed = answer_reply(number, " 1,234.5 ")
    assert json.loads(raw) == {number.answer_key: "1,234.5"} and parsed.value == 1234.5
    with pytest.raises(InvalidAnswer, match="'about ten' is not a number"):
        answer_reply(number, "about ten")
    pair = next(i for i in items if i.answer_type == "integer_pair")
    with pytest.raises(InvalidAnswer, match="give both numbers"):
        answer_reply(pair, ["2"])
    choice = next(i for i in items if i.answer_type == "choice")
    with pytest.raises(InvalidAnswer, match="choose one of the options"):
        answer_reply(choice, "not offered")
    raw, parsed = answer_reply(choice, None, skipped=True)
    assert raw == SKIPPED and parsed.rejected
    assert parse_reply(SKIPPED, choice).rejected  # scoring rejects it again


def test_page_holds_questions_but_never_their_answers(served: tuple[str, Study]) -> None:
    url, study = served
    status, page = _get(url + "/")
    assert status == 200
    (block,) = _PAYLOAD.findall(page.decode())
    data = json.loads(block)
    assert [q["qid"] for q in data["questions"]] == study.plan.qids
    assert data["annotator"] == "ana" and data["answered"] == []
    for question in data["questions"]:
        item = study.items[question["qid"]]
        assert set(question) <= {
            "qid",
            "text",
            "input",
            "integer",
            "choices",
            "labels",
            "numbers",
            "number",
            "images",
        }
        assert "JSON" not in question["text"] and question["text"] in item.question
        status, image = _get(url + question["images"][0])
        assert status == 200 and image == study.dataset.image_path(item.figure_id).read_bytes()
    assert _get(url + "/images/../manifest.json")[0] == 404
    assert _get(url + "/qa.jsonl")[0] == 404


def test_answers_are_rows_of_the_runner_format(served: tuple[str, Study]) -> None:
    url, study = served
    qa = {row["qid"]: row for row in read_qa(study.dataset.root)}
    first, second = study.plan.qids[:2]
    status, body = _post(url, {"qid": first, "value": typed_truth(qa[first]), "elapsed_s": 12.5})
    assert (status, body) == (200, {"answered": 1})
    # a repeat (the page sending again after a lost reply) is acknowledged, not written twice
    assert _post(url, {"qid": first, "value": "x", "elapsed_s": 1})[1] == {"answered": 1}
    assert _post(url, {"qid": second, "skipped": True, "elapsed_s": 3})[1] == {"answered": 2}
    rows = read_answers(study.out)
    assert [r["qid"] for r in rows] == [first, second]
    # the runner's row, stamped with the build's fingerprint as the runner stamps its own
    assert set(rows[0]) == set(AnswerRow("q", "m", None).to_dict()) | {"build"}
    fingerprint = build_fingerprint(study.dataset.root)
    assert fingerprint is not None and rows[0]["build"] == fingerprint.to_dict()
    assert rows[0]["model"] == "human:ana" and rows[0]["latency_s"] == 12.5
    assert rows[0]["raw"] == json.dumps({qa[first]["answer_key"]: typed_truth(qa[first])})
    assert rows[1]["raw"] == SKIPPED and rows[1]["rejected"]
    assert json.loads(_get(url + "/api/state")[1]) == {"answered": [first, second]}


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"qid": "fig-x", "value": 1, "elapsed_s": 1}, 400, "not a question of this study"),
        ({"qid": None, "value": 1, "elapsed_s": 1}, 400, "not a question of this study"),
        (b"{cut", 400, "not a JSON object"),
        (b"[1]", 400, "not a JSON object"),
        ({"value": 1, "elapsed_s": -1}, 400, "elapsed_s must be a finite number"),
        ({"value": 1, "elapsed_s": "soon"}, 400, "elapsed_s must be a number"),
    ],
)
def test_bad_requests_are_refused_in_one_line(
    served: tuple[str, Study], body: Any, status: int, message: str
) -> None:
    url, study = served
    if isinstance(body, dict) and "qid" not in body:
        body["qid"] = study.plan.qids[0]
    got, reply = _post(url, body)
    assert got == status and message in reply["error"]
    assert read_answers(study.out) == []


def test_unreadable_input_is_422_and_the_person_can_fix_it(served: tuple[str, Study]) -> None:
    url, study = served
    qid = next(q for q in study.plan.qids if study.items[q].answer_type == "number")
    status, reply = _post(url, {"qid": qid, "value": "a lot", "elapsed_s": 2})
    assert status == 422 and "not a number" in reply["error"]
    assert _post(url, {"qid": qid, "value": "4.5", "elapsed_s": 3})[0] == 200
    assert [r["raw"] for r in read_answers(study.out)] == [
        json.dumps({study.items[qid].answer_key: "4.5"})
    ]


def test_a_killed_server_resumes_from_its_file(per_kind: Path, tmp_path: Path) -> None:
    out = tmp_path / "ana.jsonl"
    study = open_study(per_kind, annotator="ana", sample=40, seed=1, out=out)
    first = study.plan.qids[0]
    study.record(first, None, 1.0, skipped=True)
    study.close()
    with out.open("a") as handle:  # a kill in the middle of the next row
        handle.write('{"qid": "' + study.plan.qids[1] + '", "model": "hu')
    again = open_study(per_kind, annotator="ana", sample=40, seed=1, out=out)
    assert again.answered == {first}
    url, server = serve(again)
    try:
        _post(url, {"qid": study.plan.qids[1], "skipped": True, "elapsed_s": 2})
    finally:
        server.shutdown()
        server.server_close()
    assert [r["qid"] for r in read_answers(out)] == study.plan.qids[:2]


def test_bad_setups_are_one_line(per_kind: Path, tmp_path: Path) -> None:
    out = tmp_path / "ana.jsonl"
    with pytest.raises(FiggenError, match="--annotator 'a b' must be letters"):
        open_study(per_kind, annotator="a b", sample=5, seed=1, out=out)
    out.write_text(json.dumps(AnswerRow("q", "openai:gpt-5", "{}").to_dict()) + "\n")
    with pytest.raises(FiggenError, match="holds answers of openai:gpt-5, not human:ana"):
        open_study(per_kind, annotator="ana", sample=5, seed=1, out=out)
    study = open_study(per_kind, annotator="ana", sample=5, seed=1, out=tmp_path / "b.jsonl")
    url, server = serve(study)
    try:
        port = server.server_address[1]
        from figgen.human.server import human_server

        with pytest.raises(FiggenError, match=f"cannot listen on 127.0.0.1:{port}"):
            human_server(study, port=port)
    finally:
        server.shutdown()
        server.server_close()


def test_cli_refuses_a_bad_sample_in_one_line(per_kind: Path, tmp_path: Path) -> None:
    import os
    import subprocess
    import sys

    command = [sys.executable, "-m", "figgen", "human", str(per_kind), "--annotator", "ana"]
    command += ["--sample", "0", "--out", str(tmp_path / "a.jsonl")]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    result = subprocess.run(command, capture_output=True, text=True, env=env, timeout=120)
    assert result.returncode != 0
    assert result.stderr.strip().splitlines()[-1].endswith("--sample 0 must be at least 1")
    assert "Traceback" not in result.stderr
