"""Tokenizing titles and abstracts and weighting the sources."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from figgen.corpora.vocabulary import (
    SourceWords,
    count_source_words,
    top_words,
    weighted_counts,
    word_tokens,
)


@pytest.mark.parametrize(
    ("text", "tokens"),
    [
        ("Deep Learning for X-Ray images", ["deep", "learning", "for", "x-ray", "images"]),
        ("the $(k,\\ell)$-pebble game", ["the", "pebble", "game"]),
        ('Schr\\"odinger and {\\"o}ber', ["schrodinger", "and", "ober"]),
        ("\\emph{sparse} codes", ["sparse", "codes"]),
        ("COVID-19 h2o 3D co-2", []),
        ("see https://github.com/a/b and www.x.org", ["see", "and"]),
        ("state-of-the-art -- results", ["state-of-the-art", "results"]),
    ],
)
def test_word_tokens(text: str, tokens: list[str]) -> None:
    assert word_tokens(text) == tokens


def test_count_source_words_sorts_out_tokens() -> None:
    source = count_source_words(["The galaxy of mathrm galaxies ab", "galaxy"], frozenset({"the"}))

    assert source.counts == {"galaxy": 2, "galaxies": 1}
    assert source.record_counts == {"galaxy": 2, "galaxies": 1}
    assert (source.records, source.stop_words, source.short, source.latex_remnants) == (2, 1, 2, 1)
    assert source.tokens == 3


_counts = st.dictionaries(st.sampled_from(["aaa", "bbb", "ccc", "ddd"]), st.integers(1, 50))


@given(st.lists(_counts, min_size=1, max_size=4))
def test_weighted_counts_match_exact_fractions(per_source: list[dict[str, int]]) -> None:
    sources = {}
    for index, counts in enumerate(per_source):
        source = SourceWords()
        source.counts.update(counts)
        source.record_counts.update({word: 3 for word in counts})  # every word clears the floor
        sources[f"s{index}"] = source
    used = [counts for counts in per_source if counts]

    weighted = weighted_counts(sources)

    expected = {}
    for word in {word for counts in used for word in counts}:
        share = sum(Fraction(c.get(word, 0), sum(c.values())) for c in used) / len(used)
        expected[word] = share * 1_000_000
    assert weighted.keys() == expected.keys()
    for word, exact in expected.items():
        assert abs(weighted[word] - exact) <= Fraction(1, 2) + Fraction(1, 10**6)
    if used:
        assert abs(sum(weighted.values()) - 1_000_000) <= len(expected)


def test_weighted_counts_need_enough_records() -> None:
    rare = SourceWords()
    rare.counts.update({"common": 5, "coinage": 9})
    rare.record_counts.update({"common": 2, "coinage": 1})
    other = SourceWords()
    other.counts.update({"common": 1})
    other.record_counts.update({"common": 1})

    weighted = weighted_counts({"a": rare, "b": other}, min_records=3)

    # common: 3 records; (5/14 + 1/1) / 2 of a million. coinage: 1 record, left out.
    assert weighted == {"common": round(1e6 * (5 / 14 + 1) / 2)}


def test_top_words_breaks_ties_by_word() -> None:
    assert top_words({"b": 2, "a": 2, "c": 3, "d": 1}, 3) == [("c", 3), ("a", 2), ("b", 2)]
