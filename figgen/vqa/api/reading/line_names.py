"""How a question names one line of a line plot.

Line colours are stored as drawn (dark figures use a dark style sheet and light colours; no
colour is inverted after drawing), so the stored hex is the colour a reader sees.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from figgen.schema.panel import PanelRecord
from figgen.vqa.api.reading.drawn import line_look, lines
from figgen.words.colour_names import color_matches, color_name
from figgen.words.spoken import spoken


def _legend_names(panel: PanelRecord, labels: Sequence[str | None]) -> bool:
    """Whether a drawn legend names every line, each by a label of its own."""
    look = line_look(panel)
    legend = look is not None and look.legend
    return legend and all(labels) and len(set(labels)) == len(labels)


def series_colors(panel: PanelRecord) -> list[str | None]:
    """Plain colour name of each line, None where the name is doubtful."""
    names: list[str | None] = []
    for line in lines(panel):
        color = line.color
        names.append(color_name(color) if color else None)
    return names


def colour_words(panel: PanelRecord) -> list[str | None]:
    """The colour word of each line that names it alone: its plain name, where no other line
    of the panel could be called by the same word (:func:`figgen.words.colour_names.color_matches`);
    else None."""
    colors = [line.color for line in lines(panel)]
    words: list[str | None] = []
    for i, (color, name) in enumerate(zip(colors, series_colors(panel), strict=True)):
        shared = name is None or any(
            other is not None and j != i and color_matches(other, name)
            for j, other in enumerate(colors)
        )
        words.append(None if shared or color is None else name)
    return words


def series_names(panel: PanelRecord) -> list[str | None]:
    """A noun phrase naming each line ("the line labelled "a"", "the red line"), or None.

    Legend labels win where a legend is drawn and the labels are distinct; otherwise a colour
    word that no other line of the panel could be called by (:func:`colour_words`).
    """
    series = lines(panel)
    if len(series) == 1:
        return ["the line"]
    labels = [line.label for line in series]
    if _legend_names(panel, labels):
        return [f'the line labelled "{label}" in the legend' for label in labels]
    return [f"the {name} line" if name is not None else None for name in colour_words(panel)]


LINESTYLE_WORDS = {"-": "solid", "--": "dashed", "-.": "dash-dotted", ":": "dotted"}
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _heights(panel: PanelRecord, edge: int) -> list[float]:
    """Each line's drawn height at its leftmost (``edge`` 0) or rightmost (-1) point."""
    log = panel.yscale == "log"
    out = []
    for line in lines(panel):
        y = float(sorted(zip(line.x, line.y, strict=True))[edge][1])
        out.append(math.log10(y) if log and y > 0 else y)
    return out


def _position_names(panel: PanelRecord) -> list[str]:
    """ "the top line at the left edge", ...: the right edge where lines start too close."""
    left, right = _heights(panel, 0), _heights(panel, -1)
    span = max(left + right) - min(left + right)
    close = any(abs(a - b) <= 0.05 * span for i, a in enumerate(left) for b in left[i + 1 :])
    heights, edge = (right, "right") if close else (left, "left")
    n = len(heights)
    order = sorted(range(n), key=lambda i: (-heights[i], i))
    names = []
    for i in range(n):
        rank = order.index(i)
        if rank in (0, n - 1):
            line = "top line" if rank == 0 else "bottom line"
        else:
            line = "middle line" if n == 3 else f"{_ORDINALS[rank]} line from the top"
        names.append(f"the {line} at the {edge} edge")
    return names


def described_names(panel: PanelRecord) -> list[str]:
    """A distinct noun phrase for every line, as a sighted reader would point at it.

    Its legend label where a legend shows distinct labels; else its colour name, with the
    line style where two lines share a colour; else its height at the left (or right) edge
    ("the top line at the left edge"). One scheme per panel, so names never collide.
    """
    series = lines(panel)
    if len(series) == 1:
        return ["the line"]
    labels = [line.label for line in series]
    if _legend_names(panel, labels):
        return [f'the line labelled "{spoken(str(label))}"' for label in labels]
    colors = series_colors(panel)
    if all(colors):
        styles = [LINESTYLE_WORDS.get(line.linestyle, "patterned") for line in series]
        plain = [f"the {c} line" for c in colors]
        if len(set(plain)) == len(plain):
            return plain
        styled = [f"the {s} {c} line" for s, c in zip(styles, colors, strict=True)]
        if len(set(styled)) == len(styled):
            return styled
    return _position_names(panel)
