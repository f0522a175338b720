"""The viewer in a real headless Chromium: toggle a box kind, hover a box, read a question."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from figgen.view import view_server, write_view
from tests.export.conftest import read_qa
from tests.view.answers import half_wrong, oracle, write_answers
from tests.view.conftest import page_url

pytestmark = [pytest.mark.browser, pytest.mark.e2e]


def _figure_with(built: Path, kind: str) -> dict[str, Any]:
    """The record of a figure that has elements of ``kind`` and a question with evidence."""
    qa = read_qa(built)
    for path in sorted((built / "figures").glob("*.json")):
        record = json.loads(path.read_text())
        has_evidence = any(i["evidence"] and i["figure_id"] == record["id"] for i in qa)
        if has_evidence and any(e["kind"] == kind for e in record["elements"]):
            return record
    pytest.skip(f"no figure with {kind} boxes and evidence in the small build")


def _visible(browser: Any, kind: str) -> int:
    return browser.execute_script(
        "return [...document.querySelectorAll(`#boxes rect[data-kind='${arguments[0]}']`)]"
        ".filter(r => getComputedStyle(r).display !== 'none').length",
        kind,
    )


@pytest.fixture(scope="module")
def answers(built: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    folder = tmp_path_factory.mktemp("answers")
    items = read_qa(built)
    return [
        write_answers(folder / "oracle.jsonl", "oracle", items, oracle),
        write_answers(folder / "mixed.jsonl", "mixed", items, half_wrong),
    ]


@pytest.fixture(scope="module")
def page(built: Path, answers: list[Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_view(built, tmp_path_factory.mktemp("site") / "view.html", answers=answers)


def test_toggle_a_kind_and_hover_a_box(browser: Any, built: Path, page: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    record = _figure_with(built, "ytick_label")
    browser.get(page_url(page, record["id"]))
    ticks = [e for e in record["elements"] if e["kind"] == "ytick_label"]
    assert (
        browser.find_element(By.ID, "image").get_property("naturalWidth")
        == (record["image"]["width"])
    )
    assert _visible(browser, "ytick_label") == len(ticks)
    toggle = browser.find_element(By.CSS_SELECTOR, "input[data-kind='ytick_label']")
    toggle.click()
    assert _visible(browser, "ytick_label") == 0
    assert _visible(browser, "panel") == sum(e["kind"] == "panel" for e in record["elements"])
    toggle.click()
    assert _visible(browser, "ytick_label") == len(ticks)

    tick = ticks[0]
    box = browser.find_element(By.CSS_SELECTOR, f"#boxes rect[data-id='{tick['id']}']")
    ActionChains(browser).move_to_element(box).perform()
    tip = browser.find_element(By.ID, "tooltip")
    assert tip.is_displayed()
    lines = tip.text.splitlines()
    assert f"id: {tick['id']}" in lines and 'kind: "ytick_label"' in lines
    shown = dict(line.split(": ", 1) for line in lines if ": " in line and "panel " not in line)
    assert json.loads(shown["text"]) == tick["text"]
    assert json.loads(shown["bbox"]) == tick["bbox"]


def test_a_question_shows_its_answer_evidence_and_scores(
    browser: Any, built: Path, page: Path
) -> None:
    from selenium.webdriver.common.by import By

    record = _figure_with(built, "ytick_label")
    browser.get(page_url(page, record["id"]))
    qa = [i for i in read_qa(built) if i["figure_id"] == record["id"]]
    item = next(i for i in qa if i["evidence"])
    row = browser.find_element(By.CSS_SELECTOR, f"li.question[data-qid='{item['qid']}']")
    browser.execute_script("arguments[0].scrollIntoView()", row)
    assert row.find_element(By.CSS_SELECTOR, ".answer").text == (
        "answer: "
        + (
            item["answer"]
            if isinstance(item["answer"], str) and item["answer"]
            else json.dumps(item["answer"], separators=(",", ":"))
        )
    )
    assert item["family"] in row.find_element(By.CSS_SELECTOR, ".meta").text
    assert row.find_element(By.CSS_SELECTOR, ".text").get_attribute("title") == item["question"]
    oracle_line = row.find_element(By.CSS_SELECTOR, ".model[data-model='oracle'] .score")
    assert oracle_line.text == "✓ right"
    mixed = row.find_element(By.CSS_SELECTOR, ".model[data-model='mixed'] .score").text
    if half_wrong(item) == oracle(item):
        assert mixed == "✓ right"
    else:
        assert mixed.startswith("rejected")

    row.click()
    highlighted = browser.execute_script(
        "return [...document.querySelectorAll('#boxes rect.evidence')].map(r => +r.dataset.id)"
    )
    assert sorted(highlighted) == sorted(item["evidence"])
    row.click()  # a second click clears the highlight
    assert not browser.find_elements(By.CSS_SELECTOR, "#boxes rect.evidence")


@pytest.fixture
def served(built: Path, answers: list[Path]) -> Iterator[str]:
    server = view_server(built, port=0, answers=answers)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


def test_served_page_loads_its_images(browser: Any, built: Path, served: str) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    record = _figure_with(built, "panel")
    browser.get(f"{served}/#{record['id']}")
    image = browser.find_element(By.ID, "image")
    WebDriverWait(browser, 10).until(lambda _: image.get_property("complete"))
    assert image.get_property("naturalWidth") == record["image"]["width"]
    assert browser.find_elements(By.CSS_SELECTOR, ".model[data-model='oracle']")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(f"{served}/images/../manifest.json", timeout=10)
    assert refused.value.code == 404


def test_small_figures_are_enlarged_to_fit_and_zoom_keeps_boxes_on_their_pixels(
    browser: Any, built: Path, page: Path
) -> None:
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    record = _figure_with(built, "panel")
    width = record["image"]["width"]
    browser.get(page_url(page, record["id"]))
    box = next(e for e in record["elements"] if e["kind"] == "panel")

    def rendered(selector: str) -> dict[str, float]:
        return browser.execute_script(
            "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
            "return {x: r.left, y: r.top, w: r.width, h: r.height};",
            selector,
        )

    def check(scale: float) -> None:
        image = rendered("#image")
        assert abs(image["w"] - width * scale) <= 1
        rect = rendered(f"#boxes rect[data-id='{box['id']}']")
        x0, y0, x1, y1 = box["bbox"]
        assert abs(rect["x"] - (image["x"] + x0 * scale)) <= 1.5
        assert abs(rect["y"] - (image["y"] + y0 * scale)) <= 1.5
        assert abs(rect["w"] - (x1 - x0) * scale) <= 1.5

    pane = rendered("#figure-pane")
    fitted = rendered("#image")["w"] / width
    assert fitted > 1  # the small build's figures are narrower than the pane: enlarged
    assert rendered("#image")["w"] <= pane["w"]
    check(fitted)
    zoom = Select(browser.find_element(By.ID, "zoom"))
    for value, scale in (("1", 1.0), ("2", 2.0)):
        zoom.select_by_value(value)
        assert browser.find_element(By.ID, "zoom-shown").text == f"{round(scale * 100)}%"
        check(scale)
