"""A person's whole study in headless Chromium, by keyboard only: 10 questions of each input
kind, a reload in the middle, the server killed and restarted, then the file and the scores."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from figgen.eval.run.dataset import load_dataset
from figgen.eval.scoring.parse import parse_reply
from figgen.eval.scoring.scoring import score_answer
from figgen.human.inputs import SKIPPED
from figgen.schema.answer_types import answer_spec
from figgen.schema.qa_item import QAItem
from tests.human.conftest import group_of, typed_truth, typed_wrong

pytestmark = [pytest.mark.browser, pytest.mark.e2e]

ROOT = Path(__file__).resolve().parents[2]
# answers kept in the browser (the server unreachable), once none is on its way
PENDING = (
    "const status = document.getElementById('save-status');"
    "return status.dataset.sending === '0' && status.dataset.pending === arguments[0]"
)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_server(data: Path, out: Path, port: int) -> subprocess.Popen[bytes]:
    """``figgen human`` in its own process (so it can be killed), once it answers."""
    command = [sys.executable, "-m", "figgen", "human", str(data), "--annotator", "web"]
    command += ["--sample", "40", "--seed", "3", "--out", str(out), "--port", str(port)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2).read()
            return process
        except OSError:
            if process.poll() is not None:
                error = process.stderr.read().decode() if process.stderr else ""
                raise AssertionError(error) from None
            time.sleep(0.2)
    process.kill()
    raise AssertionError("figgen human did not start within 120 s")


def wait_for(browser: Any, condition: str, *args: Any) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(browser, 20).until(lambda b: b.execute_script(condition, *args))


def current_qid(browser: Any) -> str:
    return browser.execute_script("return document.getElementById('answer-form').dataset.qid")


def type_answer(browser: Any, item: QAItem, value: Any) -> None:
    """Type ``value`` into the page by keyboard, starting from the focused control."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    active = browser.switch_to.active_element
    kind = answer_spec(item.answer_type).page_input
    if kind == "number" or kind == "text":
        active.send_keys(value, Keys.ENTER)
    elif kind == "pair":
        active.send_keys(value[0], Keys.TAB)
        browser.switch_to.active_element.send_keys(value[1], Keys.ENTER)
    elif item.answer_type == "boolean":
        active.send_keys("1" if value else "2")
        browser.switch_to.active_element.send_keys(Keys.ENTER)
    elif kind == "choice":
        active.send_keys(str((item.choices or []).index(value) + 1))
        browser.switch_to.active_element.send_keys(Keys.ENTER)
    elif kind == "choices":
        for choice in value:
            browser.switch_to.active_element.send_keys(str((item.choices or []).index(choice) + 1))
        browser.switch_to.active_element.send_keys(Keys.ENTER)
    else:  # a list: one entry per line, Ctrl+Enter gives it
        active.send_keys(*[part for line in value for part in (line, Keys.ENTER)])
        ActionChains(browser).key_down(Keys.CONTROL).send_keys(Keys.ENTER).key_up(
            Keys.CONTROL
        ).perform()


def skip_by_keyboard(browser: Any) -> None:
    from selenium.webdriver.common.keys import Keys

    browser.switch_to.active_element.send_keys(Keys.TAB)  # to "Give answer"
    browser.switch_to.active_element.send_keys(Keys.TAB)  # to "I can't tell"
    assert browser.switch_to.active_element.get_attribute("id") == "skip"
    browser.switch_to.active_element.send_keys(Keys.ENTER)


def stored(item: QAItem, value: Any) -> str:
    """The reply the server must store for ``value`` as the page sends it."""
    if isinstance(value, str):
        value = value.strip()
    elif isinstance(value, list):
        value = [v.strip() for v in value if not isinstance(v, str) or v.strip()]
    return json.dumps({item.answer_key: value}, ensure_ascii=False)


def image_width(browser: Any) -> float:
    return browser.execute_script("return document.querySelector('#viewport img').width")


@pytest.mark.slow
def test_a_study_by_keyboard_survives_reload_and_a_killed_server(
    browser: Any, per_kind: Path, tmp_path: Path
) -> None:
    from selenium.webdriver.common.keys import Keys

    items = {i.qid: i for i in load_dataset(per_kind).items}
    qa = {q: i.to_dict() for q, i in items.items()}
    out, port = tmp_path / "human-web.jsonl", free_port()
    url = f"http://127.0.0.1:{port}/"
    server = start_server(per_kind, out, port)
    expected: dict[str, str] = {}
    try:
        browser.get(url)
        wait_for(browser, "return document.body.dataset.state === 'intro'")
        assert browser.switch_to.active_element.get_attribute("id") == "start"
        browser.switch_to.active_element.send_keys(Keys.ENTER)
        zoomed = skipped = False
        for index in range(40):
            wait_for(
                browser,
                "return document.body.dataset.state === 'question' && "
                "!arguments[0].includes(document.getElementById('answer-form').dataset.qid)",
                list(expected),
            )
            qid = current_qid(browser)
            item = items[qid]
            progress = browser.find_element("id", "progress-label").text
            assert progress == f"{len(expected)} of 40 answered"
            if not zoomed and answer_spec(item.answer_type).page_input == "choice":
                wait_for(browser, "return document.querySelector('#viewport img').complete")
                fit = image_width(browser)
                browser.switch_to.active_element.send_keys("+")
                assert image_width(browser) > fit
                browser.switch_to.active_element.send_keys("0")
                assert image_width(browser) == fit
                zoomed = True
            if not skipped and index >= 5 and answer_spec(item.answer_type).page_input == "number":
                skip_by_keyboard(browser)
                skipped = True
                expected[qid] = SKIPPED
            else:
                right = index % 4 != 3
                value = typed_truth(qa[qid]) if right else typed_wrong(item)
                type_answer(browser, item, value)
                expected[qid] = stored(item, value)
            if index == 14:  # reload in the middle: the page goes on where it was
                wait_for(browser, PENDING, "0")
                browser.refresh()
            if index == 24:  # the server is killed; the next two answers wait in the browser
                wait_for(browser, PENDING, "0")  # (a kill mid-request could leave three)
                server.send_signal(signal.SIGKILL)
                server.wait(timeout=30)
            if index == 26:
                wait_for(browser, PENDING, "2")
                server = start_server(per_kind, out, port)
                wait_for(browser, PENDING, "0")
        wait_for(browser, "return document.body.dataset.state === 'done'")
        assert browser.find_element("id", "progress-label").text == "40 of 40 answered"
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=30)

    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sorted(r["qid"] for r in rows) == sorted(expected)  # each once, none lost
    groups = {group_of(items[q].answer_type) for q in expected}
    assert groups == {"number", "choice", "list", "text"}
    for row in rows:
        assert row["model"] == "human:web"
        assert row["raw"] == expected[row["qid"]], row["qid"]
        assert row["latency_s"] > 0

    # the report scores them as figgen's scorer does
    from figgen.eval.cost.prices import load_prices
    from figgen.eval.report.report import write_report

    metrics = write_report(load_dataset(per_kind), [out], load_prices(None), tmp_path / "report")
    entry = metrics["models"]["human:web"]
    scores = [score_answer(items[q], parse_reply(raw, items[q])) for q, raw in expected.items()]
    assert entry["n"] == 40
    assert entry["correct"] == sum(bool(s.correct) for s in scores)
    assert entry["rejected"] == sum(s.rejected for s in scores) == 1
    assert 0 < entry["correct"] < 40
