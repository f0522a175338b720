"""Reference descriptions at Levels 1-3 for each figure and each panel, with short alt text.

Level 1 says what is there (panel types, titles, axes, marks), Level 2 gives the values a reader
would take off the axes (rounded to the tick precision, :mod:`figgen.vqa.api.reading.readout`),
Level 3 says what the drawing shows, from the measured features the questions use
(:mod:`figgen.vqa.api.reading.features`), with hedges sized to the evidence
(:mod:`figgen.vqa.api.reading.hedges`; the strict verdicts of :mod:`figgen.vqa.api.reading.trends`
where they hold). The figure's Level 2 and 3 summarise across panels within a word budget
(:mod:`figgen.vqa.describe.figure_summary`). Every text is spoken: inline LaTeX is read out
(:mod:`figgen.words.spoken`) while the record keeps it raw. Each row carries a short ``alt_text``
(:mod:`figgen.vqa.describe.alt_text`) beside the long ``text``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from figgen.kinds import KINDS, noun
from figgen.schema.panel import PanelRecord
from figgen.schema.record import Record, as_record
from figgen.vqa.api.context import FigureContext
from figgen.vqa.api.reading.drawn import colour_bar
from figgen.vqa.api.reading.hedges import distinct
from figgen.vqa.describe.alt_text import figure_alt_text, panel_alt_text
from figgen.vqa.describe.cross_describe import cross_panel_sentences
from figgen.vqa.describe.figure_summary import figure_level2, figure_level3, titles_within
from figgen.vqa.questions.offered import figure_context
from figgen.words.spoken import quoted
from figgen.words.wording import cap, count, join

_NOTHING = "Nothing beyond its values stands out."
"""Level 3 of a panel whose kind states no shape (a pie, a table, bars with no clear leader)."""


def _panel_level1(ctx: FigureContext, panel: PanelRecord) -> list[str]:
    out = [
        f"{cap(ctx.location(panel))} is a {noun(panel.kind)}"
        + (f" titled {quoted(panel.title)}." if panel.title else " with no title.")
    ]
    kind = KINDS[panel.kind]
    labels = {"x": (panel.xlabel, panel.xscale), "y": (panel.ylabel, panel.yscale)}
    for axis, (label, scale) in labels.items() if kind.draws_axes else ():
        named = f"labelled {quoted(label)}" if label else "unlabelled"
        how = "logarithmic" if scale == "log" else "linear"
        out.append(
            f"The {axis} axis is {named}" + (f" and {how}." if axis in kind.value_axes else ".")
        )
    bar = colour_bar(panel)
    if bar is not None and bar.colorbar_label:
        out.append(f"A colour bar is labelled {quoted(bar.colorbar_label)}.")
    return out + kind.describe(ctx, panel, 1)


def panel_trend_sentences(ctx: FigureContext, panel: PanelRecord) -> list[str]:
    """The Level 3 sentences of a panel: what its drawing shows, hedged to the evidence."""
    return distinct(KINDS[panel.kind].describe(ctx, panel, 3))


def _paragraph(sentences: list[str]) -> str:
    return " ".join(distinct(sentences))


def describe_record(record: Record | dict[str, Any]) -> list[dict[str, Any]]:
    """Rows ``{figure_id, scope, panel, location, level, alt_text, text}``: figure, then panels."""
    ctx = figure_context(as_record(record))
    panels = ctx.panels
    rows: list[dict[str, Any]] = []
    figure_alt = figure_alt_text(panels, ctx.rows, ctx.cols)

    def add(scope: str, panel: PanelRecord | None, level: int, text: str) -> None:
        rows.append(
            {
                "figure_id": ctx.figure_id,
                "scope": scope,
                "panel": panel.index if panel else None,
                "location": ctx.location(panel) if panel else None,
                "level": level,
                "alt_text": panel_alt_text(panel) if panel else figure_alt,
                "text": text,
            }
        )

    kinds = Counter(p.kind for p in panels)
    inventory = join([count(kinds[k], noun(k)) for k in KINDS if kinds[k]])
    if len(panels) == 1:
        opening = f"A figure with a single panel, a {noun(panels[0].kind)}."
    else:
        opening = (
            f"A figure with {len(panels)} panels in {count(ctx.rows, 'row')} and "
            f"{count(ctx.cols, 'column')}: {inventory}."
        )
    titled = [f"{ctx.location(p)}: {quoted(p.title)}" for p in panels if p.title]
    level2 = {p.index: distinct(KINDS[p.kind].describe(ctx, p, 2)) for p in panels}
    level3 = {p.index: panel_trend_sentences(ctx, p) for p in panels}
    add("figure", None, 1, titles_within(opening, titled))
    add("figure", None, 2, figure_level2(ctx, level2))
    add("figure", None, 3, figure_level3(ctx, level3, cross_panel_sentences(ctx)) or _NOTHING)
    for p in panels:
        add("panel", p, 1, _paragraph(_panel_level1(ctx, p)))
        add("panel", p, 2, _paragraph(level2[p.index]))
        add("panel", p, 3, _paragraph(level3[p.index]) or _NOTHING)
    return rows
