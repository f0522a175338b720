"""Reference descriptions (alt text) at Levels 1-3 for each figure and each panel.

Level 1 says what is there (panel types, titles, axes, marks), Level 2 gives the values a reader
would take off the axes, Level 3 states only the trends that pass the rules in
:mod:`figgen.vqa.trends`. Everything is generated from the record.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from figgen.kinds import KINDS, noun
from figgen.vqa.context import FigureContext
from figgen.vqa.wording import cap, count, join


def _panel_level1(ctx: FigureContext, panel: dict[str, Any]) -> str:
    out = [
        f"{cap(ctx.location(panel))} is a {noun(panel['kind'])}"
        + (f' titled "{panel["title"]}".' if panel.get("title") else " with no title.")
    ]
    for axis in ("x", "y"):
        label = panel.get(f"{axis}label")
        scale = "logarithmic" if panel.get(f"{axis}scale") == "log" else "linear"
        named = f'labelled "{label}"' if label else "unlabelled"
        out.append(f"The {axis} axis is {named} and {scale}.")
    return " ".join(out + KINDS[panel["kind"]].describe(ctx, panel, 1))


def _panel_level2(ctx: FigureContext, panel: dict[str, Any]) -> str:
    return " ".join(KINDS[panel["kind"]].describe(ctx, panel, 2))


def panel_trend_sentences(ctx: FigureContext, panel: dict[str, Any]) -> list[str]:
    """The Level 3 statements that pass the rules in :mod:`figgen.vqa.trends`."""
    return KINDS[panel["kind"]].describe(ctx, panel, 3)


def describe_record(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows ``{figure_id, scope, panel, location, level, text}``: figure first, then panels."""
    ctx = FigureContext(record)
    panels = ctx.panels
    rows: list[dict[str, Any]] = []

    def add(scope: str, panel: dict[str, Any] | None, level: int, text: str) -> None:
        rows.append(
            {
                "figure_id": ctx.figure_id,
                "scope": scope,
                "panel": panel["index"] if panel else None,
                "location": ctx.location(panel) if panel else None,
                "level": level,
                "text": text,
            }
        )

    kinds = Counter(p["kind"] for p in panels)
    inventory = join([count(kinds[k], noun(k)) for k in KINDS if kinds[k]])
    if len(panels) == 1:
        summary = f"A figure with a single panel, a {noun(panels[0]['kind'])}."
    else:
        summary = (
            f"A figure with {len(panels)} panels in {count(ctx.rows, 'row')} and "
            f"{count(ctx.cols, 'column')}: {inventory}."
        )
    titled = [f'{ctx.location(p)}: "{p["title"]}"' for p in panels if p.get("title")]
    if titled:
        summary += " Titles: " + "; ".join(titled) + "."
    level2 = {p["index"]: _panel_level2(ctx, p) for p in panels}
    level3 = {p["index"]: panel_trend_sentences(ctx, p) for p in panels}
    add("figure", None, 1, summary)
    add(
        "figure",
        None,
        2,
        " ".join(f"{cap(ctx.location(p))}: {level2[p['index']]}" for p in panels),
    )
    stated = [
        f"{cap(ctx.location(p))}: " + " ".join(level3[p["index"]])
        for p in panels
        if level3[p["index"]]
    ]
    add(
        "figure",
        None,
        3,
        " ".join(stated)
        if stated
        else "No panel shows a trend that can be stated with confidence.",
    )
    for p in panels:
        add("panel", p, 1, _panel_level1(ctx, p))
        add("panel", p, 2, level2[p["index"]])
        add(
            "panel",
            p,
            3,
            " ".join(level3[p["index"]])
            or "No overall trend can be stated with confidence from this panel.",
        )
    return rows
