"""Level 3 questions about one panel: linearity, trend, symmetry, modes, clusters, gradient."""

from __future__ import annotations

from typing import Any

from figgen.kinds import KINDS
from figgen.vqa import contour_trends, trends
from figgen.vqa.context import FigureContext
from figgen.vqa.series import series_names

LINEARITY_CHOICES = ["linear", "nonlinear"]
TREND_CHOICES = ["increasing", "decreasing"]
SYMMETRY_CHOICES = ["symmetric", "left-skewed", "right-skewed"]
DIRECTION_CHOICES = ["left to right", "right to left", "bottom to top", "top to bottom"]


def trend_questions(ctx: FigureContext, panel: dict[str, Any]) -> None:
    """Add the panel-scope Level 3 items that the drawn data make unambiguous."""
    index, kind, loc = panel["index"], panel["kind"], ctx.location(panel)
    xscale, yscale = panel.get("xscale", "linear"), panel.get("yscale", "linear")
    KINDS[kind].panel_questions(ctx, panel, 3)
    if kind in ("line", "scatter"):
        names: list[str | None] = (
            [f"the data points of {n}" if n else None for n in series_names(panel)]
            if kind == "line"
            else ["the plotted points"]
        )
        for s, ((x, y), name) in enumerate(zip(trends.point_sets(panel), names, strict=True)):
            verdict = trends.linearity(x, y, panel["distribution"], xscale, yscale)
            if verdict is None or name is None:
                continue
            evidence = (
                ctx.element_ids(index, "line", "marker", series=s)
                if kind == "line"
                else ctx.element_ids(index, "point")
            )
            ctx.add(
                level=3,
                scope="panel",
                family="linearity",
                panel=panel,
                question=f"in {loc}, do {name} lie along a straight line (linear) or not "
                "(nonlinear)?",
                answer=verdict,
                answer_type="choice",
                metric="exact",
                choices=list(LINEARITY_CHOICES),
                evidence=evidence,
            )
            trend = trends.series_trend(panel, s)
            if trend is not None:
                ctx.add(
                    level=3,
                    scope="panel",
                    family="trend",
                    panel=panel,
                    question=f"in {loc}, as x increases, do {name} show an increasing or a "
                    "decreasing trend?",
                    answer=trend,
                    answer_type="choice",
                    metric="exact",
                    choices=list(TREND_CHOICES),
                    evidence=evidence,
                )
    if kind == "histogram":
        bars = ctx.element_ids(index, "bar")
        shape = trends.symmetry(panel)
        if shape is not None:
            ctx.add(
                level=3,
                scope="panel",
                family="symmetry",
                panel=panel,
                question=f"is the distribution shown by the histogram in {loc} symmetric, "
                "left-skewed (long tail toward smaller values) or right-skewed "
                "(long tail toward larger values)?",
                answer=shape,
                answer_type="choice",
                metric="exact",
                choices=list(SYMMETRY_CHOICES),
                evidence=bars,
            )
        modes = trends.n_modes(panel)
        if modes is not None:
            ctx.add(
                level=3,
                scope="panel",
                family="n_modes",
                panel=panel,
                question=f"how many separate peaks (modes) does the distribution shown by "
                f"the histogram in {loc} have?",
                answer=modes,
                answer_type="integer",
                metric="exact",
                evidence=bars,
            )
    if kind == "scatter":
        clusters = trends.n_clusters(panel, ctx.panel_aspect(panel))
        if clusters is not None:
            ctx.add(
                level=3,
                scope="panel",
                family="n_clusters",
                panel=panel,
                question=f"into how many separate clusters do the points in {loc} fall?",
                answer=clusters,
                answer_type="integer",
                metric="exact",
                evidence=ctx.element_ids(index, "point"),
            )
    if kind == "contour":
        peaks = contour_trends.n_peaks(panel)
        if peaks is not None:
            ctx.add(
                level=3,
                scope="panel",
                family="n_peaks",
                panel=panel,
                question=f"how many separate peaks (local maxima of the contoured quantity) "
                f"does {loc} show? Use the colour bar to tell high values from low ones.",
                answer=peaks,
                answer_type="integer",
                metric="exact",
                evidence=ctx.element_ids(index, "colorbar", "contour_level", "contour_band"),
            )
        direction = contour_trends.gradient_direction(panel)
        if direction is not None:
            ctx.add(
                level=3,
                scope="panel",
                family="gradient_direction",
                panel=panel,
                question=f"in {loc}, in which direction do the values of the contoured quantity "
                "increase (use the colour bar)?",
                answer=direction,
                answer_type="choice",
                metric="exact",
                choices=list(DIRECTION_CHOICES),
                evidence=ctx.element_ids(index, "colorbar", "contour_level", "contour_band"),
            )
