"""Level 1 questions about one panel: what is drawn and how it is drawn."""

from __future__ import annotations

from typing import Any

from figgen.kinds import KINDS
from figgen.vqa.colormaps import colormap_choices
from figgen.vqa.colors import COLOR_NAMES
from figgen.vqa.context import FigureContext
from figgen.vqa.measures import tick_values
from figgen.vqa.series import series_colors

ERROR_BAR_CHOICES = ["none", "x only", "y only", "x and y"]
CONTOUR_STYLES = ["image", "lines", "both"]
MIN_VISIBLE_BAR = 0.01
"""A histogram's bars are countable when every bin holds at least this share of the tallest."""


def panel_questions(ctx: FigureContext, panel: dict[str, Any]) -> None:
    """Add the panel-scope Level 1 items for ``panel``."""
    index, kind, loc = panel["index"], panel["kind"], ctx.location(panel)
    data = panel["data"]
    ctx.add(
        level=1,
        scope="panel",
        family="plot_type",
        panel=panel,
        question=f"what type of plot is shown in {loc}?",
        answer=kind,
        answer_type="choice",
        metric="exact",
        choices=list(ctx.kinds),
        evidence=ctx.element_ids(index, "panel"),
    )
    for field, words in (
        ("title", "title"),
        ("xlabel", "x-axis label"),
        ("ylabel", "y-axis label"),
    ):
        if panel.get(field):
            ctx.add(
                level=1,
                scope="panel",
                family=field,
                panel=panel,
                question=f"what is the {words} of {loc}? Copy the text exactly, keeping "
                "any LaTeX between $ signs.",
                answer=panel[field],
                answer_type="string",
                metric="cer",
                evidence=ctx.element_ids(index, field),
            )
    if kind == "line":
        _line_questions(ctx, panel, loc)
    elif kind == "histogram":
        counts = [float(c) for c in data["counts"]]
        if counts and min(counts) > 0 and min(counts) >= MIN_VISIBLE_BAR * max(counts):
            ctx.add(
                level=1,
                scope="panel",
                family="n_bars",
                panel=panel,
                question=f"how many bars does the histogram in {loc} have?",
                answer=len(counts),
                answer_type="integer",
                metric="exact",
                evidence=ctx.element_ids(index, "bar"),
            )
    elif kind == "scatter":
        ctx.add(
            level=1,
            scope="panel",
            family="n_points",
            panel=panel,
            question=f"how many data points are plotted in the scatter plot in {loc}?",
            answer=len(data["x"]),
            answer_type="integer",
            metric="exact",
            evidence=ctx.element_ids(index, "point"),
        )
    elif kind == "contour":
        style = panel.get("style", {}).get("contour_style")
        if style in CONTOUR_STYLES:
            ctx.add(
                level=1,
                scope="panel",
                family="contour_style",
                panel=panel,
                question=f"how is the contour plot in {loc} drawn: as a filled colour "
                "image without contour lines (image), as contour lines only "
                "(lines), or as a filled image with contour lines on top (both)?",
                answer=style,
                answer_type="choice",
                metric="exact",
                choices=list(CONTOUR_STYLES),
                evidence=ctx.element_ids(index, "contour_level", "contour_band"),
            )
    KINDS[kind].panel_questions(ctx, panel, 1)
    _error_bar_question(ctx, panel, loc)
    _colormap_question(ctx, panel, loc)
    for axis in ("x", "y"):
        scale = panel.get(f"{axis}scale", "linear")
        ctx.add(
            level=1,
            scope="panel",
            family="axis_scale",
            panel=panel,
            question=f"is the {axis} axis of {loc} linear or logarithmic?",
            answer="logarithmic" if scale == "log" else "linear",
            answer_type="choice",
            metric="exact",
            choices=["linear", "logarithmic"],
            answer_key=f"{axis}_scale",
            evidence=ctx.element_ids(index, f"{axis}tick_label"),
        )
    for axis in ("x", "y"):
        _tick_question(ctx, panel, loc, axis)


def _line_questions(ctx: FigureContext, panel: dict[str, Any], loc: str) -> None:
    index, series = panel["index"], panel["data"]["series"]
    ctx.add(
        level=1,
        scope="panel",
        family="n_lines",
        panel=panel,
        question=f"how many lines (data series) are drawn in {loc}?",
        answer=len(series),
        answer_type="integer",
        metric="exact",
        evidence=ctx.element_ids(index, "line"),
    )
    names = series_colors(panel)
    if all(names) and len(set(names)) == len(names):
        ordered = [name for name in COLOR_NAMES if name in names]
        ctx.add(
            level=1,
            scope="panel",
            family="line_colors",
            panel=panel,
            question=f"what colours are the lines in {loc}? Name each line's colour once.",
            answer=ordered,
            answer_type="choice_list",
            metric="exact_set",
            choices=list(COLOR_NAMES),
            evidence=ctx.element_ids(index, "line"),
        )


def _has(values: Any) -> bool:
    return values is not None and len(values) > 0


def _error_bar_question(ctx: FigureContext, panel: dict[str, Any], loc: str) -> None:
    data, kind = panel["data"], panel["kind"]
    if kind == "contour":
        return
    if kind == "histogram":
        # count errors lie along the bars: vertical bars get y error bars
        horizontal = data.get("orientation") == "horizontal"
        has_x = horizontal and _has(data.get("errors"))
        has_y = not horizontal and _has(data.get("errors"))
    else:
        groups = data["series"] if kind == "line" else [data]
        has_x = any(_has(g.get("xerr")) for g in groups)
        has_y = any(_has(g.get("yerr")) for g in groups)
    answer = ERROR_BAR_CHOICES[int(has_x) + 2 * int(has_y)]
    ctx.add(
        level=1,
        scope="panel",
        family="error_bars",
        panel=panel,
        question=f"which error bars are drawn in {loc}: none, only along x (horizontal "
        "bars), only along y (vertical bars), or along both?",
        answer=answer,
        answer_type="choice",
        metric="exact",
        choices=list(ERROR_BAR_CHOICES),
        evidence=ctx.element_ids(panel["index"], "errorbar"),
    )


def _colormap_question(ctx: FigureContext, panel: dict[str, Any], loc: str) -> None:
    name = panel.get("style", {}).get("colormap")
    if not name:
        return
    # a scatter shows its colormap only through colour values; a contour only when filled
    # (contour lines alone show a handful of colours, too few to tell maps apart)
    if panel["kind"] == "scatter" and not _has(panel["data"].get("c")):
        return
    if panel["kind"] == "contour" and panel["style"].get("contour_style") not in ("image", "both"):
        return
    if panel["kind"] not in ("scatter", "contour"):
        return
    choices = colormap_choices(name, f"{ctx.figure_id}-{panel['index']}")
    if choices is None:
        return
    ctx.add(
        level=1,
        scope="panel",
        family="colormap",
        panel=panel,
        question=f"which matplotlib colormap colours {loc}?",
        answer=name,
        answer_type="choice",
        metric="exact",
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
    ctx.add(
        level=1,
        scope="panel",
        family="tick_values",
        panel=panel,
        question=f"what numbers are written at the tick marks of the {axis} axis of {loc}? "
        "List every labelled tick.",
        answer=values,
        answer_type="number_list",
        metric="exact_set",
        answer_key=f"{axis}_ticks",
        evidence=[int(e["id"]) for e in labels],
    )
