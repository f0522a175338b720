"""A build from the tiny fixture gives the counts worked out by hand below."""

from __future__ import annotations

from pathlib import Path

import pytest

from figgen.corpora.build import build_corpora
from figgen.corpora.listfile import parse_list

# Word counts by hand (stop words, short tokens, math, URLs, digit chunks and LaTeX remnants out):
#   cs-ml-sample, 3 records:
#     r1 "Neural galaxy" + "Neural neural galaxy using the x-ray."  -> neural 3, galaxy 2, x-ray 1
#     r2 "Neural spectra" + "Spectra $\alpha_1$ ab mathrm covid-19 https://..."
#                                                                   -> neural 1, spectra 2
#     r3 "Galaxy" + "Neural spectra."                      -> galaxy 1, neural 1, spectra 1
#     totals: neural 5, galaxy 3, spectra 3, x-ray 1; N = 12 content tokens
#   astro-ph-sample, 1 record:
#     r4 "Galaxy lensing" + 'Galaxy spectra of Schr\"odinger lensing.'
#                                         -> galaxy 2, lensing 2, spectra 1, schrodinger 1; N = 6
#   records per word: neural 3, galaxy 3, spectra 3; x-ray, lensing, schrodinger 1 (< 3: out)
#   weighted (S = 2 sources): neural  1e6 * (5/12 + 0/6) / 2 = 208333.3 -> 208333
#                             galaxy  1e6 * (3/12 + 2/6) / 2 = 291666.7 -> 291667
#                             spectra 1e6 * (3/12 + 1/6) / 2 = 208333.3 -> 208333
#   Unweighted, galaxy and neural would tie at 5; the small source's galaxies break the tie.
EXPECTED_WORDS = [("galaxy", 291667), ("neural", 208333), ("spectra", 208333)]

# Formulas by hand: documents are r1..r4 and the paper.
#   \alpha_1: r2 once, paper twice ("\alpha _1" normalizes to it) -> 2 documents
#   x^{2}: paper ("$x^{2}$ ," keeps no trailing comma)             -> 1
#   \le 1 rewritten to \leq 1                                      -> 1
#   \text{\rm tr}: parses, but mathtext warns of a missing glyph when drawing -> mathtext_render
EXPECTED_FORMULAS = [(r"\alpha_1", 2), (r"\leq 1", 1), ("x^{2}", 1)]
EXPECTED_DROPS = {
    "unpaired_delimiters": 1,  # "Odd $x$ and $y here." has three $
    "display": 2,  # "$E = mc^2 .$" on its own line, and "$$y = 1$$"
    "empty": 1,  # "$ $"
    "newline": 1,  # "$a +\nb$"
    "markup": 1,  # "$\label{eq}x$"
    "currency": 1,  # "$\$250$"
    "unbalanced_braces": 1,  # "$\frac{1}{2$"
    "too_long": 1,  # 49 characters
    "prose": 1,  # "$5 million and $"
    "fragment": 1,  # "$_2$"
    "plain_number": 1,  # "$3.5$"
    "mathtext_parse": 1,  # "$\foo_1$"
    "mathtext_render": 1,  # "$\text{\rm tr}$"
}


def test_build_gives_hand_computed_counts(tiny_sources: list[Path], tmp_path: Path) -> None:
    summary = build_corpora(tiny_sources, tmp_path)

    words = parse_list((tmp_path / "words.txt").read_text(encoding="utf-8"))
    formulas = parse_list((tmp_path / "formulas.txt").read_text(encoding="utf-8"))
    assert list(words.entries) == EXPECTED_WORDS
    assert list(formulas.entries) == EXPECTED_FORMULAS
    assert summary.formula_drops == EXPECTED_DROPS
    assert (summary.words, summary.formulas, summary.over_cap) == (3, 3, 0)
    for reason, count in EXPECTED_DROPS.items():
        assert f"  {reason}: {count}" in formulas.header


def test_headers_record_provenance(tiny_sources: list[Path], tmp_path: Path) -> None:
    build_corpora(tiny_sources, tmp_path)

    words = parse_list((tmp_path / "words.txt").read_text(encoding="utf-8"))
    formulas = parse_list((tmp_path / "formulas.txt").read_text(encoding="utf-8"))
    words_header = "\n".join(words.header)
    assert "tiny_abstracts.jsonl" in words_header
    assert "cs-ml-sample: 3 records, 12 content tokens" in words_header
    assert "astro-ph-sample: 1 records, 6 content tokens" in words_header
    assert "every source weighs the same" in words_header
    formulas_header = "\n".join(formulas.header)
    assert "tiny_fulltext.jsonl" in formulas_header
    assert "1 http://creativecommons.org/licenses/by/4.0/" in formulas_header
    assert "mathtext checks (1 occurrences):" in formulas_header
    assert str(tmp_path) not in words_header + formulas_header  # no machine-specific paths


def test_word_cap_keeps_the_top_words(tiny_sources: list[Path], tmp_path: Path) -> None:
    summary = build_corpora(tiny_sources, tmp_path, n_words=2)

    words = parse_list((tmp_path / "words.txt").read_text(encoding="utf-8"))
    assert list(words.entries) == EXPECTED_WORDS[:2]
    assert summary.words == 2


def test_formula_cap_leaves_the_rest_undrawn(tiny_sources: list[Path], tmp_path: Path) -> None:
    summary = build_corpora(tiny_sources, tmp_path, max_formulas=1)

    formulas = parse_list((tmp_path / "formulas.txt").read_text(encoding="utf-8"))
    assert list(formulas.entries) == [(r"\alpha_1", 2)]
    # \leq 1, x^{2} and \text{\rm tr} were ranked below the cap, so nothing was drawn to fail.
    assert summary.over_cap == 3
    assert summary.formula_drops["mathtext_render"] == 0


def test_shorter_formula_limit_drops_more(tiny_sources: list[Path], tmp_path: Path) -> None:
    summary = build_corpora(tiny_sources, tmp_path, max_formula_chars=5)

    formulas = parse_list((tmp_path / "formulas.txt").read_text(encoding="utf-8"))
    # Lengths count the source before TeX aliases: "\le 1" (5) and "x^{2}" (5) stay. Too long now:
    # the 49-character snippet, three "\alpha_1" (8), "\text{\rm tr}" (13), and, as the length
    # check comes before them, the prose "5 million and" (13) and the unparsable "\foo_1" (6).
    assert list(formulas.entries) == [(r"\leq 1", 1), ("x^{2}", 1)]
    assert summary.formula_drops == EXPECTED_DROPS | {
        "too_long": 1 + 3 + 1 + 1 + 1,
        "prose": 0,
        "mathtext_parse": 0,
        "mathtext_render": 0,
    }


def test_build_is_deterministic(tiny_sources: list[Path], tmp_path: Path) -> None:
    build_corpora(tiny_sources, tmp_path / "first")
    build_corpora(tiny_sources, tmp_path / "second")

    for name in ("words.txt", "formulas.txt"):
        first = (tmp_path / "first" / name).read_bytes()
        assert first == (tmp_path / "second" / name).read_bytes()


def test_build_overwrites_without_leftovers(tiny_sources: list[Path], tmp_path: Path) -> None:
    (tmp_path / "words.txt").write_text("stale\n", encoding="utf-8")

    build_corpora(tiny_sources, tmp_path)

    assert sorted(path.name for path in tmp_path.iterdir()) == ["formulas.txt", "words.txt"]
    assert "stale" not in (tmp_path / "words.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("order", [(0, 1), (1, 0)])
def test_source_order_does_not_change_the_entries(
    tiny_sources: list[Path], tmp_path: Path, order: tuple[int, int]
) -> None:
    build_corpora([tiny_sources[index] for index in order], tmp_path)

    words = parse_list((tmp_path / "words.txt").read_text(encoding="utf-8"))
    formulas = parse_list((tmp_path / "formulas.txt").read_text(encoding="utf-8"))
    assert list(words.entries) == EXPECTED_WORDS
    assert list(formulas.entries) == EXPECTED_FORMULAS
