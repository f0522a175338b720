"""Finding, normalizing and checking ``$...$`` snippets, without matplotlib."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from figgen.corpora.math_snippets import (
    MathSpan,
    apply_tex_aliases,
    braces_balanced,
    find_math,
    normalize_snippet,
    plain_word_count,
    tally_snippets,
    text_check,
)


def test_find_math_pairs_inline_and_display() -> None:
    text = "Let $x$ be \\$5 and $$y=1$$ then\n$z = 2$ \nend $w$."

    spans, paired = find_math(text)

    assert paired
    assert spans == [
        MathSpan("x", display=False),
        MathSpan("y=1", display=True),
        MathSpan("z = 2", display=True),  # alone on its line: unarXive's display equation
        MathSpan("w", display=False),
    ]


def test_find_math_flags_unpaired_dollars() -> None:
    spans, paired = find_math("costs $5 and $x$ later")
    assert not paired
    assert [span.source for span in spans] == ["5 and "]  # the third $ has no partner


def test_escaped_dollar_inside_math_is_not_a_delimiter() -> None:
    spans, paired = find_math(r"above $\$250,000$ a year")
    assert paired
    assert [span.source for span in spans] == [r"\$250,000"]


@given(st.text(alphabet="ab$\\ \n{}", max_size=40))
def test_find_math_spans_come_from_the_text(text: str) -> None:
    spans, paired = find_math(text)
    unescaped = text.replace("\\\\", "").replace("\\$", "")
    if "$" not in unescaped:
        assert spans == [] and paired
    for span in spans:
        assert span.source in text


@pytest.mark.parametrize(
    ("source", "normalized"),
    [
        (r"\sigma _1", r"\sigma_1"),
        (r"\mathbb {P}^N", r"\mathbb{P}^N"),
        ("x_i ,", "x_i"),
        (r"\, a+b \;", "a+b"),
        (r"f(x) .", "f(x)"),
        ("a \n  b", "a b"),
        (r"\alpha \beta", r"\alpha \beta"),  # the space ends a command name: it must stay
        (r"a\ (b)", r"a\ (b)"),  # a control space is not whitespace
    ],
)
def test_normalize_snippet(source: str, normalized: str) -> None:
    assert normalize_snippet(source) == normalized


@given(st.text(alphabet="ab_^{}(),.;~ \\\n", max_size=30))
def test_normalize_is_idempotent(source: str) -> None:
    once = normalize_snippet(source)
    assert normalize_snippet(once) == once


@pytest.mark.parametrize(
    ("snippet", "rewritten"),
    [
        (r"0<p\le 1", r"0<p\leq 1"),
        (r"\alpha\ge0", r"\alpha\geq0"),
        (r"\leq \left( x \right)", r"\leq \left( x \right)"),  # \le is only a whole name
        (r"\textbf{MP}_{\textup{B}}", r"\mathbf{MP}_{\mathrm{B}}"),
        (r"\tfrac{1}{2}", r"\frac{1}{2}"),
    ],
)
def test_tex_aliases(snippet: str, rewritten: str) -> None:
    assert apply_tex_aliases(snippet) == rewritten


@pytest.mark.parametrize(
    ("snippet", "balanced"),
    [("{a}{b}", True), (r"\{ a", True), ("{a", False), ("a}{", False), (r"{\}}", True)],
)
def test_braces_balanced(snippet: str, balanced: bool) -> None:
    assert braces_balanced(snippet) is balanced


@pytest.mark.parametrize(
    ("snippet", "words"),
    [
        ("5 million and ", 2),
        (r"\text{train loss}", 0),
        (r"\mathrm{max}_x", 0),
        (r"\log p(x)", 0),
        ("Gaia", 1),
    ],
)
def test_plain_word_count(snippet: str, words: int) -> None:
    assert plain_word_count(snippet) == words


@pytest.mark.parametrize(
    ("source", "reason"),
    [
        ("x", None),
        ("  ", "empty"),
        ("a +\nb", "newline"),
        (r"x \label{a}", "markup"),
        (r"\cite{x}", "markup"),
        ("{{cite:abc}}", "markup"),
        (r"a \\ b", "markup"),
        (r"\$5", "currency"),
        ("{a", "unbalanced_braces"),
        ("a" * 41, "too_long"),
        ("5 million and", "prose"),
        ("_2", "fragment"),
        ("-", "fragment"),
        ("3.5", "plain_number"),
        ("10^{-4}", None),
    ],
)
def test_text_check_reasons(source: str, reason: str | None) -> None:
    assert text_check(MathSpan(source, display=False), max_chars=40)[1] == reason


def test_tally_counts_occurrences_and_documents() -> None:
    documents = [
        ["$a$ and $a$ and $\\le 1$", "then $ a $"],  # one document, a three times
        ["$a$ here", "odd $b$ $c"],  # a once; the odd paragraph drops its one pair
    ]

    tally = tally_snippets(documents)

    assert tally.kept == {"a": 4, r"\leq 1": 1}
    assert tally.documents == {"a": 2, r"\leq 1": 1}
    assert tally.dropped == {"unpaired_delimiters": 1}
    assert tally.aliased == 1
    assert tally.seen == 6
