"""What ``figgen eval run`` says when it cannot do what was asked, run as a user runs it."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path


def figgen(*args: str | Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "figgen", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def test_mock_without_a_script_is_refused_in_one_line(dataset_dir: Path, tmp_path: Path) -> None:
    out = tmp_path / "answers.jsonl"
    result = figgen("eval", "run", "--data", dataset_dir, "--model", "mock", "--out", out)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: the mock provider replies only from a script: pass --option script=FILE.json "
        "(a list of replies, or an object keyed by qid); for offline answers without one use "
        "--model oracle (the true answers) or --model chance (guesses)"
    ]
    assert not out.exists()


def test_a_server_that_is_not_there_is_named_by_the_first_error(
    dataset_dir: Path, tmp_path: Path
) -> None:
    with socket.socket() as probe:  # a port nothing listens on once the probe closes
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    out = tmp_path / "answers.jsonl"
    result = figgen("eval", "run", "--data", dataset_dir, "--model", "openai-compatible:m",
                    "--base-url", f"http://127.0.0.1:{port}/v1", "--out", out, "--limit", "2",
                    "--retries", "1", "--no-progress")  # fmt: skip
    lines = result.stdout.splitlines()
    assert ", errors 2, " in lines[-2]
    assert lines[-1].startswith("first error: APIConnectionError: Connection error. (")
