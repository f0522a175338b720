"""The command line's refusals: one exact line, exit code 2, nothing written or changed."""

from __future__ import annotations

import hashlib
import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest


def figgen(*args: str | Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "figgen", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def digest(root: Path) -> dict[str, str]:
    return {
        p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def refused(result: subprocess.CompletedProcess[str]) -> str:
    """The one line a refused command printed (asserting exit code 2 and nothing else)."""
    assert result.returncode == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert result.stdout == ""
    return lines[0].removeprefix("error: ")


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("messages") / "ds"
    result = figgen("build", "--n", "2", "--out", out, "--config", "tiny", "--workers", "1",
                    "--no-progress")  # fmt: skip
    assert result.returncode == 0, result.stderr
    return out


def test_another_seed_is_named_as_the_only_difference(tiny: Path) -> None:
    before = digest(tiny)
    result = figgen("build", "--n", "2", "--out", tiny, "--config", "tiny", "--seed", "1")
    assert refused(result) == (
        f"{tiny} holds another build (seed 0 there, 1 here); "
        "rerun with its seed and config to resume, or choose another --out"
    )
    assert digest(tiny) == before


def test_another_config_names_the_first_value_that_differs(tiny: Path) -> None:
    before = digest(tiny)
    result = figgen("build", "--n", "2", "--out", tiny, "--config", "small")
    # tiny and small differ in image.dpi, image.panel_inches, panels.count, .mean and .std
    assert refused(result) == (
        f"{tiny} holds another build (config image.dpi = [50, 60] there, [60, 90] here "
        "and 4 more config values); "
        "rerun with its seed and config to resume, or choose another --out"
    )
    assert digest(tiny) == before


def test_the_manifest_command_rebuilds_the_same_bytes(tiny: Path, tmp_path: Path) -> None:
    manifest = json.loads((tiny / "manifest.json").read_text())
    # DIR stands for the build's folder: a build moved or copied keeps every byte
    assert manifest["command"] == "figgen build --n 2 --seed 0 --out DIR --config tiny"
    again = tmp_path / "again"
    args = shlex.split(manifest["command"].replace("DIR", str(again)))[1:]
    assert figgen(*args, "--workers", "1", "--no-progress").returncode == 0
    assert digest(again) == digest(tiny)
    # a config that came from no file is read back from the build's own manifest
    copy = tmp_path / "copy"
    args[args.index("--config") + 1] = str(tiny / "manifest.json")
    args[args.index("--out") + 1] = str(copy)
    assert figgen(*args, "--workers", "1", "--no-progress").returncode == 0
    assert digest(copy / "figures") == digest(tiny / "figures")
    command = json.loads((copy / "manifest.json").read_text())["command"]
    assert command == f"figgen build --n 2 --seed 0 --out DIR --config {tiny / 'manifest.json'}"


def test_show_names_a_missing_folder_and_a_missing_figure(tiny: Path, tmp_path: Path) -> None:
    out = tmp_path / "boxes.png"
    nosuch = tmp_path / "nosuch"
    assert refused(figgen("show", nosuch, "fig-000001", "--out", out)) == (
        f"{nosuch} is not a folder; give the folder of a figgen build --out"
    )
    assert refused(figgen("show", tiny, "fig-000009", "--out", out)) == (
        f"no figure 'fig-000009' in {tiny}; it holds 2 (fig-000000 .. fig-000001)"
    )
    assert refused(figgen("show", tiny, "fig-000001", "--kind", "bars", "--out", out)).startswith(
        "unknown element kind 'bars' for --kind; kinds: figure, panel, title"
    )
    assert not out.exists() and not nosuch.exists()
