"""Whether the drawn figure shows what a question needs: one named rule per way it can hide it.

The question hooks of the kinds call these rules before they ask; each rule reads only the
record (data, style, element boxes and, where the renderer measured them, the marks' own
``visible`` / ``visible_fraction`` / ``occluded_by`` fields). The rules:

Hidden marks (:func:`mark_hidden`): a data mark is hidden when the record says the legend or the
    frame covers it (``visible`` false, or ``visible_fraction`` below
    :data:`MIN_VISIBLE_FRACTION`, with ``occluded_by`` naming "legend" or "frame"), or, in a
    record without those fields, when its box touches a legend's box. Marks hidden only by
    other marks of the same panel (a dense scatter cluster) still count as shown: they sit
    where the others are.
Shown series (:func:`hidden_vertices`): every vertex of a line must be seen, so a line is asked
    about only when no vertex lies under a legend (the vertex plus the marker or half the line
    width, and :data:`LEGEND_MARGIN_PX`) and none of its markers is hidden. The lines' x range
    needs only the vertices at its two ends.
Separated vertex (:func:`separated_vertices`): ``value_at_x`` asks about one vertex; every other
    vertex of the same line must lie at least :data:`VERTEX_GAP_SHARE` of the plot width (and
    at least one marker width) away from it in pixels, or the line jumps there and the asked
    point cannot be told apart.
Readable histogram mean (:func:`hist_mean_readable`): the mean of the shown bars (bin centres
    weighted by counts) must equal the sample mean within :data:`HIST_MEAN_TOLERANCE` sSMAPE,
    over at least :data:`MIN_HIST_BARS` shown bars: a perfect reading of the bars then scores.
Truth away from zero (:func:`away_from_zero`): sSMAPE divides by the truth, so a truth near zero
    turns a tiny reading error into the worst score; a relaxed 5% match does the same (it allows
    5% of the truth). On a linear axis every number of the truth must be at least
    :data:`NEAR_ZERO_SHARE` of the span of the values drawn along that axis.
    :meth:`figgen.vqa.context.FigureContext.ask` applies it to every family in
    :data:`RELATIVE_METRICS`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from figgen.vqa.measures import display

if TYPE_CHECKING:
    from figgen.vqa.context import FigureContext

MIN_VISIBLE_FRACTION = 0.75
"""A mark showing less of its own ink than this (legend or frame over the rest) is hidden."""
LEGEND_MARGIN_PX = 1.0
"""Pixels around a vertex's mark that must be free of the legend box."""
VERTEX_GAP_SHARE = 0.02
"""The asked vertex of ``value_at_x`` and every other vertex of its line are at least this share
of the plot width apart (1% of the x span is where the issue's jumps were unreadable)."""
HIST_MEAN_TOLERANCE = 0.025
"""Half the 0.05 |sSMAPE| that scores a number as correct: a reader of the bars has room."""
MIN_HIST_BARS = 3
"""With fewer shown bars the bars do not locate the samples' mean."""
NEAR_ZERO_SHARE = 0.2
"""A truth must be this share of the axis span or more: a reading error of 1% of the span then
stays within the 0.05 |sSMAPE| that scores as correct."""
RELATIVE_METRICS = frozenset({"ssmape", "relaxed_5pct", "relative_1pct"})
"""Metrics whose tolerance is a share of the truth: meaningless for a truth near zero."""
OCCLUDERS = frozenset({"legend", "frame"})
"""What can hide a mark from a question (other marks of the same panel do not)."""

Box = Sequence[float]


def legend_boxes(ctx: FigureContext, panel: dict[str, Any]) -> list[Box]:
    """The boxes of the legends drawn in ``panel``."""
    return [e["bbox"] for e in ctx.elements(panel["index"], "legend")]


def _touches(box: Box, other: Box, margin: float = 0.0) -> bool:
    return (
        box[0] - margin <= other[2]
        and other[0] <= box[2] + margin
        and box[1] - margin <= other[3]
        and other[1] <= box[3] + margin
    )


def mark_hidden(element: dict[str, Any], legends: Iterable[Box]) -> bool:
    """Whether the legend or the frame hides a data mark (rule: hidden marks)."""
    if element.get("empty"):
        return False  # an empty bin has nothing to show; the histogram rules handle it
    if element.get("visible") is not None:  # measured on the raster by the renderer
        covered = bool(OCCLUDERS & set(element.get("occluded_by") or []))
        fraction = element.get("visible_fraction")
        shown = bool(element["visible"]) and (fraction is None or fraction >= MIN_VISIBLE_FRACTION)
        return covered and not shown
    return any(_touches(element["bbox"], legend) for legend in legends)


def hidden_items(ctx: FigureContext, panel: dict[str, Any], kind: str) -> set[int]:
    """The data items (``item`` of the marks of ``kind``) that a legend or the frame hides."""
    legends = legend_boxes(ctx, panel)
    return {
        int(e["item"])
        for e in ctx.elements(panel["index"], kind)
        if e.get("item") is not None and mark_hidden(e, legends)
    }


def all_shown(ctx: FigureContext, panel: dict[str, Any], kind: str) -> bool:
    """Whether every non-empty mark of ``kind`` in ``panel`` is shown."""
    legends = legend_boxes(ctx, panel)
    return not any(mark_hidden(e, legends) for e in ctx.elements(panel["index"], kind))


def _line_half_px(ctx: FigureContext, panel: dict[str, Any]) -> float:
    style, dpi = panel.get("style", {}), float(ctx.record.get("image", {}).get("dpi", 100))
    return max(float(style.get("linewidth", 1.0)) * dpi / 72 / 2, 1.0)


def _mark_half_px(ctx: FigureContext, panel: dict[str, Any]) -> float:
    style, dpi = panel.get("style", {}), float(ctx.record.get("image", {}).get("dpi", 100))
    marker = float(style.get("markersize", 0.0)) * dpi / 72 / 2 if style.get("marker") else 0.0
    return max(marker, _line_half_px(ctx, panel))


def _axis_points(
    ctx: FigureContext, panel: dict[str, Any], axis: int, scale: str
) -> tuple[list[float], list[float]]:
    """(display value, pixel) pairs along one axis: each line box's edges, less half the line
    width, sit at that line's smallest and largest value. A record without line boxes falls
    back to the plot box, whose matplotlib margins (5% of the span) hold all lines."""
    key, half = ("x", "y")[axis], _line_half_px(ctx, panel)
    series = [display(line[key], scale) for line in panel["data"].get("series", [])]
    boxes = {int(e["series"]): e["bbox"] for e in ctx.elements(panel["index"], "line")}
    spans: list[tuple[np.ndarray, float, float]] = []
    if boxes:
        spans = [
            (v, boxes[s][axis] + half, boxes[s][axis + 2] - half)
            for s, v in enumerate(series)
            if s in boxes
        ]
    elif (plot := ctx.elements(panel["index"], "panel")) and series:
        low, high = plot[0]["bbox"][axis], plot[0]["bbox"][axis + 2]
        inset = (high - low) * 0.05 / 1.1
        spans = [(np.concatenate(series), low + inset, high - inset)]
    values: list[float] = []
    pixels: list[float] = []
    for shown, low, high in spans:
        if not np.isfinite(shown).all() or np.ptp(shown) == 0:
            continue
        if axis == 1:  # pixels run down: the largest value is at the top
            low, high = high, low
        values += [float(shown.min()), float(shown.max())]
        pixels += [low, high]
    return values, pixels


def vertex_pixels(ctx: FigureContext, panel: dict[str, Any]) -> list[np.ndarray]:
    """Each line's vertices in PNG pixels (n x 2), NaN where the record cannot place them.

    One affine map per axis (in display coordinates, log10 on a log axis) fitted to the line
    boxes the renderer measured (:func:`_axis_points`).
    """
    columns: list[list[np.ndarray]] = [[], []]
    boxes = {int(e["series"]): e["bbox"] for e in ctx.elements(panel["index"], "line")}
    for axis, key, scale in ((0, "x", "xscale"), (1, "y", "yscale")):
        values, pixels = _axis_points(ctx, panel, axis, panel.get(scale, "linear"))
        fit = np.polyfit(values, pixels, 1) if len(set(values)) >= 2 else None
        for s, line in enumerate(panel["data"].get("series", [])):
            shown = display(line[key], panel.get(scale, "linear"))
            if fit is not None:
                columns[axis].append(fit[0] * shown + fit[1])
            else:  # flat lines only: each runs mid-box
                box = boxes.get(s, (np.nan,) * 4)
                columns[axis].append(np.full(len(shown), (box[axis] + box[axis + 2]) / 2))
    return [np.column_stack(pair) for pair in zip(*columns, strict=True)]


def hidden_vertices(ctx: FigureContext, panel: dict[str, Any]) -> list[set[int]]:
    """Per line of ``panel``, the vertices a legend or the frame hides: the vertex plus its
    marker (or half the line width) and :data:`LEGEND_MARGIN_PX` touch a legend box, or its
    marker is hidden (:func:`mark_hidden`). A line is shown when its set is empty."""
    legends = legend_boxes(ctx, panel)
    n_series = len(panel["data"].get("series", []))
    hidden: list[set[int]] = [set() for _ in range(n_series)]
    for e in ctx.elements(panel["index"], "marker"):
        if e.get("series") is not None and e["series"] < n_series and mark_hidden(e, legends):
            hidden[int(e["series"])].add(int(e["item"]))
    if not legends:
        return hidden
    reach = _mark_half_px(ctx, panel) + LEGEND_MARGIN_PX
    for s, vertices in enumerate(vertex_pixels(ctx, panel)):
        for i, (x, y) in enumerate(vertices):
            if not (np.isfinite(x) and np.isfinite(y)):
                hidden[s].add(i)  # a vertex the record cannot place is not known to be seen
            elif any(_touches((x, y, x, y), legend, reach) for legend in legends):
                hidden[s].add(i)
    return hidden


def separated_vertices(ctx: FigureContext, panel: dict[str, Any], series: int) -> list[int]:
    """The vertices of one line far enough from all its others to be read (rule: separated)."""
    xs = vertex_pixels(ctx, panel)[series][:, 0]
    plot = ctx.elements(panel["index"], "panel")
    width = plot[0]["bbox"][2] - plot[0]["bbox"][0] if plot else 0.0
    gap = max(VERTEX_GAP_SHARE * width, 2 * _mark_half_px(ctx, panel))
    if not np.isfinite(xs).all():
        return []
    apart = np.abs(xs[:, None] - xs[None, :]) >= gap
    np.fill_diagonal(apart, True)
    return [int(i) for i in np.flatnonzero(apart.all(axis=1))]


def binned_mean(counts: Sequence[float], edges: Sequence[float]) -> float | None:
    """The mean a perfect reader of the bars gets: bin centres weighted by bar length."""
    weights = np.asarray(counts, dtype=float)
    if weights.sum() <= 0:
        return None
    e = np.asarray(edges, dtype=float)
    return float(np.average((e[:-1] + e[1:]) / 2, weights=weights))


def hist_mean_readable(
    counts: Sequence[float], edges: Sequence[float], shown: Iterable[int], mean: float
) -> bool:
    """Whether the shown bars (bin indices ``shown``) determine the samples' ``mean``."""
    keep = set(shown)
    seen = [float(c) if i in keep else 0.0 for i, c in enumerate(counts)]
    if sum(c > 0 for c in seen) < MIN_HIST_BARS:
        return False
    reading = binned_mean(seen, edges)
    if reading is None:
        return False
    denominator = abs(reading) + abs(mean)
    return denominator > 0 and abs(2 * (reading - mean) / denominator) <= HIST_MEAN_TOLERANCE


def away_from_zero(truth: Any, span: float, scale: str = "linear") -> bool:
    """Whether a relative metric can score ``truth`` on an axis whose values cover ``span``."""
    if scale == "log":
        return True  # a log axis shows relative size: sSMAPE measures the reading error
    values = truth if isinstance(truth, list) else [truth]
    return all(abs(float(v)) >= NEAR_ZERO_SHARE * abs(span) for v in values)
