"""Short alt text (under 150 characters: kind, panel count, subject) beside each description.

The W3C complex-images guidance pairs a short text alternative, which says what the image is,
with a long description of what it shows; the short one is what a screen reader announces
first. Its subject is the first title, else what is plotted against what.
"""

from __future__ import annotations

from collections import Counter

from figgen.kinds import KINDS, noun
from figgen.schema.panel import PanelRecord
from figgen.words.spoken import spoken
from figgen.words.wording import cap, count, join

MAX_ALT = 149
"""Alt text stays under 150 characters (screen readers cut longer ones into chunks)."""


def fit(head: str, subject: str, *, limit: int = MAX_ALT) -> str:
    """``head`` then ``subject`` and a full stop, or the head alone where that would not fit.

    Nothing is cut mid-word or mid-label: a subject that does not fit whole is left out, and
    a head too long on its own is shortened at a word boundary before the last clause.
    """
    return compose([f"{head}{subject}.", f"{head}."], limit=limit)


def compose(candidates: list[str], *, limit: int = MAX_ALT) -> str:
    """The first candidate that fits ``limit``; else the last cut back to whole clauses."""
    for text in candidates:
        if len(text) <= limit:
            return text
    text = candidates[-1]
    for stop in (": ", "; ", ", ", " "):
        while len(text) > limit and stop in text:
            text = text[: text.rindex(stop)].rstrip(" ,:;") + "."
    return text if len(text) <= limit else ""


def subject(panel: PanelRecord) -> str:
    """', titled "..."' or " of y against x" for a panel, or "" where it has neither."""
    if panel.title:
        return f', titled "{spoken(panel.title)}"'
    x, y = panel.xlabel, panel.ylabel
    if x and y:
        return f' of "{spoken(y)}" against "{spoken(x)}"'
    if y or x:
        return f' of "{spoken(y or x)}"'
    return ""


def subjects(panel: PanelRecord) -> list[str]:
    """The ways to name a panel's subject, richest first (each whole, or none)."""
    x, y = panel.xlabel, panel.ylabel
    out = [subject(panel)]
    if x and y:
        out.append(f' of "{spoken(y)}"')
    return [*out, ""]


def panel_alt_text(panel: PanelRecord) -> str:
    """'Line plot of "flux" against "time".'"""
    head = cap(noun(panel.kind))
    return compose([f"{head}{about}." for about in subjects(panel)])


def figure_alt_text(panels: list[PanelRecord], rows: int, cols: int) -> str:
    """'Figure of 4 panels in 2 rows and 2 columns: three line plots and one histogram; ...'"""
    if len(panels) == 1:
        return panel_alt_text(panels[0])
    kinds = Counter(p.kind for p in panels)
    inventory = join([count(kinds[k], noun(k)) for k in KINDS if kinds[k]])
    grid = f"in {count(rows, 'row')}" if cols == 1 else f"in {count(cols, 'column')}"
    if rows > 1 and cols > 1:
        grid = f"in {count(rows, 'row')} and {count(cols, 'column')}"
    short = f"Figure of {len(panels)} panels {grid}"
    head = f"{short}: {inventory}"
    first = next((p for p in panels if p.title), panels[0])
    abouts = []
    for about in subjects(first)[:-1]:
        if about.startswith(", titled"):
            abouts.append("; the first titled" + about.removeprefix(", titled"))
        elif about:
            abouts.append("; the first" + about)
    return compose([*(f"{head}{a}." for a in abouts), f"{head}.", f"{short}."])
