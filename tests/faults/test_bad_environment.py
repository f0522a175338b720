"""A hostile machine: read-only and full disks, damaged files, two writers, newer data.

Every failure must be one line on stderr with exit code 2, and must leave what was already
written as it was; after the cause is removed, the same command finishes the job.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from figgen.store.lock import LOCK_NAME
from tests.eval.fixtures import make_dataset

from .conftest import build_args, copy_build, digest, remount

Figgen = Callable[..., tuple[int, str]]


def one_line(stderr: str, *needles: str) -> str:
    lines = [line for line in stderr.splitlines() if line.startswith("error:")]
    assert len(lines) == 1 and "Traceback" not in stderr, stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def no_temporaries(root: Path) -> None:
    assert not [p for p in root.rglob("*") if ".tmp-" in p.name or p.name.endswith(".partial")]


# --- read-only output -----------------------------------------------------------------------


def test_read_only_folder(
    figgen: Figgen, tiny_build: Path, tiny_config: Path, small_disk: Callable[[str], Path],
    tmp_path: Path,
) -> None:  # fmt: skip
    disk = small_disk("4m")
    data = copy_build(tiny_build, disk / "ds")
    remount(disk, "ro")
    before = digest(data)

    code, err = figgen(*build_args(data, tiny_config))
    assert code == 2
    one_line(err, "Read-only file system")
    code, err = figgen(*build_args(disk / "new", tiny_config))
    assert code == 2
    one_line(err, "Read-only file system")
    code, err = figgen("qa", data)
    assert code == 2
    one_line(err, "Read-only file system")
    code, err = figgen("export", data, "--format", "coco", "--out", disk / "coco")
    assert code == 2
    one_line(err, "Read-only file system")
    assert digest(data) == before

    # reading a read-only dataset is fine: evaluate it, writing the answers elsewhere
    answers = tmp_path / "oracle.jsonl"
    code, err = figgen("eval", "run", "--data", data, "--model", "oracle", "--out", answers,
                       "--no-progress", "--limit", "20")  # fmt: skip
    assert code == 0, err
    assert len(answers.read_text(encoding="utf-8").splitlines()) == 20


# --- a full disk ----------------------------------------------------------------------------


@pytest.mark.slow
def test_full_disk_during_a_build_keeps_every_finished_figure(
    figgen: Figgen, tiny_config: Path, small_disk: Callable[[str], Path], tmp_path: Path
) -> None:
    reference = tmp_path / "reference"
    assert figgen(*build_args(reference, tiny_config, n=6))[0] == 0
    disk = small_disk("160k")  # room for about two of the six figures and their question parts
    out = disk / "ds"

    code, err = figgen(*build_args(out, tiny_config, n=6))
    assert code == 2
    one_line(err, "No space left on device", "run the same command again")
    no_temporaries(out)
    kept = sorted(p.stem for p in (out / "figures").glob("*.json"))
    assert kept, "some figures fit before the disk filled"
    for stem in kept:  # whatever is there is complete and exactly the reference's
        for suffix in (".json", ".png"):
            rel = f"figures/{stem}{suffix}"
            assert (out / rel).read_bytes() == (reference / rel).read_bytes()

    remount(disk, "size=8m")
    code, err = figgen(*build_args(out, tiny_config, n=6))
    assert code == 0, err
    assert digest(out) == digest(reference)


def test_full_disk_during_an_eval_keeps_the_answers_written(
    figgen: Figgen, small_disk: Callable[[str], Path], tmp_path: Path
) -> None:
    data = make_dataset(tmp_path / "data")
    disk = small_disk("4k")  # one page: room for some of the 16 answers
    answers = disk / "oracle.jsonl"
    code, err = figgen("eval", "run", "--data", data, "--model", "oracle", "--out", answers,
                       "--no-progress", "--concurrency", "1")  # fmt: skip
    assert code == 2
    one_line(err, "No space left on device")
    kept = [json.loads(line) for line in answers.read_text(encoding="utf-8").splitlines()
            if line.endswith("}")]  # fmt: skip
    assert 0 < len(kept) < 16

    remount(disk, "size=1m")
    code, err = figgen("eval", "run", "--data", data, "--model", "oracle", "--out", answers,
                       "--no-progress")  # fmt: skip
    assert code == 0, err
    from figgen.schema.answers import read_answers

    rows = read_answers(answers)
    assert sorted(r["qid"] for r in rows) == sorted(f"q{i:03d}" for i in range(16))
    assert {r["qid"]: r for r in rows}.keys() >= {r["qid"] for r in kept}


def test_full_disk_during_an_export_leaves_nothing_behind(
    figgen: Figgen, tiny_build: Path, small_disk: Callable[[str], Path]
) -> None:
    disk = small_disk("64k")
    code, err = figgen("export", tiny_build, "--format", "hf", "--out", disk / "hf")
    assert code == 2
    one_line(err, "No space left on device")
    assert list(disk.iterdir()) == []  # the staging folder went with the failure


# --- damaged files in an existing build -----------------------------------------------------


@pytest.mark.parametrize("damage", ["truncated", "garbage", "not-a-record"])
def test_damaged_record(
    figgen: Figgen, tiny_build: Path, tiny_config: Path, tmp_path: Path, damage: str
) -> None:
    data = copy_build(tiny_build, tmp_path / "ds")
    record = data / "figures" / "fig-000001.json"
    original = record.read_bytes()
    record.write_bytes(
        {"truncated": original[: len(original) // 3], "garbage": b"\x00\xff" * 50,
         "not-a-record": b"[1, 2, 3]"}[damage]
    )  # fmt: skip
    before = digest(data)
    for args in (
        build_args(data, tiny_config),
        ["qa", str(data)],
        ["export", str(data), "--format", "coco", "--out", str(tmp_path / "coco")],
        ["eval", "run", "--data", str(data), "--model", "oracle", "--out",
         str(tmp_path / "a.jsonl"), "--no-progress"],
    ):  # fmt: skip
        code, err = figgen(*args)
        assert code == 2, (args, err)
        one_line(err, "fig-000001.json")
        assert digest(data) == before, args  # nothing written, nothing lost
    # the fix the message names: delete it and build again, which regenerates it exactly
    assert "delete it and run the same `figgen build` again" in err
    record.unlink()
    assert figgen(*build_args(data, tiny_config))[0] == 0
    assert record.read_bytes() == original
    assert digest(data) == digest(tiny_build)


@pytest.mark.parametrize("damage", ["truncated", "binary", "wrong-field"])
def test_damaged_questions(figgen: Figgen, tiny_build: Path, tmp_path: Path, damage: str) -> None:
    data = copy_build(tiny_build, tmp_path / "ds")
    qa = data / "qa.jsonl"
    text = qa.read_bytes()
    lines = text.splitlines(keepends=True)
    if damage == "truncated":  # cut in the middle of line 3
        qa.write_bytes(b"".join(lines[:2]) + lines[2][:40])
    elif damage == "binary":
        qa.write_bytes(b"".join(lines[:2]) + b"\x80\x81\n" + b"".join(lines[3:]))
    else:
        item = json.loads(lines[2])
        item["answer_type"] = "colour"
        qa.write_bytes(b"".join(lines[:2]) + json.dumps(item).encode() + b"\n")
    for args in (
        ["eval", "run", "--data", str(data), "--model", "oracle", "--out",
         str(tmp_path / "a.jsonl"), "--no-progress"],
        ["export", str(data), "--format", "hf", "--out", str(tmp_path / "hf")],
    ):  # fmt: skip
        code, err = figgen(*args)
        assert code == 2, (args, err)
        one_line(err, "qa.jsonl:3", "figgen qa")
    assert not (tmp_path / "a.jsonl").exists() and not (tmp_path / "hf").exists()
    # `figgen qa` rewrites the questions from the records, as the message says
    assert figgen("qa", data)[0] == 0
    assert qa.read_bytes() == text


# --- two writers, and data from a newer figgen ----------------------------------------------


@pytest.mark.slow
def test_a_second_build_into_the_same_folder_is_refused_naming_the_first(
    tiny_config: Path, tmp_path: Path
) -> None:
    out = tmp_path / "ds"
    command = [sys.executable, "-m", "figgen", *build_args(out, tiny_config, n=6)]
    first = subprocess.Popen(command, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (out / LOCK_NAME).is_file() or not (out / LOCK_NAME).read_text():
            assert time.monotonic() < deadline and first.poll() is None
            time.sleep(0.05)
        # hold the first build still while it holds the lock, so a fast machine cannot let it
        # finish before the second one starts (a stopped process keeps its lock)
        os.kill(first.pid, signal.SIGSTOP)
        try:
            second = subprocess.run(command, capture_output=True, text=True)
        finally:
            os.kill(first.pid, signal.SIGCONT)
        assert second.returncode == 2
        message = one_line(second.stderr, "is being written by another figgen run")
        assert f"pid {first.pid}" in message and "figgen build --n 6" in message
    finally:
        _, first_err = first.communicate(timeout=300)
    assert first.returncode == 0, first_err
    assert not (out / LOCK_NAME).exists()
    assert len(list((out / "figures").glob("*.png"))) == 6


def test_a_killed_builds_lock_does_not_block_the_next(
    figgen: Figgen, tiny_build: Path, tiny_config: Path, tmp_path: Path
) -> None:
    data = copy_build(tiny_build, tmp_path / "ds")
    (data / LOCK_NAME).write_text("pid 999999 on elsewhere, `figgen build`, since then\n")
    code, err = figgen(*build_args(data, tiny_config))
    assert code == 0, err
    assert not (data / LOCK_NAME).exists()


def test_data_from_a_newer_figgen_is_refused(
    figgen: Figgen, tiny_build: Path, tiny_config: Path, tmp_path: Path
) -> None:
    data = copy_build(tiny_build, tmp_path / "ds")
    record = data / "figures" / "fig-000002.json"
    value = json.loads(record.read_bytes())
    value["generator"]["version"] = "99.0"
    record.write_text(json.dumps(value), encoding="utf-8")
    before = digest(data)
    code, err = figgen("qa", data)
    assert code == 2
    one_line(err, "fig-000002.json", "figgen 99.0", "pip install -U figgen")
    assert digest(data) == before

    manifest = data / "manifest.json"
    value = json.loads(manifest.read_bytes())
    value["figgen_version"] = "99.0"
    manifest.write_text(json.dumps(value), encoding="utf-8")
    before = digest(data)
    code, err = figgen(*build_args(data, tiny_config))
    assert code == 2
    one_line(err, "figgen 99.0", "pip install -U figgen")
    assert digest(data) == before
