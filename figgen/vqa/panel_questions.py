"""Level 1 questions every panel gets, whatever its kind; the kind adds its own in between."""

from __future__ import annotations

from typing import Any

from figgen.kinds import KINDS
from figgen.vqa.colormaps import colormap_choices
from figgen.vqa.context import FigureContext
from figgen.vqa.families import (
    AXIS_SCALE,
    COLORMAP,
    ERROR_BARS,
    PLOT_TYPE,
    TICK_VALUES,
    TITLE,
    XLABEL,
    YLABEL,
)
from figgen.vqa.measures import tick_values

ERROR_BAR_CHOICES = ["none", "x only", "y only", "x and y"]


def panel_questions(ctx: FigureContext, panel: dict[str, Any]) -> None:
    """Add the panel-scope Level 1 items for ``panel``."""
    index, kind, loc = panel["index"], KINDS[panel["kind"]], ctx.location(panel)
    ctx.ask(
        PLOT_TYPE,
        panel,
        f"what type of plot is shown in {loc}?",
        panel["kind"],
        choices=list(ctx.kinds),
        evidence=ctx.element_ids(index, "panel"),
    )
    for family, words in ((TITLE, "title"), (XLABEL, "x-axis label"), (YLABEL, "y-axis label")):
        if panel.get(family.name):
            ctx.ask(
                family,
                panel,
                f"what is the {words} of {loc}? Copy the text exactly, keeping "
                "any LaTeX between $ signs.",
                panel[family.name],
                evidence=ctx.element_ids(index, family.name),
            )
    kind.panel_questions(ctx, panel, 1)
    bars = kind.error_bars(panel)
    if bars is not None:
        ctx.ask(
            ERROR_BARS,
            panel,
            f"which error bars are drawn in {loc}: none, only along x (horizontal "
            "bars), only along y (vertical bars), or along both?",
            ERROR_BAR_CHOICES[int(bars[0]) + 2 * int(bars[1])],
            choices=list(ERROR_BAR_CHOICES),
            evidence=ctx.element_ids(index, "errorbar"),
        )
    _colormap_question(ctx, panel, loc, kind.shown_colormap(panel))
    for axis in ("x", "y"):
        scale = panel.get(f"{axis}scale", "linear")
        ctx.ask(
            AXIS_SCALE,
            panel,
            f"is the {axis} axis of {loc} linear or logarithmic?",
            "logarithmic" if scale == "log" else "linear",
            choices=["linear", "logarithmic"],
            answer_key=f"{axis}_scale",
            evidence=ctx.element_ids(index, f"{axis}tick_label"),
        )
    for axis in ("x", "y"):
        _tick_question(ctx, panel, loc, axis)


def _colormap_question(
    ctx: FigureContext, panel: dict[str, Any], loc: str, name: str | None
) -> None:
    if not name:
        return
    choices = colormap_choices(name, f"{ctx.figure_id}-{panel['index']}")
    if choices is None:
        return
    ctx.ask(
        COLORMAP,
        panel,
        f"which matplotlib colormap colours {loc}?",
        name,
        choices=choices,
        evidence=ctx.element_ids(panel["index"], "colorbar", "point", "contour_level"),
    )


def _tick_question(ctx: FigureContext, panel: dict[str, Any], loc: str, axis: str) -> None:
    index = panel["index"]
    offsets = [e for e in ctx.elements(index, "offset_text") if e.get("axis") in (axis, None)]
    if offsets:
        return
    labels = ctx.elements(index, f"{axis}tick_label")
    values = tick_values(labels, axis)
    if not values:
        return
    ctx.ask(
        TICK_VALUES,
        panel,
        f"what numbers are written at the tick marks of the {axis} axis of {loc}? "
        "List every labelled tick.",
        values,
        answer_key=f"{axis}_ticks",
        evidence=[int(e["id"]) for e in labels],
    )
