"""The matplotlib side of the formula checks."""

from __future__ import annotations

import logging

import pytest

from figgen.corpora.mathtext_check import MathtextChecker, parses


@pytest.fixture(scope="module")
def checker() -> MathtextChecker:
    return MathtextChecker()


@pytest.mark.parametrize(
    ("snippet", "failure"),
    [
        (r"\alpha_1", None),
        (r"\mathcal{O}(n\log n)", None),
        (r"T_{\rm eff}", None),
        (r"\foo_1", "mathtext_parse"),
        ("x^{2", "mathtext_parse"),
        (r"\le 1", "mathtext_parse"),  # why the build rewrites \le to \leq first
        (r"\text{\rm tr}", "mathtext_render"),  # parses, then a glyph is missing when drawn
    ],
)
def test_failure(checker: MathtextChecker, snippet: str, failure: str | None) -> None:
    assert checker.failure(snippet) == failure


def test_parses_without_a_parser() -> None:
    assert parses(r"\sum_i x_i")
    assert not parses(r"\frac{1}")


def test_render_complaints_stay_out_of_the_log(
    checker: MathtextChecker, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO):
        assert not checker.draws(r"\text{\rm tr}")
    assert not [record for record in caplog.records if record.name == "matplotlib.mathtext"]
    assert logging.getLogger("matplotlib.mathtext").propagate
