"""Spoken figure text: inline LaTeX read out, nothing a screen reader would spell as symbols."""

from __future__ import annotations

import re
import unicodedata
from importlib.resources import files

import pytest
from hypothesis import given
from hypothesis import strategies as st

from figgen.words.spoken import quoted, spoken

LEFTOVER = re.compile(r"[\\$_^{}]")


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        (r"$\mathcal{I}_2$ Require", "script I sub 2 Require"),
        (r"CLOUD ${\mathbf{C}}$ LOSS", "CLOUD bold C LOSS"),
        (r"$x^{2}$ and $r^3$", "x squared and r cubed"),
        (r"$e^{-x}$", "e to the power -x"),
        (r"$\mathcal{S}^{\prime}$", "script S prime"),
        (r"$\tilde{p}$ and $\hat{\sigma}_{z}$", "p tilde and sigma hat sub z"),
        (r"$\vec{v}$", "vector v"),
        (r"$\mathbb{R}^n$", "double-struck R to the power n"),
        (r"$\varphi_{i}\in \Delta(A)\backslash K$", "phi sub i in capital delta (A) set minus K"),
        (r"$\sqrt{2}$", "square root of 2"),
        (r"$k\approx 24~{\rm rad}$", "k approximately 24 rad"),
        (r"$f_\mathrm{c}$", "f sub c"),
        (r"$\langle i,j\rangle\in E$", "angle bracket i,j close angle bracket in E"),
        (r"$\epsilon \leq 1$", "epsilon less than or equal to 1"),
        (r"$\alpha$ flux", "alpha flux"),
        ("50% of  plain words", "50% of plain words"),
        (r"$MAE_{}^{l}$", "MAE to the power l"),
    ],
)
def test_latex_is_read_out(raw: str, said: str) -> None:
    assert spoken(raw) == said


def test_every_shipped_formula_reads_without_symbols() -> None:
    """The formula corpus is what titles and labels draw from: all of it must speak cleanly."""
    text = files("figgen.corpora").joinpath("data/formulas.txt").read_text(encoding="utf-8")
    formulas = [line.split("\t")[-1] for line in text.splitlines() if line and line[0] != "#"]
    assert len(formulas) > 500
    for formula in formulas:
        said = spoken(f"Flux ${formula}$ value")
        assert not LEFTOVER.search(said), (formula, said)
        # neither combining marks nor mathematical alphanumerics (which readers skip)
        assert not any(unicodedata.category(c) == "Mn" for c in said), (formula, said)
        assert not any(0x1D400 <= ord(c) <= 0x1D7FF for c in said), (formula, said)
        assert said.startswith("Flux ") and said.endswith(" value")
        assert all(plain(c) for c in said), (formula, said)


def plain(char: str) -> bool:
    """Letters and digits of plain ASCII, spaces and punctuation: nothing read as a symbol."""
    if char.isascii() and (char.isalnum() or char.isspace()):
        return True
    return unicodedata.category(char)[0] == "P"


def test_every_shipped_formula_is_counted() -> None:
    text = files("figgen.corpora").joinpath("data/formulas.txt").read_text(encoding="utf-8")
    assert sum(1 for line in text.splitlines() if line and line[0] != "#") == 1000


@given(st.text(max_size=40))
def test_any_text_comes_out_clean(text: str) -> None:
    said = spoken(text)
    assert not LEFTOVER.search(said)
    assert said == " ".join(said.split())
    assert all(plain(c) for c in said), (text, said)


def test_quoted_wraps_the_spoken_text() -> None:
    assert quoted(r"$\beta_1$ rate") == '"beta sub 1 rate"'
