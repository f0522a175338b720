"""Kill figgen commands with SIGKILL at random moments, rerun them, and compare the results.

For each of ``figgen build``, ``figgen qa``, ``figgen eval run``, ``figgen export`` and a
parquet-shard build, one uninterrupted run gives the reference output and its wall time T.
Each trial then starts the command from the same state, sends SIGKILL after a delay drawn
uniformly from [startup, T] (startup: the time ``figgen --help`` takes, so kills land while
work is being done rather than while Python imports), runs the same command again to the
end, and compares:

- build, qa, export, parquet build: every file under the output folder (and, for export, the
  folder around it, where staging folders live), byte for byte, with the reference;
- eval: the answers file holds exactly one answer per selected question ("lost" counts the
  questions without one), no question whose answer was on disk before the rerun reached the
  server again and none has two answers ("asked twice"), the recorded cost equals the
  reference cost (no cost counted twice), and the rows equal the reference rows apart from
  latency.

The eval runs through the openai SDK against a loopback OpenAI-compatible server in this
process, which answers every question correctly after a short delay. The builds are tiny
(1-2 panels at 50-60 dpi) so that the whole script takes a few minutes. It ends with

    kill trials: N, outputs identical: N, questions lost: 0, asked twice: 0

    python benchmarks/fault_kill.py --trials 20 --seed 0
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

PRICES = """\
[models."fake-vlm"]
input = 1.0
output = 4.0
"""

MODEL = "openai-compatible:fake-vlm"
INPUT_TOKENS, OUTPUT_TOKENS = 1000, 10
N_FIGURES = 3
N_QUESTIONS = 48


def figgen_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "figgen", *args]


def tree_digest(root: Path) -> dict[str, str]:
    """Relative path -> sha256 of every file under ``root`` (folders included as entries)."""
    out: dict[str, str] = {}
    for path in sorted(root.rglob("*")):
        rel = path.relative_to(root).as_posix()
        out[rel] = hashlib.sha256(path.read_bytes()).hexdigest() if path.is_file() else "dir"
    return out


# --- the loopback model server ------------------------------------------------------------


@dataclass
class AnswerServer:
    """OpenAI-compatible chat completions on 127.0.0.1 answering from the questions' truth.

    The question text starts with ``[qid]`` (see :func:`tag_questions`), so the server knows
    which question it is asked and can count how often.
    """

    answers: dict[str, str]
    delay_s: float = 0.02
    asked: Counter[str] = field(default_factory=Counter)

    def __post_init__(self) -> None:
        server = self
        self._lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802  (http.server's name)
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                parts = body["messages"][0]["content"]  # the images, then the text
                text = next(part["text"] for part in parts if part["type"] == "text")
                qid = text[1 : text.index("]")]
                with server._lock:
                    server.asked[qid] += 1
                time.sleep(server.delay_s)
                payload = json.dumps(
                    {
                        "id": "chatcmpl-fake",
                        "object": "chat.completion",
                        "created": 0,
                        "model": body["model"],
                        "choices": [
                            {
                                "index": 0,
                                "finish_reason": "stop",
                                "message": {"role": "assistant", "content": server.answers[qid]},
                            }
                        ],
                        "usage": {
                            "prompt_tokens": INPUT_TOKENS,
                            "completion_tokens": OUTPUT_TOKENS,
                            "total_tokens": INPUT_TOKENS + OUTPUT_TOKENS,
                        },
                    }
                ).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)
        self._thread.start()

    @property
    def base_url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    def close(self) -> None:
        self._http.shutdown()
        self._http.server_close()


def tag_questions(build: Path, out: Path, limit: int) -> dict[str, str]:
    """Copy ``build`` to ``out`` with ``[qid]`` in front of each of the first ``limit``
    questions; returns the correct reply to each."""
    shutil.copytree(build, out)
    answers: dict[str, str] = {}
    lines = (build / "qa.jsonl").read_text(encoding="utf-8").splitlines()[:limit]
    with (out / "qa.jsonl").open("w", encoding="utf-8") as handle:
        for line in lines:
            item = json.loads(line)
            item["question"] = f"[{item['qid']}] {item['question']}"
            answers[item["qid"]] = json.dumps({item["answer_key"]: item["answer"]})
            handle.write(json.dumps(item, ensure_ascii=False) + "\n")
    return answers


# --- scenarios ----------------------------------------------------------------------------


@dataclass
class Outcome:
    identical: bool
    lost: int = 0
    asked_twice: int = 0
    detail: str = ""


@dataclass
class Scenario:
    """A command, how to put its inputs back before a trial, and how to judge the result."""

    name: str
    argv: list[str]
    reset: Callable[[], None]
    judge: Callable[[], Outcome]
    before_rerun: Callable[[], None] = lambda: None


def file_scenario(
    name: str, argv: list[str], compared: Path, reset: Callable[[], None]
) -> Scenario:
    """A command whose whole output folder must come out byte-identical."""
    holder: dict[str, dict[str, str]] = {}

    def judge() -> Outcome:
        digest = tree_digest(compared)
        if "reference" not in holder:
            holder["reference"] = digest
            return Outcome(True)
        reference = holder["reference"]
        if digest == reference:
            return Outcome(True)
        extra = sorted(set(digest) - set(reference))
        missing = sorted(set(reference) - set(digest))
        changed = sorted(k for k in set(digest) & set(reference) if digest[k] != reference[k])
        return Outcome(
            False, detail=f"extra {extra[:3]} missing {missing[:3]} changed {changed[:3]}"
        )

    return Scenario(name, argv, reset, judge)


def eval_scenario(data: Path, answers_file: Path, server: AnswerServer, prices: Path) -> Scenario:
    argv = figgen_command(
        "eval", "run", "--data", str(data), "--model", MODEL, "--base-url", server.base_url,
        "--out", str(answers_file), "--prices", str(prices), "--concurrency", "4",
        "--no-progress", "--max-cost", "1.0",
    )  # fmt: skip
    qids = [json.loads(line)["qid"] for line in (data / "qa.jsonl").open(encoding="utf-8")]
    state: dict[str, Any] = {}

    def reset() -> None:
        answers_file.unlink(missing_ok=True)
        server.asked.clear()
        state["on_disk"] = set()

    def before_rerun() -> None:
        from figgen.schema.answers import read_answers

        state["on_disk"] = {r["qid"] for r in read_answers(answers_file) if r["error"] is None}
        server.asked.clear()

    def judge() -> Outcome:
        from figgen.schema.answers import read_answers

        rows = read_answers(answers_file)
        answered = Counter(r["qid"] for r in rows if r["error"] is None)
        lost = sum(1 for qid in qids if answered[qid] == 0)
        twice = {qid for qid, n in answered.items() if n > 1}
        twice |= {qid for qid in state["on_disk"] if server.asked[qid]}
        cost = round(sum(r["cost_usd"] for r in rows), 9)
        canonical = sorted(
            json.dumps({k: v for k, v in r.items() if k != "latency_s"}, sort_keys=True)
            for r in rows
        )
        if "reference" not in state:
            state["reference"] = (canonical, cost)
        ref_rows, ref_cost = state["reference"]
        same = canonical == ref_rows and cost == ref_cost and not lost and not twice
        detail = "" if same else f"cost {cost} vs {ref_cost}, rows {len(rows)} vs {len(ref_rows)}"
        return Outcome(same, lost, len(twice), detail)

    return Scenario("eval run", argv, reset, judge, before_rerun)


def make_scenarios(work: Path, server_holder: list[AnswerServer]) -> list[Scenario]:
    prices = work / "prices.toml"
    prices.write_text(PRICES, encoding="utf-8")
    common = ["--n", str(N_FIGURES), "--seed", "0", "--workers", "1", "--config", "tiny"]
    common += ["--no-progress"]

    build_out = work / "build"
    build = file_scenario(
        "build",
        figgen_command("build", "--out", str(build_out), *common),
        build_out,
        lambda: shutil.rmtree(build_out, ignore_errors=True),
    )
    parquet_out = work / "parquet"
    parquet = file_scenario(
        "parquet build",
        figgen_command(
            "build", "--out", str(parquet_out), "--format", "parquet", "--shard-size", "1", *common
        ),
        parquet_out,
        lambda: shutil.rmtree(parquet_out, ignore_errors=True),
    )

    # qa and export read a finished build: make one now (uninterrupted)
    source = work / "source"
    subprocess.run(figgen_command("build", "--out", str(source), *common), check=True)
    qa_dir = work / "qa"

    def reset_qa() -> None:
        shutil.rmtree(qa_dir, ignore_errors=True)
        shutil.copytree(source, qa_dir)
        (qa_dir / "qa.jsonl").unlink()
        (qa_dir / "descriptions.jsonl").unlink()

    qa = file_scenario("qa", figgen_command("qa", str(qa_dir)), qa_dir, reset_qa)
    export_parent = work / "export"
    export_parent.mkdir()
    export = file_scenario(
        "export",
        figgen_command(
            "export",
            str(source),
            "--format",
            "hf",
            "--out",
            str(export_parent / "hf"),
            "--overwrite",
        ),  # fmt: skip
        export_parent,
        lambda: [shutil.rmtree(p) for p in export_parent.iterdir()],
    )
    tagged = work / "eval-data"
    server = AnswerServer(tag_questions(source, tagged, N_QUESTIONS))
    server_holder.append(server)
    evaluation = eval_scenario(tagged, work / "answers.jsonl", server, prices)
    return [build, qa, evaluation, export, parquet]


# --- trials -------------------------------------------------------------------------------


@dataclass
class Tally:
    trials: int = 0
    killed: int = 0
    identical: int = 0
    lost: int = 0
    asked_twice: int = 0
    failures: list[str] = field(default_factory=list)


def run(argv: list[str], *, kill_after: float | None = None) -> tuple[float, bool]:
    """Run ``argv``; with ``kill_after``, SIGKILL it then. Returns (seconds, was killed)."""
    started = time.monotonic()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        process.wait(timeout=kill_after)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGKILL)
        process.wait()
        return time.monotonic() - started, True
    finally:
        stderr = process.stderr.read().decode() if process.stderr else ""
        if process.stderr:
            process.stderr.close()
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(argv)} failed ({process.returncode}): {stderr[-500:]}")
    return time.monotonic() - started, False


def run_trials(work: Path, trials: int, seed: int, log: Callable[[str], None]) -> Tally:
    """``trials`` kills of every scenario; returns the tally over all of them."""
    rng = random.Random(seed)
    startup, _ = run(figgen_command("--help"))
    servers: list[AnswerServer] = []
    tally = Tally()
    try:
        for scenario in make_scenarios(work, servers):
            scenario.reset()
            duration, _ = run(scenario.argv)
            scenario.judge()  # the first judgement records the reference
            low = min(startup, duration / 2)
            killed_here = 0
            for trial in range(trials):
                scenario.reset()
                _, killed = run(scenario.argv, kill_after=rng.uniform(low, duration))
                scenario.before_rerun()
                run(scenario.argv)
                outcome = scenario.judge()
                tally.trials += 1
                tally.killed += killed
                killed_here += killed
                tally.identical += outcome.identical
                tally.lost += outcome.lost
                tally.asked_twice += outcome.asked_twice
                if not outcome.identical:
                    tally.failures.append(f"{scenario.name} trial {trial}: {outcome.detail}")
            log(
                f"{scenario.name}: uninterrupted {duration:.2f} s, killed in {killed_here} of "
                f"{trials} trials (kill moments uniform in [{low:.2f}, {duration:.2f}] s)"
            )
    finally:
        for server in servers:
            server.close()
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=20, help="kills per command")
    parser.add_argument("--seed", type=int, default=0, help="seed of the kill moments")
    args = parser.parse_args()
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="figgen-kill-") as tmp:
        tally = run_trials(Path(tmp), args.trials, args.seed, print)
    for failure in tally.failures:
        print("not identical:", failure)
    print(f"{tally.killed} of {tally.trials} runs were still working when killed; "
          f"{time.monotonic() - started:.0f} s in all")  # fmt: skip
    print(
        f"kill trials: {tally.trials}, outputs identical: {tally.identical}, "
        f"questions lost: {tally.lost}, asked twice: {tally.asked_twice}"
    )
    raise SystemExit(0 if tally.identical == tally.trials else 1)


if __name__ == "__main__":
    main()
