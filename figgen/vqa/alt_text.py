"""Short alt text (under 150 characters: kind, panel count, subject) beside each description.

The W3C complex-images guidance pairs a short text alternative, which says what the image is,
with a long description of what it shows; the short one is what a screen reader announces
first. Its subject is the first title, else what is plotted against what.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from figgen.kinds import KINDS, noun
from figgen.vqa.spoken import spoken
from figgen.vqa.wording import cap, count, join

MAX_ALT = 149
"""Alt text stays under 150 characters (screen readers cut longer ones into chunks)."""


def fit(head: str, subject: str, *, limit: int = MAX_ALT) -> str:
    """``head`` then ``subject`` and a full stop, the subject cut at a word to fit ``limit``."""
    text = f"{head}{subject}."
    if len(text) <= limit:
        return text
    words = subject.split(" ")
    while words and len(f"{head}{' '.join(words)}...") > limit - 1:  # room for a quote
        words.pop()
    if not words:
        return head.rstrip(" ,:;")[: limit - 1].rstrip() + "."
    cut = " ".join(words).rstrip(' ,;:"')
    close = '"' if cut.count('"') % 2 else ""  # a cut quotation still ends
    return f"{head}{cut}...{close}"


def subject(panel: dict[str, Any]) -> str:
    """', titled "..."' or " of y against x" for a panel, or "" where it has neither."""
    if panel.get("title"):
        return f', titled "{spoken(panel["title"])}"'
    x, y = panel.get("xlabel"), panel.get("ylabel")
    if x and y:
        return f' of "{spoken(y)}" against "{spoken(x)}"'
    if y or x:
        return f' of "{spoken(y or x)}"'
    return ""


def panel_alt_text(panel: dict[str, Any]) -> str:
    """'Line plot of "flux" against "time".'"""
    return fit(cap(noun(panel["kind"])), subject(panel))


def figure_alt_text(panels: list[dict[str, Any]], rows: int, cols: int) -> str:
    """'Figure of 4 panels in 2 rows and 2 columns: three line plots and one histogram; ...'"""
    if len(panels) == 1:
        return panel_alt_text(panels[0])
    kinds = Counter(p["kind"] for p in panels)
    inventory = join([count(kinds[k], noun(k)) for k in KINDS if kinds[k]])
    grid = f"in {count(rows, 'row')}" if cols == 1 else f"in {count(cols, 'column')}"
    if rows > 1 and cols > 1:
        grid = f"in {count(rows, 'row')} and {count(cols, 'column')}"
    head = f"Figure of {len(panels)} panels {grid}: {inventory}"
    first = next((p for p in panels if p.get("title")), panels[0])
    about = subject(first)
    if about.startswith(", titled"):
        about = "; the first titled" + about.removeprefix(", titled")
    elif about:
        about = "; the first" + about
    return fit(head, about)
