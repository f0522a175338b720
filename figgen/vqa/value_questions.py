"""Level 2 questions: values read off one panel (means, medians, extremes, ranges)."""

from __future__ import annotations

import statistics
from typing import Any

import numpy as np

from figgen.kinds import KINDS
from figgen.vqa.context import FigureContext, number_text, sig
from figgen.vqa.series import series_names


def contour_mean_y(panel: dict[str, Any]) -> float | None:
    """The mean y of what a contour panel shows.

    Where the field was estimated from samples, the mean of those samples. For a field of
    Gaussian bumps (``gmm``), the y of its centre of mass (weights ``z - min(z)``), which is
    where the blobs sit. Planes and random fields have no such visible centre: None.
    """
    data = panel["data"]
    samples = data.get("samples_y")
    if samples is not None and len(samples) > 0:
        return float(np.mean(samples))
    if panel.get("distribution") != "gmm":
        return None
    z = np.asarray(data["z"], dtype=float)
    weights = z - z.min()
    total = weights.sum()
    if total <= 0:
        return None
    y = np.asarray(data["y"], dtype=float)
    return float((weights.sum(axis=1) * y).sum() / total)


def _stats_questions(
    ctx: FigureContext, panel: dict[str, Any], what: str, ys: list[float], evidence: list[int]
) -> None:
    loc = ctx.location(panel)
    for family, word, value in (
        ("mean_y", "mean", statistics.fmean(ys)),
        ("median_y", "median", statistics.median(ys)),
        ("min_y", "smallest", min(ys)),
        ("max_y", "largest", max(ys)),
    ):
        ctx.add(
            level=2,
            scope="panel",
            family=family,
            panel=panel,
            question=f"in {loc}, what is the {word} y value of {what}?",
            answer=sig(value),
            answer_type="number",
            metric="ssmape",
            evidence=evidence,
        )


def _x_range(
    ctx: FigureContext,
    panel: dict[str, Any],
    what: str,
    low: float,
    high: float,
    evidence: list[int],
    *,
    family: str = "x_range",
    axis: str = "x",
) -> None:
    ctx.add(
        level=2,
        scope="panel",
        family=family,
        panel=panel,
        question=f"in {ctx.location(panel)}, what range of {axis} values do {what} cover? "
        "Give [smallest, largest].",
        answer=[sig(low), sig(high)],
        answer_type="number_pair",
        metric="relaxed_5pct",
        evidence=evidence,
    )


def value_questions(ctx: FigureContext, panel: dict[str, Any]) -> None:
    """Add the panel-scope Level 2 items for ``panel``."""
    index, kind, data = panel["index"], panel["kind"], panel["data"]
    loc = ctx.location(panel)
    KINDS[kind].panel_questions(ctx, panel, 2)
    if kind == "line":
        names = series_names(panel)
        for s, (series, name) in enumerate(zip(data["series"], names, strict=True)):
            if name is None:
                continue
            evidence = ctx.element_ids(index, "line", "marker", series=s)
            xs, ys = [float(v) for v in series["x"]], [float(v) for v in series["y"]]
            if not ys:
                continue
            _stats_questions(ctx, panel, f"the points of {name}", ys, evidence)
            middle = len(xs) // 2
            quoted = number_text(xs[middle])
            if [number_text(x) for x in xs].count(quoted) > 1:
                continue  # two drawn points would answer to the same quoted x
            ctx.add(
                level=2,
                scope="panel",
                family="value_at_x",
                panel=panel,
                question=f"in {loc}, what is the y value of {name} at x = {quoted}?",
                answer=sig(ys[middle]),
                answer_type="number",
                metric="ssmape",
                evidence=evidence,
            )
        all_x = [float(v) for series in data["series"] for v in series["x"]]
        _x_range(ctx, panel, "the lines", min(all_x), max(all_x), ctx.element_ids(index, "line"))
    elif kind == "scatter":
        evidence = ctx.element_ids(index, "point")
        _stats_questions(ctx, panel, "the plotted points", [float(v) for v in data["y"]], evidence)
        _x_range(ctx, panel, "the plotted points", min(data["x"]), max(data["x"]), evidence)
    elif kind == "histogram":
        bars = ctx.element_ids(index, "bar")
        ctx.add(
            level=2,
            scope="panel",
            family="hist_mean",
            panel=panel,
            question=f"what is the mean of the data whose distribution the histogram in "
            f"{loc} shows (the mean of the underlying values, not of the bar "
            "heights)?",
            answer=sig(statistics.fmean(data["samples"])),
            answer_type="number",
            metric="ssmape",
            evidence=bars,
        )
        counts, edges = data["counts"], data["bin_edges"]
        filled = [i for i, c in enumerate(counts) if c > 0]
        if filled:
            count_axis = "x" if data.get("orientation") == "horizontal" else "y"
            value_axis = "y" if count_axis == "x" else "x"
            ctx.add(
                level=2,
                scope="panel",
                family="max_count",
                panel=panel,
                question=f"in {loc}, how long is the longest bar of the histogram, read "
                f"on the {count_axis} axis?",
                answer=sig(max(counts)),
                answer_type="number",
                metric="ssmape",
                evidence=bars,
            )
            _x_range(
                ctx,
                panel,
                "the bars",
                edges[filled[0]],
                edges[filled[-1] + 1],
                bars,
                family="bin_range",
                axis=value_axis,
            )
    elif kind == "contour":
        mean = contour_mean_y(panel)
        evidence = ctx.element_ids(index, "contour_level", "contour_band")
        if mean is not None:
            sampled = data.get("samples_y") is not None and len(data["samples_y"]) > 0
            what = (
                "the mean y value of the points whose density the contours show"
                if sampled
                else "the mean y value of the quantity the contours show (the y coordinate of "
                "its centre of mass)"
            )
            ctx.add(
                level=2,
                scope="panel",
                family="mean_y",
                panel=panel,
                question=f"in {loc}, what is {what}?",
                answer=sig(mean),
                answer_type="number",
                metric="ssmape",
                evidence=evidence,
            )
        _x_range(ctx, panel, "the contours", min(data["x"]), max(data["x"]), evidence)
        style = panel.get("style", {})
        if style.get("colorbar") and style.get("contour_style") in ("image", "both"):
            # filled bands run from min(z) to max(z), so the colour bar spans exactly that
            z = [float(v) for row in data["z"] for v in row]
            bar = ctx.element_ids(index, "colorbar", "colorbar_tick_label")
            for family, word, value in (
                ("min_z", "smallest", min(z)),
                ("max_z", "largest", max(z)),
            ):
                ctx.add(
                    level=2,
                    scope="panel",
                    family=family,
                    panel=panel,
                    question=f"in {loc}, what is the {word} value of the quantity shown by "
                    "the filled contours, read on the colour bar?",
                    answer=sig(value),
                    answer_type="number",
                    metric="ssmape",
                    evidence=bar,
                )
