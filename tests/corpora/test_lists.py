"""The shipped lists load through the public loaders and hold what their headers promise."""

from __future__ import annotations

import os
import re
from importlib import resources
from pathlib import Path

import pytest

from figgen import corpora
from figgen.corpora.listfile import parse_list
from figgen.corpora.mathtext_check import parses


def _shipped(name: str) -> str:
    return resources.files("figgen.corpora").joinpath("data", name).read_text(encoding="utf-8")


def test_words_are_1000_distinct_content_words() -> None:
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    from figgen.corpora.vocabulary import EXTRA_STOP_WORDS, LATEX_REMNANTS

    words = corpora.words()
    assert len(words) == 1000
    assert len(set(words)) == 1000
    assert not set(words) & (ENGLISH_STOP_WORDS | EXTRA_STOP_WORDS | LATEX_REMNANTS)
    assert all(re.fullmatch(r"[a-z]+(-[a-z]+)*", word) and len(word) >= 3 for word in words)


def test_words_keep_general_science_vocabulary() -> None:
    words = set(corpora.words())
    # One word each from physics, astronomy, machine learning and mathematics should survive
    # the weighting; none of them is near the bottom of its source.
    assert {"quantum", "stellar", "learning", "equation"} <= words


def test_formulas_are_distinct_and_undelimited() -> None:
    formulas = corpora.formulas()
    assert 500 <= len(formulas) <= 1000
    assert len(set(formulas)) == len(formulas)
    assert all(formula == formula.strip() and formula for formula in formulas)
    assert not any("\n" in formula or "\t" in formula for formula in formulas)
    unescaped_dollar = re.compile(r"(?<!\\)\$")
    assert not any(unescaped_dollar.search(formula) for formula in formulas)


def test_every_shipped_formula_parses_with_mathtext() -> None:
    from matplotlib.mathtext import MathTextParser

    parser = MathTextParser("path")
    failures = [formula for formula in corpora.formulas() if not parses(formula, parser)]
    assert failures == []


def test_counts_follow_the_file_order() -> None:
    for name, items, counts in [
        ("words.txt", corpora.words(), corpora.word_counts()),
        ("formulas.txt", corpora.formulas(), corpora.formula_counts()),
    ]:
        shipped = parse_list(_shipped(name))
        assert shipped.items == items
        assert [counts[item] for item in items] == [count for _, count in shipped.entries]
        keys = [(-count, item) for item, count in shipped.entries]
        assert keys == sorted(keys), name


def test_loaders_are_cached_and_read_only() -> None:
    assert corpora.words() is corpora.words()
    assert corpora.formulas() is corpora.formulas()
    with pytest.raises(TypeError):
        corpora.word_counts()["galaxy"] = 1  # type: ignore[index]


def test_provenance_credits_the_sources() -> None:
    words = "\n".join(corpora.provenance("words"))
    formulas = "\n".join(corpora.provenance("formulas"))
    assert "arxiv_abstracts.jsonl" in words
    assert "every source weighs the same" in words
    assert "arxiv_fulltext_sample.jsonl" in formulas
    assert "creativecommons.org/licenses/by-sa/4.0" in formulas
    assert "mathtext_parse:" in formulas
    with pytest.raises(ValueError, match="words"):
        corpora.provenance("sentences")  # type: ignore[arg-type]


@pytest.mark.slow
def test_every_shipped_formula_draws() -> None:
    from figgen.corpora.mathtext_check import MathtextChecker

    # The build drew each in all five fontsets; once in the default one keeps this test short.
    checker = MathtextChecker(fontsets=("dejavusans",))
    assert [formula for formula in corpora.formulas() if not checker.draws(formula)] == []


@pytest.mark.slow
@pytest.mark.skipif(
    not os.environ.get("FIGGEN_CORPUS_SOURCES"),
    reason="set FIGGEN_CORPUS_SOURCES to the folder of the arXiv jsonl sources to rebuild",
)
def test_shipped_lists_rebuild_byte_for_byte(tmp_path: Path) -> None:
    from figgen.corpora.build import build_corpora

    folder = Path(os.environ["FIGGEN_CORPUS_SOURCES"])
    sources = [folder / "arxiv_abstracts.jsonl", folder / "arxiv_fulltext_sample.jsonl"]
    build_corpora(sources, tmp_path)

    for name in ("words.txt", "formulas.txt"):
        assert (tmp_path / name).read_text(encoding="utf-8") == _shipped(name), name
