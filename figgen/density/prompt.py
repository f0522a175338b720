"""The unified extraction prompt sent with every compound image."""

from __future__ import annotations

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


def extraction_prompt() -> str:
    """The same text for every compound: no chart count or source ids are given away."""
    return EXTRACTION_PROMPT
