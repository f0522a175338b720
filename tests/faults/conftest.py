"""Fixtures for fault tests: the CLI run in-process, tiny builds, and size-limited disks."""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest


@pytest.fixture
def figgen(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> Callable[..., tuple[int, str]]:
    """Run ``figgen ARGS`` through its console entry point; returns (exit code, stderr)."""
    from figgen._cli.main import main

    def run(*args: str | Path) -> tuple[int, str]:
        monkeypatch.setattr(sys, "argv", ["figgen", *map(str, args)])
        capsys.readouterr()
        try:
            main()
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 1
        else:
            code = 0
        return code, capsys.readouterr().err

    return run


@pytest.fixture(scope="session")
def tiny_config() -> Path:
    """The shipped ``tiny`` preset, as a file the CLI reads."""
    from figgen.config.load import PRESETS

    return PRESETS / "tiny.toml"


def build_args(out: Path, config: Path, n: int = 3) -> list[str]:
    return ["build", "--n", str(n), "--out", str(out), "--seed", "0", "--workers", "1",
            "--config", str(config), "--no-progress"]  # fmt: skip


@pytest.fixture(scope="session")
def tiny_build(tmp_path_factory: pytest.TempPathFactory, tiny_config: Path) -> Path:
    """A finished 3-figure build (PNG + JSON, manifest, qa.jsonl); copy it before changing it."""
    out = tmp_path_factory.mktemp("tiny") / "ds"
    subprocess.run([sys.executable, "-m", "figgen", *build_args(out, tiny_config)], check=True)
    return out


def digest(root: Path) -> dict[str, str]:
    """Relative path -> sha256 of every file under ``root``."""
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def copy_build(source: Path, target: Path) -> Path:
    shutil.copytree(source, target)
    return target


@contextmanager
def _mounted(path: Path, size: str) -> Iterator[Path]:
    path.mkdir(parents=True, exist_ok=True)
    command = ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)]
    try:
        result = subprocess.run(command, capture_output=True, text=True)
    except FileNotFoundError:
        pytest.skip("cannot mount a size-limited tmpfs here (no mount command)")
    if result.returncode != 0:
        pytest.skip(f"cannot mount a size-limited tmpfs here ({result.stderr.strip()})")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Callable[[str], Path]]:
    """``small_disk("100k")``: a tmpfs of that size, unmounted after the test."""
    with ExitStack() as stack:
        yield lambda size: stack.enter_context(_mounted(tmp_path / f"disk-{size}", size))


def remount(path: Path, options: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{options}", str(path)], check=True)
