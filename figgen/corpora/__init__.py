"""Word and formula lists from arXiv text, shipped as package data, and the code that builds them."""

from figgen.corpora.lists import formula_counts, formulas, provenance, word_counts, words

__all__ = ["formula_counts", "formulas", "provenance", "word_counts", "words"]
