"""Find ``$...$`` math in arXiv text and keep the snippets usable as one word of a figure label."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

DropReason = Literal[
    "unpaired_delimiters",
    "display",
    "empty",
    "newline",
    "markup",
    "currency",
    "unbalanced_braces",
    "too_long",
    "prose",
    "fragment",
    "plain_number",
    "mathtext_parse",
    "mathtext_render",
]
"""Why a snippet was not kept; the first failing check in this order names it."""

DROP_REASONS: tuple[DropReason, ...] = get_args(DropReason)

TEX_ALIASES: dict[str, str] = {
    "le": r"\leq",
    "ge": r"\geq",
    "lt": "<",
    "gt": ">",
    "tfrac": r"\frac",
    "dfrac": r"\frac",
    "hdots": r"\ldots",
    "mbox": r"\text",
    "textrm": r"\mathrm",
    "textup": r"\mathrm",
    "textbf": r"\mathbf",
    "textit": r"\mathit",
    "textsf": r"\mathsf",
    "texttt": r"\mathtt",
}
"""TeX spellings that mathtext lacks, with the mathtext spelling of the same thing."""

MAX_FORMULA_CHARS = 40
"""Default longest kept snippet, counted on the whitespace-normalized source."""

_ALIAS = re.compile(
    r"\\(" + "|".join(sorted(TEX_ALIASES, key=len, reverse=True)) + r")(?![A-Za-z])"
)
_MARKUP = re.compile(
    r"\\(?:label|ref|eqref|cref|Cref|autoref|cite[a-z]*|begin|end|tag|nonumber|notag|hline"
    r"|item|newline|footnote|url|href|input|include|vspace|hspace|phantom|displaystyle)"
    r"(?![A-Za-z])|\{\{\w+:|\\\\|&"
)
_COMMAND_NAME = re.compile(r"\\[A-Za-z]+")
_PLAIN_WORD = re.compile(r"[A-Za-z]{3,}")
_ALPHANUMERIC = re.compile(r"[A-Za-z0-9]")
_PLAIN_NUMBER = re.compile(r"[\d.,\s]+")
_SPACE_RUN = re.compile(r"\s+")
_SPACE_BEFORE = re.compile(r"(?<!\\) (?=[_^{}()\[\],])")  # not the control space "\ "
_SPACE_AFTER = re.compile(r"(?<=[_^{(\[]) ")
_EDGE_SPACING = re.compile(
    r"^(?:\\[,;:! ]|\\q?quad(?![A-Za-z])|~| )+|(?:\\[,;:! ]|\\q?quad|~| |(?<!\\)[,.;])+$"
)


@dataclass(frozen=True)
class MathSpan:
    """One ``$...$`` (or ``$$...$$``) span of a text, without its delimiters."""

    source: str
    display: bool


@dataclass
class SnippetTally:
    """Kept snippets with their occurrence and document counts, and the dropped occurrences."""

    kept: Counter[str] = field(default_factory=Counter)
    documents: Counter[str] = field(default_factory=Counter)
    """In how many documents (a paper, or an abstract record) each kept snippet occurs."""
    dropped: Counter[DropReason] = field(default_factory=Counter)
    aliased: int = 0

    @property
    def seen(self) -> int:
        """Number of snippet occurrences looked at."""
        return self.kept.total() + self.dropped.total()


def find_math(text: str) -> tuple[list[MathSpan], bool]:
    """Split out the math spans of ``text``; the flag is False when the delimiters do not pair up.

    ``\\$`` is an escaped dollar (currency), not a delimiter. A single-dollar span that sits on
    a line of its own is the unarXive rendering of a display equation and is marked ``display``.
    """
    delimiters: list[tuple[int, int]] = []  # (position, width 1 or 2)
    i = 0
    while i < len(text):
        char = text[i]
        if char == "\\":
            i += 2
            continue
        if char == "$":
            width = 2 if text.startswith("$$", i) else 1
            delimiters.append((i, width))
            i += width
            continue
        i += 1
    paired = len(delimiters) % 2 == 0
    spans = []
    for (start, width), (end, end_width) in zip(delimiters[::2], delimiters[1::2], strict=False):
        if width != end_width:
            paired = False
        source = text[start + width : end]
        on_own_line = _starts_line(text, start) and _ends_line(text, end + end_width)
        spans.append(MathSpan(source=source, display=width == 2 or on_own_line))
    return spans, paired


def _starts_line(text: str, position: int) -> bool:
    before = text[:position].rstrip(" \t")
    return before == "" or before.endswith("\n")


def _ends_line(text: str, position: int) -> bool:
    after = text[position:].lstrip(" \t")
    return after == "" or after.startswith("\n")


def normalize_snippet(source: str) -> str:
    """Collapse whitespace that TeX math ignores, so equal formulas compare equal.

    Spacing commands at either end and punctuation at the end (``x_i,``) go too: they belong
    to the sentence around the formula.
    """
    snippet = _SPACE_RUN.sub(" ", source).strip()
    snippet = _SPACE_BEFORE.sub("", snippet)
    snippet = _SPACE_AFTER.sub("", snippet)
    return _EDGE_SPACING.sub("", snippet)


def apply_tex_aliases(snippet: str) -> str:
    """Rewrite the commands of :data:`TEX_ALIASES` to their mathtext spelling."""
    return _ALIAS.sub(lambda match: TEX_ALIASES[match.group(1)], snippet)


def braces_balanced(snippet: str) -> bool:
    """True when every unescaped ``{`` closes and no ``}`` closes nothing."""
    depth = 0
    i = 0
    while i < len(snippet):
        char = snippet[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0:
                return False
        i += 1
    return depth == 0


def plain_word_count(snippet: str) -> int:
    """Runs of three or more letters outside braces that are not command names.

    Two of them mean English text caught between two currency dollars, not a formula;
    words inside braces (``\\text{train loss}``) belong to a command and do not count.
    """
    outside = []
    depth = 0
    for char in _COMMAND_NAME.sub(" ", snippet):
        if char == "{":
            depth += 1
        elif char == "}":
            depth = max(depth - 1, 0)
        outside.append(char if depth == 0 else " ")
    return len(_PLAIN_WORD.findall("".join(outside)))


def text_check(span: MathSpan, *, max_chars: int) -> tuple[str, DropReason | None]:
    """Normalize one span and run the checks that need no matplotlib.

    Returns:
        The normalized snippet and the reason it is dropped, or ``None`` if it passes.
    """
    if span.display:
        return span.source, "display"
    snippet = normalize_snippet(span.source)
    if not snippet:
        return snippet, "empty"
    if "\n" in span.source:
        return snippet, "newline"
    if _MARKUP.search(snippet):
        return snippet, "markup"
    if "\\$" in snippet:
        return snippet, "currency"
    if not braces_balanced(snippet):
        return snippet, "unbalanced_braces"
    if len(snippet) > max_chars:
        return snippet, "too_long"
    if plain_word_count(snippet) >= 2:
        return snippet, "prose"
    if snippet[0] in "_^" or not _ALPHANUMERIC.search(snippet):
        return snippet, "fragment"
    if _PLAIN_NUMBER.fullmatch(snippet):
        return snippet, "plain_number"
    return snippet, None


def tally_snippets(
    documents: Iterable[Sequence[str]], *, max_chars: int = MAX_FORMULA_CHARS
) -> SnippetTally:
    """Count every math span of the documents' texts as kept or dropped by the text checks.

    A document is the list of texts of one paper (its paragraphs) or one abstract record (title
    and abstract). The kept snippets still have to pass the mathtext checks of
    :mod:`figgen.corpora.mathtext_check`.
    """
    tally = SnippetTally()
    for texts in documents:
        found: set[str] = set()
        for text in texts:
            spans, paired = find_math(text)
            for span in spans:
                if not paired:
                    tally.dropped["unpaired_delimiters"] += 1
                    continue
                snippet, reason = text_check(span, max_chars=max_chars)
                if reason is None:
                    formula = apply_tex_aliases(snippet)
                    tally.aliased += formula != snippet
                    tally.kept[formula] += 1
                    found.add(formula)
                else:
                    tally.dropped[reason] += 1
        tally.documents.update(found)
    return tally
