"""Content words of arXiv titles and abstracts, counted with every source weighted equally."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

EXTRA_STOP_WORDS: frozenset[str] = frozenset(
    {
        # Words of how a paper talks about itself, not of what it is about.
        "using", "used", "use", "uses", "based", "show", "shows", "shown", "paper", "propose",
        "proposed", "proposes", "results", "result", "approach", "approaches", "method",
        "methods", "present", "presented", "presents", "study", "studies", "studied", "work",
        "new", "novel", "introduce", "introduced", "demonstrate", "consider", "obtained",
        "obtain", "given", "provide", "provides", "existing", "respectively", "via",
        "able", "including", "furthermore", "moreover", "recently", "recent", "various",
        "different", "significantly", "particular", "widely", "achieve", "achieves",
        "approx", "et", "al", "i.e", "e.g", "etc", "cf",
        # Web addresses and code hosting.
        "http", "https", "www", "com", "org", "github", "available", "code",
    }
)  # fmt: skip
"""Stop words added to scikit-learn's English list after reading the top of the built list."""

LATEX_REMNANTS: frozenset[str] = frozenset(
    {
        "mathrm", "mathbf", "mathcal", "mathbb", "mathit", "mathsf", "mathtt", "mathfrak",
        "frac", "sqrt", "emph", "textit", "textbf", "textrm", "texttt", "eqref", "cdot",
        "ldots", "cdots", "varepsilon", "varphi", "infty", "hbox", "mbox", "overline", "leq",
        "geq", "neq", "ddot", "textsc", "textsf", "operatorname",
    }
)  # fmt: skip
"""Command names that survive in prose where a backslash or a ``$`` was lost."""

_MATH = re.compile(r"(?<!\\)\$\$.*?(?<!\\)\$\$|(?<!\\)\$.*?(?<!\\)\$", re.DOTALL)
_URL = re.compile(r"(?:https?://|www\.)\S+")
_ACCENT = re.compile(r"\\[^A-Za-z\s]")
_COMMAND = re.compile(r"\\[A-Za-z]+")
_CHUNK = re.compile(r"[A-Za-z0-9_-]+")
_WORD = re.compile(r"[a-z]+(?:-[a-z]+)*")
MIN_WORD_CHARS = 3
MIN_RECORDS = 3


@dataclass
class SourceWords:
    """Content-word counts of one source, and what tokenizing it dropped."""

    records: int = 0
    counts: Counter[str] = field(default_factory=Counter)
    record_counts: Counter[str] = field(default_factory=Counter)
    """In how many records (title plus abstract) each word occurs."""
    stop_words: int = 0
    short: int = 0
    latex_remnants: int = 0

    @property
    def tokens(self) -> int:
        """Content tokens kept: the denominator of this source's word frequencies."""
        return self.counts.total()


def word_tokens(text: str) -> list[str]:
    """Lowercase letter tokens of ``text`` once math, URLs and LaTeX commands are taken out.

    A token is a run of ASCII letters, with internal hyphens allowed (``x-ray``); chunks with
    digits or underscores (``covid-19``, ``h2o``) are not words and are skipped. Accent
    commands are removed so ``Schr\\"odinger`` stays one word.
    """
    text = _MATH.sub(" ", text)
    text = _URL.sub(" ", text)
    text = _ACCENT.sub("", text)
    text = _COMMAND.sub(" ", text)
    text = text.replace("{", "").replace("}", "")
    tokens = []
    for chunk in _CHUNK.findall(text.lower()):
        word = chunk.strip("-")
        if _WORD.fullmatch(word):
            tokens.append(word)
    return tokens


def count_source_words(records: Iterable[str], stop_words: frozenset[str]) -> SourceWords:
    """Count the content words of one source; each record is a title and its abstract."""
    source = SourceWords()
    for text in records:
        source.records += 1
        words = []
        for token in word_tokens(text):
            if len(token) < MIN_WORD_CHARS:
                source.short += 1
            elif token in stop_words:
                source.stop_words += 1
            elif token in LATEX_REMNANTS:
                source.latex_remnants += 1
            else:
                words.append(token)
        source.counts.update(words)
        source.record_counts.update(set(words))
    return source


def weighted_counts(
    sources: Mapping[str, SourceWords], *, min_records: int = MIN_RECORDS
) -> dict[str, int]:
    """Per-million frequency of each word, averaged over sources so each weighs the same.

    ``count(w) = round(1e6 / S * sum_s n_s(w) / N_s)`` with ``S`` sources that have content
    tokens, ``n_s(w)`` the occurrences of ``w`` in source ``s`` and ``N_s`` its content tokens.
    Words found in fewer than ``min_records`` records over all sources are left out: in a small
    source one paper's coinage would otherwise weigh as much as a common word of a large one.
    Sources are summed in name order so the floating-point result is reproducible.
    """
    used = [name for name in sorted(sources) if sources[name].tokens > 0]
    records: Counter[str] = Counter()
    for name in used:
        records.update(sources[name].record_counts)
    scores: dict[str, float] = {}
    for name in used:
        source = sources[name]
        for word, count in source.counts.items():
            if records[word] >= min_records:
                scores[word] = scores.get(word, 0.0) + count / source.tokens
    return {word: round(1e6 * score / len(used)) for word, score in scores.items()}


def top_words(counts: Mapping[str, int], n: int) -> list[tuple[str, int]]:
    """The ``n`` largest counts, ordered by count descending then word."""
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    return ranked[:n]
