"""Figure text as a screen reader should say it: inline LaTeX turned into words and Unicode.

pylatexenc's ``LatexNodes2Text`` does the conversion; its context is extended where it leaves
symbols a reader would hear as noise: sub- and superscripts ("x sub i", "r squared"), font
commands that it maps to mathematical alphanumerics (``\\mathcal{I}`` -> "script I", which most
screen readers skip or spell out), accents that become combining marks ("p tilde") and a
backslash. The record keeps the raw LaTeX; only descriptions are spoken.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any

from pylatexenc import latex2text as l2t
from pylatexenc import latexwalker as lw
from pylatexenc import macrospec as ms

from figgen.words.math_words import symbols_to_words

_FONTS = {
    "mathcal": "script ",
    "mathscr": "script ",
    "mathbb": "double-struck ",
    "mathbf": "bold ",
    "boldsymbol": "bold ",
    "bm": "bold ",
    "mathfrak": "fraktur ",
    "mathrm": "",
    "mathit": "",
    "mathsf": "",
    "mathtt": "",
    "mathnormal": "",
    "mathdefault": "",
    "operatorname": "",
    "text": "",
    "textrm": "",
}
_AFTER = {  # accents read after their letter
    "hat": " hat",
    "widehat": " hat",
    "bar": " bar",
    "overline": " bar",
    "tilde": " tilde",
    "widetilde": " tilde",
    "dot": " dot",
    "ddot": " double dot",
    "underline": "",
}
_BEFORE = {"vec": "vector ", "sqrt": "square root of "}
_SYMBOLS = {"backslash": " set minus ", "setminus": " set minus ", "prime": " prime "}
_POWERS = {"2": "squared", "3": "cubed", "'": "prime", "prime": "prime", "*": "star", "∗": "star"}
_LEFTOVER = re.compile(r"[\\$_^{}]")
_BARE_SCRIPT = re.compile(r"([_^])\s*(\\[A-Za-z]+\s*\{[^{}]*\})")


def _script_text(node: Any, l2tobj: Any) -> str:
    """The text of a node's argument; empty where the parser found none (``_\\mathrm``)."""
    args = [a for a in (node.nodeargd.argnlist if node.nodeargd else []) if a is not None]
    return str(l2tobj.nodelist_to_text(args)).strip()


def _around(before: str, after: str) -> Any:
    def text(node: Any, l2tobj: Any) -> str:
        return f" {before}{_script_text(node, l2tobj)}{after} "

    return text


def _subscript(node: Any, l2tobj: Any) -> str:
    index = _script_text(node, l2tobj)
    return f" sub {index} " if index else " "


def _superscript(node: Any, l2tobj: Any) -> str:
    power = _script_text(node, l2tobj)
    if not power:
        return " "
    named = _POWERS.get(power)
    return f" {named} " if named else f" to the power {power} "


@lru_cache(maxsize=1)
def _contexts() -> tuple[Any, Any]:
    """(parser context, text context): pylatexenc's defaults with figgen's spoken names."""
    one_arg = ms.MacroStandardArgsParser("{")
    walker = lw.get_default_latex_context_db()
    walker.add_context_category(
        "figgen-spoken",
        macros=[ms.MacroSpec(name, "{") for name in (*_FONTS, *_AFTER, *_BEFORE)],
        specials=[
            ms.SpecialsSpec("_", args_parser=one_arg),
            ms.SpecialsSpec("^", args_parser=one_arg),
        ],
        prepend=True,
    )
    text = l2t.get_default_latex_context_db()
    text.add_context_category(
        "figgen-spoken",
        macros=[l2t.MacroTextSpec(name, _around(word, "")) for name, word in _FONTS.items()]
        + [l2t.MacroTextSpec(name, _around("", word)) for name, word in _AFTER.items()]
        + [l2t.MacroTextSpec(name, _around(word, "")) for name, word in _BEFORE.items()]
        + [l2t.MacroTextSpec(name, word) for name, word in _SYMBOLS.items()],
        specials=[
            l2t.SpecialsTextSpec("_", _subscript),
            l2t.SpecialsTextSpec("^", _superscript),
            l2t.SpecialsTextSpec("~", " "),
        ],
        prepend=True,
    )
    converter = l2t.LatexNodes2Text(latex_context=text, math_mode="text", strict_latex_spaces=False)
    return walker, converter


@lru_cache(maxsize=8192)
def spoken(text: str) -> str:
    """``text`` with its inline LaTeX read out: "$\\mathcal{I}_2$ flux" -> "script I sub 2 flux".

    The result holds only letters, digits, spaces and punctuation: symbols are read as words
    (:mod:`figgen.words.math_words`); whitespace is collapsed.
    """
    if not _LEFTOVER.search(text):
        return symbols_to_words(" ".join(text.split()))
    walker_context, converter = _contexts()
    escaped = re.sub(r"(?<!\\)%", r"\\%", text)  # a bare % would start a LaTeX comment
    escaped = _BARE_SCRIPT.sub(r"\1{\2}", escaped)  # "_\mathrm{c}": the script is all of it
    try:
        nodes, _, _ = lw.LatexWalker(
            escaped, latex_context=walker_context, tolerant_parsing=True
        ).get_latex_nodes()
        plain = str(converter.nodelist_to_text(nodes))
    except lw.LatexWalkerError:  # tolerant parsing still refuses some input: keep the letters
        plain = text
    plain = _LEFTOVER.sub(" ", plain.replace("\N{NO-BREAK SPACE}", " "))
    # an accent pylatexenc left as a combining mark on nothing it could join is not read
    plain = "".join(
        c for c in unicodedata.normalize("NFC", plain) if unicodedata.category(c) != "Mn"
    )
    plain = symbols_to_words(" ".join(plain.split()))
    return re.sub(r"\( ", "(", re.sub(r" ([),;:])", r"\1", plain))


def quoted(text: str) -> str:
    """A title or label as a description quotes it: spoken, in double quotes."""
    return f'"{spoken(text)}"'
