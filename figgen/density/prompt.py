"""The unified extraction prompt sent with every compound image.

A build of the paper's line and bar charts (or of external charts) is asked exactly the paper's
prompt. A build that also holds kinds with a table of their own (box plots, range plots, heatmaps:
``figgen density build --kinds``) is asked one prompt for all its compounds that names every
kind in the build and says how each reads as a ``| Series Name | X Value | Y Value |`` table
(each kind's ``density_rule``); which kinds a compound
holds, or how many charts, is never given away.
"""

from __future__ import annotations

from collections.abc import Collection

from figgen.words.wording import join

EXTRACTION_PROMPT = """\
The image shows one or more charts (line charts or bar charts), possibly arranged in a grid.
Reconstruct the underlying data of every chart:
1. Identify each chart in reading order: left to right, then top to bottom.
2. Within each chart, identify every data series by its legend name (if there is no legend,
   call them Series 1, Series 2, ...).
3. For each data point read its x value: every visible marker or node of a line, or the
   category of each bar.
4. Read its y value: the height of the line marker or node, or the centre of the bar top.

For every chart write a heading line "Chart N" (N = 1, 2, ...) followed by its table:

| Series Name | X Value | Y Value |
|---|---|---|

with one row per data point. Write plain numbers without units or thousands separators.
Reply with only the headings and the tables."""


def extraction_prompt(kinds: Collection[str] = ()) -> str:
    """The same text for every compound of a build whose source charts are of ``kinds``: no
    chart count or source ids are given away. Line and bar charts alone get the paper's."""
    from figgen.kinds import KINDS

    extra = [kind for name, kind in KINDS.items() if name in kinds and kind.density_rule]
    if not extra:
        return EXTRACTION_PROMPT
    paper = [
        noun for kind, noun in (("line", "line charts"), ("bar", "bar charts")) if kind in kinds
    ]
    nouns = [*paper, *(f"{kind.noun}s" for kind in extra)]
    listed = join(nouns, last="or")
    head, tail = EXTRACTION_PROMPT.split("\n\nFor every chart", 1)
    head = head.replace("(line charts or bar charts)", f"({listed})", 1)
    rules = "\n".join(str(kind.density_rule) for kind in extra)
    which = join([f"{kind.noun}s" for kind in extra])
    return f"{head}\n\nRead {which} as follows instead:\n{rules}\n\nFor every chart{tail}"
