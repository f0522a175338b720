"""Word and formula lists from arXiv text, shipped as package data, and their builder."""

from figgen.corpora.lists import formula_counts, formulas, provenance, word_counts, words

__all__ = ["formula_counts", "formulas", "provenance", "word_counts", "words"]
