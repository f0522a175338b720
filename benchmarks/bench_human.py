"""Time the human page: the next question after an answer, and answers saved per second.

next question (served): one answer's POST to ``/api/answer`` (the answer written and flushed
to the answers file), then the next question's image fetched uncached (the page preloads it,
so a person normally waits for the POST alone). With Chromium and Selenium installed, also
in the page: from the key that gives an answer to the next question drawn with its image
(``window.humanTimings``), answering by keyboard.

concurrent: 8 simulated annotators (each their own ``figgen human`` server and answers
file, all in this process) post every answer of their sample as fast as they can; the
answers per second over all of them, and whether every file holds exactly the answers
acknowledged (nothing lost, nothing twice).

    python benchmarks/bench_human.py --n 12 --annotators 8
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

from figgen.build.dataset import build_dataset
from figgen.config.load import load_config
from figgen.human.server import HumanServer, human_server
from figgen.human.study import Study, open_study
from figgen.schema.answers import read_answers

AIM_MS = 50.0


def _serve(study: Study) -> tuple[str, HumanServer]:
    server = human_server(study, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}", server


def _post(url: str, qid: str) -> None:
    body = json.dumps({"qid": qid, "skipped": True, "elapsed_s": 1.0}).encode()
    request = urllib.request.Request(f"{url}/api/answer", data=body, method="POST")
    request.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(request, timeout=30) as reply:
        reply.read()


def _ms(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return f"median {1000 * statistics.median(values):.1f} ms, p95 {1000 * p95:.1f} ms"


def served_next_question(root: Path, tmp: Path, sample: int) -> tuple[list[float], list[float]]:
    study = open_study(root, annotator="bench", sample=sample, seed=0, out=tmp / "one.jsonl")
    url, server = _serve(study)
    questions = study.payload()["questions"]
    posts, with_image = [], []
    try:
        for question, following in zip(questions, questions[1:], strict=False):
            start = time.perf_counter()
            _post(url, question["qid"])
            posts.append(time.perf_counter() - start)
            for image in following["images"]:
                with urllib.request.urlopen(url + image, timeout=30) as reply:
                    reply.read()
            with_image.append(time.perf_counter() - start)
    finally:
        server.shutdown()
        server.server_close()
    return posts, with_image


def browser_next_question(root: Path, tmp: Path, sample: int) -> list[float] | None:
    """Milliseconds from Enter to the next question drawn, in headless Chromium."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    driver_path = shutil.which("chromedriver")
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.keys import Keys
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        return None
    if not (chromium and driver_path):
        return None
    study = open_study(root, annotator="browser", sample=sample, seed=0, out=tmp / "b.jsonl")
    url, server = _serve(study)
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp / 'profile'}")
    browser = webdriver.Chrome(service=Service(driver_path), options=options)
    try:
        browser.get(url + "/")
        browser.switch_to.active_element.send_keys(Keys.ENTER)  # past the instructions
        for shown in range(1, sample):
            WebDriverWait(browser, 20).until(
                lambda b: b.execute_script("return document.body.dataset.state") == "question"
            )
            # "I can't tell" by keyboard: the answer kind does not matter for the timing
            browser.execute_script("document.getElementById('skip').focus()")
            browser.switch_to.active_element.send_keys(Keys.ENTER)
            WebDriverWait(browser, 20).until(
                lambda b, n=shown: b.execute_script("return window.humanTimings.length") >= n
            )
        return [ms / 1000 for ms in browser.execute_script("return window.humanTimings")]
    finally:
        browser.quit()
        server.shutdown()
        server.server_close()


def concurrent_answers(
    root: Path, tmp: Path, sample: int, annotators: int
) -> tuple[float, int, bool]:
    studies = [
        open_study(root, annotator=f"sim{i}", sample=sample, seed=0, out=tmp / f"sim{i}.jsonl")
        for i in range(annotators)
    ]
    servers = [_serve(study) for study in studies]
    acknowledged: list[list[str]] = [[] for _ in studies]
    start = time.perf_counter()

    def annotate(index: int) -> None:
        url = servers[index][0]
        for qid in studies[index].plan.qids:
            _post(url, qid)
            acknowledged[index].append(qid)

    threads = [threading.Thread(target=annotate, args=(i,)) for i in range(annotators)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - start
    for _, server in servers:
        server.shutdown()
        server.server_close()
    total = sum(map(len, acknowledged))
    intact = all(
        [row["qid"] for row in read_answers(study.out)] == sent
        for study, sent in zip(studies, acknowledged, strict=True)
    )
    return total / elapsed, total, intact


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, help="an existing build (default: build one)")
    parser.add_argument("--n", type=int, default=12)
    parser.add_argument("--sample", type=int, default=200)
    parser.add_argument("--annotators", type=int, default=8)
    parser.add_argument("--browser-questions", type=int, default=30)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        root = args.data or tmp / "build"
        if args.data is None:
            build_dataset(
                root, n=args.n, seed=0, workers=1, config=load_config("small"), progress=False
            )
        posts, with_image = served_next_question(root, tmp, args.sample)
        print(
            f"next question, served: answer saved {_ms(posts)}; with the next image "
            f"uncached {_ms(with_image)} ({len(posts)} answers)"
        )
        drawn = browser_next_question(root, tmp, args.browser_questions)
        if drawn is None:
            print("next question, in the page: skipped (needs chromium, chromedriver, selenium)")
        else:
            print(
                "next question, in the page (Enter to the next question drawn): "
                f"{_ms(drawn)} ({len(drawn)} answers)"
            )
        rate, total, intact = concurrent_answers(root, tmp, args.sample, args.annotators)
        print(
            f"{args.annotators} concurrent annotators: {total} answers at {rate:.0f} answers/s; "
            f"{'nothing lost, nothing twice' if intact else 'ANSWERS LOST OR DOUBLED'}"
        )
        worst = max(statistics.median(with_image), statistics.median(drawn or [0.0]))
        print(f"next question / {AIM_MS:.0f} ms aim: {1000 * worst / AIM_MS:.2f}")


if __name__ == "__main__":
    main()
