"""Level 1 questions every panel gets, whatever its kind; the kind adds its own in between."""

from __future__ import annotations

from figgen.kinds import KINDS
from figgen.schema.panel import PanelRecord
from figgen.vqa.api.context import FigureContext
from figgen.vqa.api.families import (
    AXIS_SCALE,
    COLORMAP,
    ERROR_BARS,
    PLOT_TYPE,
    TICK_VALUES,
    TITLE,
    XLABEL,
    YLABEL,
)
from figgen.vqa.api.reading.measures import tick_values
from figgen.vqa.questions.colormap_choices import colormap_choices

ERROR_BAR_CHOICES = ["none", "x only", "y only", "x and y"]


def panel_questions(ctx: FigureContext, panel: PanelRecord) -> None:
    """Add the panel-scope Level 1 items for ``panel``."""
    index, kind = panel.index, KINDS[panel.kind]
    ctx.ask(
        PLOT_TYPE,
        panel,
        panel.kind,
        choices=list(ctx.kinds),
        evidence=ctx.element_ids(index, "panel"),
    )
    texts = ((TITLE, panel.title), (XLABEL, panel.xlabel), (YLABEL, panel.ylabel))
    for family, text in texts if kind.draws_axes else texts[:1]:
        if text:
            ctx.ask(family, panel, text, evidence=ctx.element_ids(index, family.name))
    kind.panel_questions(ctx, panel, 1)
    bars = kind.error_bars(panel)
    if bars is not None:
        answer = ERROR_BAR_CHOICES[int(bars[0]) + 2 * int(bars[1])]
        evidence = ctx.element_ids(index, "errorbar")
        ctx.ask(ERROR_BARS, panel, answer, choices=list(ERROR_BAR_CHOICES), evidence=evidence)
    _colormap_question(ctx, panel, kind.shown_colormap(panel))
    for axis in kind.value_axes:
        scale = "logarithmic" if panel.axis_scale(axis) == "log" else "linear"
        evidence = ctx.element_ids(index, f"{axis}tick_label")
        ctx.ask(
            AXIS_SCALE,
            panel,
            scale,
            choices=["linear", "logarithmic"],
            answer_key=f"{axis}_scale",
            evidence=evidence,
            axis=axis,
        )
    for axis in ("x", "y"):
        _tick_question(ctx, panel, axis)


def _colormap_question(ctx: FigureContext, panel: PanelRecord, name: str | None) -> None:
    if not name:
        return
    choices = colormap_choices(name)
    if choices is None:
        return
    evidence = ctx.element_ids(panel.index, "colorbar", "point", "contour_level")
    ctx.ask(COLORMAP, panel, name, choices=choices, evidence=evidence)


def _tick_question(ctx: FigureContext, panel: PanelRecord, axis: str) -> None:
    index = panel.index
    offsets = [e for e in ctx.elements(index, "offset_text") if e.axis in (axis, None)]
    if offsets:
        return
    labels = ctx.elements(index, f"{axis}tick_label")
    values = tick_values(labels, axis)
    if not values:
        return
    evidence = [int(e.id) for e in labels]
    ctx.ask(TICK_VALUES, panel, values, answer_key=f"{axis}_ticks", evidence=evidence, axis=axis)
