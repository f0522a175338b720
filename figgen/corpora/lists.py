"""The shipped word and formula lists, read once from package data."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Literal

from figgen.corpora.listfile import CountedList, parse_list

WORDS_RESOURCE = "words.txt"
FORMULAS_RESOURCE = "formulas.txt"


@cache
def _load(name: str) -> CountedList:
    text = resources.files("figgen.corpora").joinpath("data", name).read_text(encoding="utf-8")
    return parse_list(text)


@cache
def words() -> tuple[str, ...]:
    """The content words of arXiv titles and abstracts, most frequent first."""
    return _load(WORDS_RESOURCE).items


@cache
def formulas() -> tuple[str, ...]:
    """Inline math from arXiv text, without ``$``, most used first; wrap in ``$...$`` to draw."""
    return _load(FORMULAS_RESOURCE).items


@cache
def word_counts() -> Mapping[str, int]:
    """Each word's weighted frequency per million content tokens (see the file header)."""
    return MappingProxyType(dict(_load(WORDS_RESOURCE).entries))


@cache
def formula_counts() -> Mapping[str, int]:
    """Each formula's number of source documents (papers and abstract records) that use it."""
    return MappingProxyType(dict(_load(FORMULAS_RESOURCE).entries))


def provenance(kind: Literal["words", "formulas"]) -> tuple[str, ...]:
    """The provenance header lines of the ``"words"`` or ``"formulas"`` list, without ``#``."""
    names = {"words": WORDS_RESOURCE, "formulas": FORMULAS_RESOURCE}
    if kind not in names:
        raise ValueError(f"kind must be 'words' or 'formulas', not {kind!r}")
    return _load(names[kind]).header
