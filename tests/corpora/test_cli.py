"""``figgen corpora build`` on the tiny fixture, and its one-line errors."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from figgen._cli.main import app, main
from figgen.corpora.listfile import parse_list
from figgen.errors import FiggenError


def test_build_command_writes_both_lists(tiny_sources: list[Path], tmp_path: Path) -> None:
    out = tmp_path / "lists"
    arguments = ["corpora", "build", *map(str, tiny_sources), "--out", str(out)]

    result = CliRunner().invoke(app, arguments)

    assert result.exit_code == 0, result.output
    assert "3 words" in result.output
    assert "3 formulas" in result.output
    assert "mathtext_parse 1" in result.output
    words = parse_list((out / "words.txt").read_text(encoding="utf-8"))
    formulas = parse_list((out / "formulas.txt").read_text(encoding="utf-8"))
    assert words.items == ("galaxy", "neural", "spectra")
    assert formulas.items == (r"\alpha_1", r"\leq 1", "x^{2}")


def test_build_command_passes_its_limits(tiny_sources: list[Path], tmp_path: Path) -> None:
    arguments = ["corpora", "build", *map(str, tiny_sources), "--out", str(tmp_path)]
    arguments += ["--n-words", "1", "--max-formulas", "2"]

    result = CliRunner().invoke(app, arguments)

    assert result.exit_code == 0, result.output
    assert parse_list((tmp_path / "words.txt").read_text(encoding="utf-8")).items == ("galaxy",)
    formulas = parse_list((tmp_path / "formulas.txt").read_text(encoding="utf-8"))
    assert len(formulas.entries) == 2
    assert "left out by --max-formulas" in result.output


def test_missing_source_is_a_figgen_error(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"

    result = CliRunner().invoke(app, ["corpora", "build", str(missing), "--out", str(tmp_path)])

    assert isinstance(result.exception, FiggenError)
    assert "nope.jsonl" in str(result.exception)
    assert not (tmp_path / "words.txt").exists()


def test_main_prints_one_line_and_exits_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.jsonl"
    argv = ["figgen", "corpora", "build", str(missing), "--out", str(tmp_path / "out")]
    monkeypatch.setattr(sys, "argv", argv)

    with pytest.raises(SystemExit) as exit_info:
        main()

    assert exit_info.value.code == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1
    assert error.startswith("error: corpus source ")
    assert "Traceback" not in error


def test_unreadable_source_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "locked.jsonl"
    source.write_text("{}\n", encoding="utf-8")

    def refuse(self: Path) -> bytes:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_bytes", refuse)  # root can read a chmod 000 file
    monkeypatch.setattr(sys, "argv", ["figgen", "corpora", "build", str(source), "--out", "x"])

    with pytest.raises(SystemExit):
        main()

    error = capsys.readouterr().err
    assert (
        error
        == f"error: cannot read corpus source {source} (Permission denied); check its permissions\n"
    )
