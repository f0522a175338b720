"""Mathematical symbols as words, so a screen reader says "alpha in the interval" not "α ∈".

:mod:`figgen.words.spoken` turns LaTeX into Unicode text; this module then replaces every
character a listener would hear spelled out, or not at all, by words: Greek letters by their
names ("capital delta"), relations and operators by how they are read ("less than or equal
to"), and any other symbol by its Unicode name. What is left is letters, digits, spaces and
punctuation.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

SYMBOL_WORDS = {
    "=": "equals",
    "+": "plus",
    "\u2212": "minus",
    "<": "less than",
    ">": "greater than",
    "\u2264": "less than or equal to",
    "\u2265": "greater than or equal to",
    "\u2272": "less than about",
    "\u2273": "greater than about",
    "\u226a": "much less than",
    "\u226b": "much greater than",
    "\u2260": "not equal to",
    "\u2248": "approximately",
    "\u2243": "approximately",
    "\u2245": "approximately",
    "\u223c": "of order",
    "~": "of order",
    "\u221d": "proportional to",
    "\u2261": "identical to",
    "\u2208": "in",
    "\u2209": "not in",
    "\u220b": "contains",
    "\u2282": "subset of",
    "\u2283": "superset of",
    "\u2286": "subset of or equal to",
    "\u2287": "superset of or equal to",
    "\u2291": "square subset of or equal to",
    "\u2229": "intersection",
    "\u222a": "union",
    "\u2205": "empty set",
    "\u2200": "for all",
    "\u2203": "there exists",
    "\u00ac": "not",
    "\u2227": "and",
    "\u2228": "or",
    "\u2192": "to",
    "\u27f6": "to",
    "\u2190": "from",
    "\u21d2": "implies",
    "\u27f9": "implies",
    "\u21d4": "if and only if",
    "\u2194": "to and from",
    "\u21a6": "maps to",
    "\u2191": "up",
    "\u2193": "down",
    "\u00d7": "times",
    "\u22c5": "dot",
    "\u00b7": "dot",
    "\u2219": "dot",
    "\u2022": "dot",
    "*": "star",
    "\u2217": "star",
    "\u2218": "composed with",
    "\u2297": "tensor",
    "\u2295": "direct sum",
    "\u2299": "circle dot",
    "\u22a0": "box times",
    "\u00f7": "divided by",
    "/": "over",
    "\u00b1": "plus or minus",
    "\u2213": "minus or plus",
    "\u221e": "infinity",
    "\u2202": "partial",
    "\u2207": "nabla",
    "\u2211": "sum",
    "\u220f": "product",
    "\u222b": "integral",
    "\u222e": "contour integral",
    "\u221a": "square root of",
    "\u2113": "ell",
    "\u210f": "h bar",
    "\u0127": "h bar",
    "\u2135": "aleph",
    "\u2026": "dot dot dot",
    "\u22ef": "dot dot dot",
    "|": "bar",
    "\u2016": "norm",
    "\u27e8": "angle bracket",
    "\u27e9": "close angle bracket",
    "\u2329": "angle bracket",
    "\u232a": "close angle bracket",
    "\u230a": "floor of",
    "\u230b": "",
    "\u2308": "ceiling of",
    "\u2309": "",
    "\u22a2": "proves",
    "\u22a5": "perpendicular",
    "\u2225": "parallel",
    "\u2220": "angle",
    "\u00b0": "degrees",
    "\u2032": "prime",
    "\u2033": "double prime",
    "%": "percent",
    "&": "and",
    "#": "number",
    "@": "at",
    "^": "",
    "`": "",
    "$": "",
    "\\": "",
    "{": "",
    "}": "",
    "_": "",
}
_GREEK_NOISE = {"GREEK", "SMALL", "CAPITAL", "LETTER", "LUNATE", "SYMBOL", "FINAL"}
_NAME_NOISE = re.compile(r"\b(MATHEMATICAL|SIGN|OPERATOR|SYMBOL|WHITE|BLACK|SUIT)\b")


def _allowed(char: str) -> bool:
    """Letters and digits of plain ASCII, spaces and punctuation pass unchanged."""
    if char.isascii():
        return char.isalnum() or char.isspace() or unicodedata.category(char)[0] == "P"
    return unicodedata.category(char)[0] == "P" and char not in SYMBOL_WORDS


@lru_cache(maxsize=1024)
def symbol_word(char: str) -> str:
    """How a listener should hear one character that is not plain text."""
    if char in SYMBOL_WORDS:
        return SYMBOL_WORDS[char]
    name = unicodedata.name(char, "")
    if name.startswith("GREEK "):
        letter = [w for w in name.split() if w not in _GREEK_NOISE][-1].lower()
        letter = "lambda" if letter == "lamda" else letter
        return f"capital {letter}" if " CAPITAL " in name else letter
    decomposed = unicodedata.normalize("NFKD", char)
    plain = "".join(c for c in decomposed if c.isascii() and c.isalnum())
    if plain:  # an accented or styled letter: its base letter
        return plain
    words = _NAME_NOISE.sub(" ", name).lower().split()
    return " ".join(words)


def symbols_to_words(text: str) -> str:
    """``text`` with every symbol replaced by words; whitespace collapsed."""
    if all(_allowed(c) for c in text):
        return text
    out = []
    for char in text:
        if _allowed(char):
            out.append(char)
        elif unicodedata.category(char) == "Mn":
            continue  # a combining mark left on nothing it could join is not read
        else:
            out.append(f" {symbol_word(char)} ")
    plain = " ".join("".join(out).split())
    return re.sub(r"\( ", "(", re.sub(r" ([),;:.])", r"\1", plain))
