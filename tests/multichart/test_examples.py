"""The example spec the docs name is shipped, checks clean and builds; misuse is one line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from figgen.multichart.examples import example_names, example_text


def figgen(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "figgen", "multichart", *map(str, args)]
    return subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=cwd)


def test_the_documented_flow_writes_and_checks_my_graph(tmp_path: Path) -> None:
    assert "starter" in example_names()
    # as the README says: figgen multichart example, then check my_graph.toml
    written = figgen("example", cwd=tmp_path)
    assert written.returncode == 0, written.stderr
    assert (tmp_path / "my_graph.toml").read_text() == example_text("starter")
    checked = figgen("check", "my_graph.toml", cwd=tmp_path)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.splitlines()[1] == "minimal generative set: north, south"


def test_an_existing_file_or_unknown_example_is_refused(tmp_path: Path) -> None:
    mine = tmp_path / "my_graph.toml"
    mine.write_text("# mine\n")
    result = figgen("example", "--out", mine, cwd=tmp_path)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        f"error: {mine} exists; choose another --out (it is left as it was)"
    ]
    assert mine.read_text() == "# mine\n"
    result = figgen("example", "nosuch", "--out", tmp_path / "x.toml", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["error: no example spec 'nosuch'; examples: starter"]
    assert not (tmp_path / "x.toml").exists()


def test_the_starter_example_builds_a_set(tmp_path: Path) -> None:
    spec = tmp_path / "starter.toml"
    spec.write_text(example_text("starter"))
    result = figgen("build", "--out", tmp_path / "mc", "--sets", "1", "--scenario", spec,
                    "--workers", "1", "--no-progress", cwd=tmp_path)  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "mc" / "qa.jsonl").read_text().count("\n") > 0
