"""Build ``words.txt`` and ``formulas.txt`` from arXiv jsonl source files."""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from figgen.corpora.listfile import format_list
from figgen.corpora.math_snippets import (
    DROP_REASONS,
    MAX_FORMULA_CHARS,
    TEX_ALIASES,
    DropReason,
    tally_snippets,
)
from figgen.corpora.sources import FULLTEXT_SOURCE, AbstractRecord, Corpus, read_sources
from figgen.corpora.vocabulary import (
    EXTRA_STOP_WORDS,
    LATEX_REMNANTS,
    MIN_RECORDS,
    MIN_WORD_CHARS,
    SourceWords,
    count_source_words,
    top_words,
    weighted_counts,
)
from figgen.store.storage import atomic_write_text

logger = logging.getLogger(__name__)

WORDS_FILE = "words.txt"
FORMULAS_FILE = "formulas.txt"
N_WORDS = 1000
MAX_FORMULAS = 1000
"""Formula cap: the shipped list stays small enough to parse every entry in a quick test."""


@dataclass(frozen=True)
class WordList:
    """The word list ready to write: header lines and ``(word, count)`` entries."""

    header: list[str]
    entries: list[tuple[str, int]]


@dataclass(frozen=True)
class FormulaList:
    """The formula list ready to write, with what the checks dropped."""

    header: list[str]
    entries: list[tuple[str, int]]
    drops: dict[DropReason, int]
    """Dropped snippet occurrences by reason."""
    over_cap: int
    """Distinct good formulas left out because the list was full."""


@dataclass(frozen=True)
class BuildSummary:
    """What a build wrote and what it dropped."""

    words_path: Path
    formulas_path: Path
    words: int
    formulas: int
    formula_drops: dict[DropReason, int]
    """Dropped snippet occurrences by reason."""
    over_cap: int
    """Distinct good formulas left out because the list was full."""


def build_corpora(
    paths: Sequence[Path],
    out_dir: Path,
    *,
    n_words: int = N_WORDS,
    max_formulas: int = MAX_FORMULAS,
    max_formula_chars: int = MAX_FORMULA_CHARS,
) -> BuildSummary:
    """Read the source files and write both lists into ``out_dir``; same inputs, same bytes.

    Raises:
        FiggenError: a source file is missing, unreadable or malformed.
    """
    corpus = read_sources(paths)
    words = word_list(corpus, n_words=n_words)
    formulas = formula_list(corpus, max_formulas=max_formulas, max_chars=max_formula_chars)
    words_path = out_dir / WORDS_FILE
    formulas_path = out_dir / FORMULAS_FILE
    words_path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(words_path, format_list(words.header, words.entries))
    atomic_write_text(formulas_path, format_list(formulas.header, formulas.entries))
    logger.info("wrote %d words to %s and %d formulas to %s",
                len(words.entries), words_path, len(formulas.entries), formulas_path)  # fmt: skip
    return BuildSummary(
        words_path=words_path,
        formulas_path=formulas_path,
        words=len(words.entries),
        formulas=len(formulas.entries),
        formula_drops=formulas.drops,
        over_cap=formulas.over_cap,
    )


def word_list(corpus: Corpus, *, n_words: int) -> WordList:
    """The ``n_words`` most frequent content words; every source of abstracts weighs the same."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    stop_words = frozenset(ENGLISH_STOP_WORDS) | EXTRA_STOP_WORDS
    records_by_source: dict[str, list[AbstractRecord]] = {}
    for record in corpus.abstracts:
        records_by_source.setdefault(record.source, []).append(record)
    sources: dict[str, SourceWords] = {}
    for name, records in sorted(records_by_source.items()):
        texts = [f"{record.title}\n{record.abstract}" for record in records]
        sources[name] = count_source_words(texts, stop_words)
    entries = top_words(weighted_counts(sources), n_words)
    used = [name for name in sorted(sources) if sources[name].tokens > 0]
    header = [
        f"figgen word list: the {len(entries)} most frequent content words of arXiv titles "
        "and abstracts",
        "built by `figgen corpora build` from:",
        *_file_lines(corpus),
        f"word sources (the `source` field of the records): {len(used)}",
    ]
    for name in sorted(sources):
        source = sources[name]
        header += [
            f"  {name}: {source.records} records, {source.tokens} content tokens; dropped",
            f"    {source.stop_words} stop words, {source.short} shorter than {MIN_WORD_CHARS} "
            f"letters, {source.latex_remnants} LaTeX remnants",
        ]
    header += [
        "weighting: every source weighs the same however many records it has, so a large",
        "  sample of one field does not crowd out the others;",
        "  count = round(1e6 / S * sum over sources s of n_s(word) / N_s), the per-million",
        f"  frequency averaged over the S={len(used)} sources (N_s = content tokens of s)",
        f"  a word must occur in at least {MIN_RECORDS} records (title plus abstract) over all",
        "  sources, so one paper's coinage in a small source does not make the list",
        "  full-text paragraphs are not a word source: the list is of titles and abstracts",
        "tokens: math ($...$), URLs and LaTeX commands removed; lowercase ASCII letter runs,",
        f"  internal hyphens allowed, at least {MIN_WORD_CHARS} letters; chunks with digits "
        "skipped",
        f"stop words: scikit-learn ENGLISH_STOP_WORDS ({len(ENGLISH_STOP_WORDS)}) plus figgen's "
        f"{len(EXTRA_STOP_WORDS)}:",
        *_wrapped(sorted(EXTRA_STOP_WORDS)),
        f"LaTeX remnants dropped ({len(LATEX_REMNANTS)}):",
        *_wrapped(sorted(LATEX_REMNANTS)),
        "format: <count>\\t<word>, sorted by count descending then word",
    ]
    return WordList(header=header, entries=entries)


def formula_list(corpus: Corpus, *, max_formulas: int, max_chars: int) -> FormulaList:
    """Up to ``max_formulas`` inline math snippets that mathtext parses and draws.

    Snippets that pass the text checks are ranked by the number of documents that use them,
    then by occurrences, then by the SHA-256 of the formula (a fixed pseudo-random order);
    all are parsed, and in rank order they are drawn until the list holds ``max_formulas``.
    """
    from figgen.corpora.mathtext_check import MATHTEXT_FONTSETS, MathtextChecker

    documents = [[record.title, record.abstract] for record in corpus.abstracts]
    documents += [paper.paragraphs for paper in corpus.papers]
    tally = tally_snippets(documents, max_chars=max_chars)
    ranked = sorted(
        tally.documents,
        key=lambda snippet: (-tally.documents[snippet], -tally.kept[snippet], _sha256(snippet)),
    )
    checker = MathtextChecker()
    parse_failed = [snippet for snippet in ranked if not checker.parses(snippet)]
    failed = set(parse_failed)
    drops = Counter(tally.dropped)
    drops["mathtext_parse"] = sum(tally.kept[snippet] for snippet in parse_failed)
    render_failed: list[str] = []
    kept: list[str] = []
    over_cap: list[str] = []
    for snippet in ranked:
        if snippet in failed:
            continue
        if len(kept) >= max_formulas:
            over_cap.append(snippet)
        elif checker.draws(snippet):
            kept.append(snippet)
        else:
            render_failed.append(snippet)
    drops["mathtext_render"] = sum(tally.kept[snippet] for snippet in render_failed)
    drop_counts = {reason: drops[reason] for reason in DROP_REASONS}
    for reason, count in drop_counts.items():
        logger.info("formula snippets dropped as %s: %d", reason, count)
    logger.info("formulas kept: %d distinct; %d more passed but the list was full",
                len(kept), len(over_cap))  # fmt: skip

    header = [
        f"figgen formula list: {len(kept)} inline math snippets from arXiv text, without their $",
        "built by `figgen corpora build` from:",
        *_file_lines(corpus),
        f"texts searched: titles and abstracts of {len(corpus.abstracts)} records, "
        f"{sum(len(paper.paragraphs) for paper in corpus.papers)} paragraphs of "
        f"{len(corpus.papers)} full-text papers",
        *_licence_lines(corpus),
        "checks, in order; the first that fails names the drop reason:",
        "  unpaired_delimiters (a text whose $ do not pair up), display (equation on its own",
        "  line or $$...$$), empty, newline, markup (\\label \\ref \\cite \\begin, \\\\, &,",
        "  {{cite:..}} and the like), currency (\\$), unbalanced_braces,",
        f"  too_long (over {max_chars} characters after whitespace is normalized), prose (two or",
        "  more plain words outside braces), fragment (starts with _ or ^, or has no letter or",
        "  digit), plain_number, mathtext_parse (matplotlib's mathtext cannot parse it),",
        "  mathtext_render (drawing it in an Agg figure errs or warns in any of the fontsets",
        f"  {', '.join(MATHTEXT_FONTSETS)})",
        f"TeX spellings mathtext lacks, rewritten before the mathtext checks ({tally.aliased} "
        "occurrences):",
        *_wrapped([f"\\{name} -> {target}" for name, target in TEX_ALIASES.items()]),
        f"math spans seen: {tally.seen}; passed the text checks: {len(ranked)} distinct "
        f"({tally.kept.total()} occurrences)",
        "dropped occurrences by reason:",
        *(f"  {reason}: {count}" for reason, count in drop_counts.items()),
        f"  (mathtext_parse: {len(parse_failed)} distinct; "
        f"mathtext_render: {len(render_failed)} distinct)",
        f"kept: {len(kept)} distinct ({sum(tally.kept[snippet] for snippet in kept)} "
        f"occurrences); cap {max_formulas}",
        f"over the cap: {len(over_cap)} distinct good formulas "
        f"({sum(tally.kept[snippet] for snippet in over_cap)} occurrences) not drawn or kept;",
        "  rank: documents descending, then occurrences, then the SHA-256 of the formula",
        "format: <count>\\t<formula>, count = documents (papers and abstract records) that use",
        "  the formula; sorted by count descending then formula",
    ]
    entries = [(snippet, tally.documents[snippet]) for snippet in kept]
    return FormulaList(header=header, entries=entries, drops=drop_counts, over_cap=len(over_cap))


def _file_lines(corpus: Corpus) -> list[str]:
    return [
        f"  {source.name} (sha256 {source.sha256[:16]}): {source.abstracts} abstract records, "
        f"{source.papers} full-text papers"
        for source in corpus.files
    ]


def _licence_lines(corpus: Corpus) -> list[str]:
    if not corpus.papers:
        return []
    licences = Counter(paper.license or "unknown" for paper in corpus.papers)
    lines = [f"full-text paper licences ({FULLTEXT_SOURCE}):"]
    lines += [
        f"  {count} {licence}"
        for licence, count in sorted(licences.items(), key=lambda entry: (-entry[1], entry[0]))
    ]
    return lines


def _wrapped(words: Sequence[str], width: int = 90) -> list[str]:
    lines: list[str] = []
    line = ""
    for word in words:
        if line and len(line) + 2 + len(word) > width:
            lines.append(f"  {line},")
            line = word
        else:
            line = f"{line}, {word}" if line else word
    if line:
        lines.append(f"  {line}")
    return lines


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()
