"""Panel locations in words, and the parser that reads them back.

A location is a noun phrase with its article, ready to follow "In": "the only panel",
"the left panel", "the second panel from the top", "the top-left panel", "the middle panel in
the second row from the top". Rows count from the top and columns from the left; the phrase
for ``(row, col)`` names the row first when a grid has both. Every phrase is unique within its
grid, and :func:`parse_location` maps it back to ``(row, col)`` without consulting the
generator (tests check the round trip for every grid up to 5x5 and for strips).
"""

from __future__ import annotations

import re

from figgen.errors import FiggenError

_ORDINALS = (
    "first",
    "second",
    "third",
    "fourth",
    "fifth",
    "sixth",
    "seventh",
    "eighth",
    "ninth",
    "tenth",
    "eleventh",
    "twelfth",
    "thirteenth",
    "fourteenth",
    "fifteenth",
    "sixteenth",
    "seventeenth",
    "eighteenth",
    "nineteenth",
    "twentieth",
    "twenty-first",
    "twenty-second",
    "twenty-third",
    "twenty-fourth",
    "twenty-fifth",
)
_ORDINAL_VALUE = {word: n for n, word in enumerate(_ORDINALS, start=1)}


def ordinal(n: int) -> str:
    """``1 -> "first"``; numbers beyond the word list become "26th" and so on."""
    if 1 <= n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _ordinal_value(word: str) -> int:
    if word in _ORDINAL_VALUE:
        return _ORDINAL_VALUE[word]
    match = re.fullmatch(r"(\d+)(st|nd|rd|th)", word)
    if match is None:
        raise ValueError(f"not an ordinal: {word!r}")
    return int(match.group(1))


def _position(i: int, n: int, low: str, high: str) -> str:
    """Words for position ``i`` of ``n`` along one axis, with ``{noun}`` for "panel" or "row".

    ``low``/``high`` are "left"/"right" or "top"/"bottom". The ends of a row of 4 or more panels
    become "leftmost"/"rightmost", so "left panel" never stands for one of many.
    """
    if n >= 3 and n % 2 == 1 and i == n // 2:
        return "middle {noun}"
    if i == 0 or i == n - 1:
        end = low if i == 0 else high
        if n >= 4 and end in ("left", "right"):
            end += "most"
        return end + " {noun}"
    if i < n / 2:
        return f"{ordinal(i + 1)} {{noun}} from the {low}"
    return f"{ordinal(n - i)} {{noun}} from the {high}"


def panel_location(row: int, col: int, rows: int, cols: int) -> str:
    """The phrase naming the panel at ``(row, col)`` of a ``rows`` x ``cols`` grid."""
    if not (0 <= row < rows and 0 <= col < cols):
        raise ValueError(f"panel ({row}, {col}) is outside a {rows}x{cols} grid")
    if rows == 1 and cols == 1:
        return "the only panel"
    if rows == 1:
        return "the " + _position(col, cols, "left", "right").format(noun="panel")
    if cols == 1:
        return "the " + _position(row, rows, "top", "bottom").format(noun="panel")
    row_words = _position(row, rows, "top", "bottom")
    col_words = _position(col, cols, "left", "right")
    if row_words in ("top {noun}", "bottom {noun}") and col_words in (
        "left {noun}",
        "right {noun}",
    ):
        return f"the {row_words.split()[0]}-{col_words.split()[0]} panel"
    return f"the {col_words.format(noun='panel')} in the {row_words.format(noun='row')}"


_FROM = re.compile(r"(\S+) (panel|row) from the (left|right|top|bottom)")


def _axis_index(words: str, n: int, noun: str) -> tuple[str, int]:
    """Read one axis's words back to ``(direction, index)``; direction is "h" or "v"."""
    words = words.strip()
    simple = {
        "left": ("h", 0),
        "leftmost": ("h", 0),
        "right": ("h", n - 1),
        "rightmost": ("h", n - 1),
        "top": ("v", 0),
        "bottom": ("v", n - 1),
    }
    if words == f"middle {noun}":
        return ("?", n // 2)
    for key, value in simple.items():
        if words == f"{key} {noun}":
            return value
    match = _FROM.fullmatch(words)
    if match is None or match.group(2) != noun:
        raise ValueError(f"cannot read {words!r}")
    k = _ordinal_value(match.group(1))
    side = match.group(3)
    direction = "h" if side in ("left", "right") else "v"
    index = k - 1 if side in ("left", "top") else n - k
    return direction, index


def parse_location(phrase: str, rows: int, cols: int) -> tuple[int, int]:
    """Read a location phrase back to ``(row, col)`` in a ``rows`` x ``cols`` grid.

    Raises:
        FiggenError: the phrase does not name a panel of this grid.
    """
    text = phrase.strip().lower()
    text = text.removeprefix("the ")
    try:
        if text == "only panel":
            if rows * cols != 1:
                raise ValueError("the grid has more than one panel")
            row, col = 0, 0
        elif rows == 1 or cols == 1:
            n = cols if rows == 1 else rows
            direction, index = _axis_index(text, n, "panel")
            if direction not in ("?", "h" if rows == 1 else "v"):
                raise ValueError("direction does not match the strip")
            row, col = (0, index) if rows == 1 else (index, 0)
        elif (corner := re.fullmatch(r"(top|bottom)-(left|right) panel", text)) is not None:
            row = 0 if corner.group(1) == "top" else rows - 1
            col = 0 if corner.group(2) == "left" else cols - 1
        else:
            column_words, _, row_words = text.partition(" in the ")
            col_dir, col = _axis_index(column_words, cols, "panel")
            row_dir, row = _axis_index(row_words, rows, "row")
            if col_dir not in ("?", "h") or row_dir not in ("?", "v"):
                raise ValueError("row and column words are swapped")
    except ValueError as exc:
        raise FiggenError(
            f"cannot read panel location {phrase!r} for a {rows}x{cols} grid ({exc}); "
            "use a phrase from figgen.vqa.panel_location"
        ) from None
    if not (0 <= row < rows and 0 <= col < cols):
        raise FiggenError(f"location {phrase!r} is outside a {rows}x{cols} grid; check the grid")
    return row, col
