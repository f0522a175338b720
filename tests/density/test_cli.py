"""Bad input through the real entry point: one line on stderr, exit code 2, nothing lost."""

from __future__ import annotations

import contextlib
import io
import sys
from pathlib import Path

import pytest

from figgen._cli.main import main
from figgen.density import compose
from figgen.density.compose import build_density
from figgen.errors import RepairFailed

from .helpers import chart_folder


def run_main(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    old, sys.argv = sys.argv, ["figgen", "density", *args]
    try:
        with contextlib.redirect_stderr(err):
            main()
    except SystemExit as exc:
        return int(exc.code or 0), err.getvalue()
    finally:
        sys.argv = old
    return 0, err.getvalue()


@pytest.mark.parametrize(
    ("change", "args", "message"),
    [
        (None, ["--k", "1,9"], "--k 9 needs at least 9 source charts, but the source has 3"),
        (None, ["--k", "1,x"], "--k '1,x' is not a comma-separated list"),
        ("c01.csv", ["--k", "1"], "c01.csv has no column y (header: series,x)"),
        (None, ["--kinds", "line,pie"], "--kinds pie: no such plot kind has a table; choose from"),
        (None, ["--kinds", " ,"], "--kinds is empty; name plot kinds such as line,bar"),
    ],
)
def test_bad_build_input_is_one_line(
    tmp_path: Path, change: str | None, args: list[str], message: str
) -> None:
    charts = chart_folder(tmp_path / "charts", 3)
    if change:
        (charts / change).write_text("series,x\na,1\n")
    code, err = run_main("build", "--source", str(charts), "--out", str(tmp_path / "o"), *args)
    assert code == 2 and err.count("\n") == 1 and message in err


def test_score_without_answers_or_build_is_one_line(tmp_path: Path) -> None:
    code, err = run_main("score", "--data", str(tmp_path), "--answers", "a.jsonl", "--out", "r")
    assert code == 2 and "manifest.json is missing" in err and err.count("\n") == 1


def test_a_compound_that_cannot_be_rendered_is_left_out_and_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    paste = compose.paste_grid

    def failing(images, grid, margin):  # type: ignore[no-untyped-def]
        if grid == (1, 3):
            raise RepairFailed("k3: 2 layout problems left")
        return paste(images, grid, margin)

    monkeypatch.setattr(compose, "paste_grid", failing)
    manifest = build_density(chart_folder(tmp_path / "charts", 3), tmp_path / "o", densities=[1, 3])
    assert [c.density for c in manifest.compounds] == [1, 1, 1]
    assert manifest.failed == {"k3-0000": "k3: 2 layout problems left"}
