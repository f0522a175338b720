"""Titles and axis labels: arXiv words with inline mathtext formulas, as they will be drawn."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

import numpy as np

from figgen.sample.rng import choose, integer

if TYPE_CHECKING:
    from figgen.config.sections.shared import TextConfig


@dataclass(frozen=True)
class Vocabulary:
    words: tuple[str, ...]
    formulas: tuple[str, ...]  # mathtext bodies, without the surrounding $


@cache
def default_vocabulary() -> Vocabulary:
    """The shipped arXiv word and formula lists."""
    from figgen import corpora

    return Vocabulary(words=corpora.words(), formulas=corpora.formulas())


def phrase(
    rng: np.random.Generator,
    vocab: Vocabulary,
    cfg: TextConfig,
    *,
    words: tuple[int, int],
    formula_p: float,
) -> str:
    """A phrase of ``words`` tokens; each token is ``$formula$`` with ``formula_p``."""
    n = integer(rng, words)
    case = choose(rng, cfg.capitalization)
    tokens: list[str] = []
    for position in range(n):
        if rng.random() < formula_p:
            tokens.append(f"${vocab.formulas[int(rng.integers(len(vocab.formulas)))]}$")
            continue
        word = vocab.words[int(rng.integers(len(vocab.words)))]
        if case == "upper":
            word = word.upper()
        elif case == "every" or (case == "first" and position == 0):
            word = word[:1].upper() + word[1:]
        tokens.append(word)
    return " ".join(tokens)


def maybe_title(rng: np.random.Generator, vocab: Vocabulary, cfg: TextConfig) -> str | None:
    if rng.random() >= cfg.title_p:
        return None
    return phrase(rng, vocab, cfg, words=cfg.title_words, formula_p=cfg.title_formula_p)


def maybe_label(rng: np.random.Generator, vocab: Vocabulary, cfg: TextConfig) -> str | None:
    if rng.random() >= cfg.label_p:
        return None
    return phrase(rng, vocab, cfg, words=cfg.label_words, formula_p=cfg.label_formula_p)


def colorbar_label(rng: np.random.Generator, vocab: Vocabulary, cfg: TextConfig) -> str | None:
    if rng.random() >= cfg.colorbar_label_p:
        return None
    return phrase(rng, vocab, cfg, words=cfg.label_words, formula_p=cfg.label_formula_p)
