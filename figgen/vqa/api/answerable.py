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
Truth away from zero (:func:`figgen.vqa.api.context.away_from_zero`): sSMAPE divides by the truth,
    so a truth near zero turns a tiny reading error into the worst score; a relaxed 5% match
    does the same (it allows 5% of the truth). On a linear axis every number of the truth must
    be at least :data:`figgen.vqa.api.context.NEAR_ZERO_SHARE` of the span of the values drawn
    along that axis.
    :meth:`figgen.vqa.api.context.FigureContext.ask` applies it to every family whose metric
    has the tolerance class ``relative`` (:mod:`figgen.schema.metrics`).

What a person can tell apart:

Look-alike lines (:func:`look_alike_lines`, :func:`line_names`): no question names a line when
    another line of the panel is less than
    :data:`~figgen._util.colour_distance.MIN_SERIES_DELTA_E` CIEDE2000 from its colour and
    not told apart by style (the same style, or legend samples shorter than
    :data:`SHOWN_PERIODS` of a differing dash pattern).
Overlapping markers (:func:`markers_apart`): ``n_points`` only when no marker's disc is covered
    by another beyond :data:`MAX_MARKER_OVERLAP`.
Tiny trends (:func:`trend_visible`): ``trend`` and ``same_trend`` only when the fitted rise or
    fall is at least :data:`MIN_TREND_PX` pixels and :data:`MIN_TREND_SHARE` of the plot height.
Readable lengths (:func:`length_readable`): a length read as the difference of two readings
    (a box's IQR, a range bar's length, scored against the axis span) only on an axis drawn
    :data:`MIN_LENGTH_AXIS_PX` long or more, with its two ends :data:`MIN_LENGTH_GAP_PX` apart
    between their lines and the length at least :data:`MIN_LENGTH_SHARE` of the span of the
    values drawn along the axis (the span it is scored against).
One-tick log axes (:meth:`figgen.vqa.api.context.FigureContext.log_axes_labelled`): a
    relative-metric question on a log axis only when each log axis of the panel shows
    :data:`figgen.vqa.api.context.MIN_LOG_TICKS` labelled ticks or more;
    :meth:`figgen.vqa.api.context.FigureContext.ask` applies it.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence

import numpy as np

from figgen._util.colour_distance import MIN_SERIES_DELTA_E, colour_difference
from figgen._util.discs import disc_overlaps
from figgen.schema.elements import Element
from figgen.schema.panel import PanelRecord
from figgen.vqa.api.context import FigureContext
from figgen.vqa.api.reading.drawn import cloud, has_points, line_look, lines
from figgen.vqa.api.reading.line_names import series_names
from figgen.vqa.api.reading.measures import display
from figgen.vqa.api.reading.readout import DrawnAxis

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
OCCLUDERS = frozenset({"legend", "frame"})
"""What can hide a mark from a question (other marks of the same panel do not)."""

Box = Sequence[float]


def legend_boxes(ctx: FigureContext, panel: PanelRecord) -> list[Box]:
    """The boxes of the legends drawn in ``panel``."""
    return [e.bbox for e in ctx.elements(panel.index, "legend")]


def _touches(box: Box, other: Box, margin: float = 0.0) -> bool:
    return (
        box[0] - margin <= other[2]
        and other[0] <= box[2] + margin
        and box[1] - margin <= other[3]
        and other[1] <= box[3] + margin
    )


def mark_hidden(element: Element, legends: Iterable[Box]) -> bool:
    """Whether the legend or the frame hides a data mark (rule: hidden marks)."""
    if element.empty:
        return False  # an empty bin has nothing to show; the histogram rules handle it
    if element.visible is not None:  # measured on the raster by the renderer
        covered = bool(OCCLUDERS & set(element.occluded_by or []))
        fraction = element.visible_fraction
        shown = bool(element.visible) and (fraction is None or fraction >= MIN_VISIBLE_FRACTION)
        return covered and not shown
    return any(_touches(element.bbox, legend) for legend in legends)


def hidden_items(ctx: FigureContext, panel: PanelRecord, kind: str) -> set[int]:
    """The data items (``item`` of the marks of ``kind``) that a legend or the frame hides."""
    legends = legend_boxes(ctx, panel)
    return {
        int(e.item)
        for e in ctx.elements(panel.index, kind)
        if e.item is not None and mark_hidden(e, legends)
    }


def all_shown(ctx: FigureContext, panel: PanelRecord, kind: str) -> bool:
    """Whether every non-empty mark of ``kind`` in ``panel`` is shown."""
    legends = legend_boxes(ctx, panel)
    return not any(mark_hidden(e, legends) for e in ctx.elements(panel.index, kind))


def _line_half_px(ctx: FigureContext, panel: PanelRecord) -> float:
    look = line_look(panel)
    width = look.linewidth if look is not None else 1.0
    return max(width * float(ctx.record.image.dpi) / 72 / 2, 1.0)


def _mark_half_px(ctx: FigureContext, panel: PanelRecord) -> float:
    look = line_look(panel)
    marker = 0.0
    if look is not None and look.marker:
        marker = look.markersize * float(ctx.record.image.dpi) / 72 / 2
    return max(marker, _line_half_px(ctx, panel))


def _axis_points(
    ctx: FigureContext, panel: PanelRecord, axis: int, scale: str
) -> tuple[list[float], list[float]]:
    """(display value, pixel) pairs along one axis: each line box's edges, less half the line
    width, sit at that line's smallest and largest value. A record without line boxes falls
    back to the plot box, whose matplotlib margins (5% of the span) hold all lines."""
    half = _line_half_px(ctx, panel)
    series = [display(line.y if axis else line.x, scale) for line in lines(panel)]
    boxes = {e.series: e.bbox for e in ctx.elements(panel.index, "line") if e.series is not None}
    spans: list[tuple[np.ndarray, float, float]] = []
    if boxes:
        spans = [
            (v, boxes[s][axis] + half, boxes[s][axis + 2] - half)
            for s, v in enumerate(series)
            if s in boxes
        ]
    elif (plot := ctx.elements(panel.index, "panel")) and series:
        low, high = plot[0].bbox[axis], plot[0].bbox[axis + 2]
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


def vertex_pixels(ctx: FigureContext, panel: PanelRecord) -> list[np.ndarray]:
    """Each line's vertices in PNG pixels (n x 2), NaN where the record cannot place them.

    One affine map per axis (in display coordinates, log10 on a log axis) fitted to the line
    boxes the renderer measured (:func:`_axis_points`).
    """
    columns: list[list[np.ndarray]] = [[], []]
    boxes = {e.series: e.bbox for e in ctx.elements(panel.index, "line") if e.series is not None}
    for axis, scale in ((0, panel.xscale), (1, panel.yscale)):
        values, pixels = _axis_points(ctx, panel, axis, scale)
        fit = np.polyfit(values, pixels, 1) if len(set(values)) >= 2 else None
        for s, line in enumerate(lines(panel)):
            shown = display(line.y if axis else line.x, scale)
            if fit is not None:
                columns[axis].append(fit[0] * shown + fit[1])
            else:  # flat lines only: each runs mid-box
                box = boxes.get(s, (np.nan,) * 4)
                columns[axis].append(np.full(len(shown), (box[axis] + box[axis + 2]) / 2))
    return [np.column_stack(pair) for pair in zip(*columns, strict=True)]


def hidden_vertices(ctx: FigureContext, panel: PanelRecord) -> list[set[int]]:
    """Per line of ``panel``, the vertices a legend or the frame hides: the vertex plus its
    marker (or half the line width) and :data:`LEGEND_MARGIN_PX` touch a legend box, or its
    marker is hidden (:func:`mark_hidden`). A line is shown when its set is empty."""
    legends = legend_boxes(ctx, panel)
    n_series = len(lines(panel))
    hidden: list[set[int]] = [set() for _ in range(n_series)]
    for e in ctx.elements(panel.index, "marker"):
        if e.series is not None and e.series < n_series and mark_hidden(e, legends):
            hidden[e.series].add(int(e.item or 0))
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


def separated_vertices(ctx: FigureContext, panel: PanelRecord, series: int) -> list[int]:
    """The vertices of one line far enough from all its others to be read (rule: separated)."""
    xs = vertex_pixels(ctx, panel)[series][:, 0]
    plot = ctx.elements(panel.index, "panel")
    width = plot[0].bbox[2] - plot[0].bbox[0] if plot else 0.0
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


# --- what a person can tell apart -------------------------------------------------------------

DASH_PATTERNS: dict[str, tuple[float, ...]] = {
    "--": (3.7, 1.6),
    "-.": (6.4, 1.6, 1.0, 1.6),
    ":": (1.0, 1.65),
}
"""matplotlib's dash patterns (points, multiplied by the line width) of every style sheet but
``classic``."""
CLASSIC_DASH_PATTERNS: dict[str, tuple[float, ...]] = {
    "--": (6, 6),
    "-.": (3, 5, 1, 5),
    ":": (1, 3),
}
"""``classic``'s patterns, in points whatever the line width (it does not scale dashes)."""
DEFAULT_HANDLE = 2.0
"""matplotlib's legend sample length, in font sizes: what records without ``handle`` drew."""
SHOWN_PERIODS = 1.5
"""A legend sample shows a dash pattern when it holds this many of its periods: one and a half
show the pattern repeat, so a dash-dot is not taken for a dash."""
MAX_MARKER_OVERLAP = 0.5
"""``n_points`` is asked only when no two markers overlap by more than this share of the
smaller one's area (as discs): past it two markers read as one blob with a bump."""
MIN_TREND_PX = 20.0
"""``trend`` and ``same_trend`` need a fitted rise or fall of at least this many pixels..."""
MIN_TREND_SHARE = 0.05
"""...and of this share of the plot height (a few pixels' change reads as flat)."""


def dash_period(linestyle: str, linewidth: float, mpl_style: str) -> float:
    """The length in points of one period of a line style's dash pattern (0 for solid)."""
    if mpl_style == "classic":
        return float(sum(CLASSIC_DASH_PATTERNS.get(linestyle, ())))
    return float(sum(DASH_PATTERNS.get(linestyle, ()))) * linewidth


def handle_length(
    linestyles: Sequence[str], linewidth: float, mpl_style: str, fontsize: float
) -> float:
    """A legend sample length (in font sizes) that shows every dash pattern of the panel
    :data:`SHOWN_PERIODS` times; at least matplotlib's default."""
    period = max((dash_period(s, linewidth, mpl_style) for s in linestyles), default=0.0)
    return max(DEFAULT_HANDLE, SHOWN_PERIODS * period / fontsize)


def _legend_sample_pt(ctx: FigureContext, panel: PanelRecord) -> float | None:
    """The length in points of the panel's legend samples; None when no legend is drawn."""
    legends = ctx.elements(panel.index, "legend")
    if not legends:
        return None
    if legends[0].handle is not None:
        return float(legends[0].handle)
    return DEFAULT_HANDLE * ctx.record.style.sizes.legend


def look_alike_lines(ctx: FigureContext, panel: PanelRecord) -> set[int]:
    """The lines of ``panel`` another line cannot be told from (rule: look-alike lines).

    Two lines look alike when their colours are less than
    :data:`figgen._util.colour_distance.MIN_SERIES_DELTA_E` CIEDE2000 apart and they are not
    told apart by line style: their styles are the same, or a legend is drawn whose samples
    are too short to show :data:`SHOWN_PERIODS` of a differing pattern.
    """
    series = lines(panel)
    style = ctx.record.style.mpl_style
    look = line_look(panel)
    width = look.linewidth if look is not None else 1.0
    sample = _legend_sample_pt(ctx, panel)
    out: set[int] = set()
    for i, j in itertools.combinations(range(len(series)), 2):
        a, b = series[i], series[j]
        if not a.color or not b.color:
            continue
        if colour_difference(a.color, b.color) >= MIN_SERIES_DELTA_E:
            continue
        styles = {a.linestyle, b.linestyle}
        shown = sample is None or all(
            SHOWN_PERIODS * dash_period(s, width, style) <= sample for s in styles
        )
        if len(styles) == 1 or not shown:
            out |= {i, j}
    return out


def line_names(ctx: FigureContext, panel: PanelRecord) -> list[str | None]:
    """:func:`figgen.vqa.api.reading.line_names.series_names`, less the lines that look like
    another."""
    alike = look_alike_lines(ctx, panel)
    return [None if i in alike else name for i, name in enumerate(series_names(panel))]


def marker_overlap(boxes: Sequence[Box]) -> float:
    """The largest share of a marker's disc that another marker covers, the smaller of each
    pair (the larger one's share is smaller)."""
    shares = disc_overlaps(boxes)
    return float(shares.max()) if shares.size else 0.0


def markers_apart(ctx: FigureContext, panel: PanelRecord, kind: str = "point") -> bool:
    """Whether every mark of ``kind`` can be counted (rule: overlapping markers): no two
    overlap by more than :data:`MAX_MARKER_OVERLAP` of the smaller one."""
    boxes = [e.bbox for e in ctx.elements(panel.index, kind)]
    return marker_overlap(boxes) <= MAX_MARKER_OVERLAP


def _pixels_per_unit(ctx: FigureContext, panel: PanelRecord, axis: int) -> float | None:
    """How many pixels one display unit (a decade on a log axis) spans along ``axis``."""
    scale = (panel.xscale, panel.yscale)[axis]
    values: list[float] = []
    pixels: list[float] = []
    for kind in ("point", "marker"):
        for e in ctx.elements(panel.index, kind):
            if e.value:
                values.append(float(display([e.value[axis]], scale)[0]))
                pixels.append((e.bbox[axis] + e.bbox[axis + 2]) / 2)
    if len(set(values)) < 2:
        values, pixels = _axis_points(ctx, panel, axis, scale)
    if len(set(values)) < 2:
        return _plot_pixels_per_unit(ctx, panel, axis, scale)
    keep = np.isfinite(values) & np.isfinite(pixels)
    values, pixels = list(np.asarray(values)[keep]), list(np.asarray(pixels)[keep])
    if len(set(values)) < 2:
        return None
    return abs(float(np.polyfit(values, pixels, 1)[0]))


def _plot_pixels_per_unit(
    ctx: FigureContext, panel: PanelRecord, axis: int, scale: str
) -> float | None:
    """From the plot box alone: matplotlib's margins put the data's span at 1/1.1 of it."""
    drawn = [v for line in lines(panel) for v in (line.y if axis else line.x)]
    if not drawn and has_points(panel):  # a scatter's points
        points = cloud(panel)
        drawn = list(points.y if axis else points.x)
    shown = display(drawn, scale)
    shown = shown[np.isfinite(shown)]
    plot = ctx.elements(panel.index, "panel")
    if not plot or len(shown) < 2 or np.ptp(shown) == 0:
        return None
    size = plot[0].bbox[axis + 2] - plot[0].bbox[axis]
    return float(size / 1.1 / np.ptp(shown))


def trend_pixels(
    ctx: FigureContext, panel: PanelRecord, x: Sequence[float], y: Sequence[float]
) -> float:
    """The rise or fall in pixels of the least-squares line through drawn points, over their
    x range (display coordinates: log10 on a log axis); 0 where it cannot be placed."""
    xs = display(x, panel.xscale)
    ys = display(y, panel.yscale)
    keep = np.isfinite(xs) & np.isfinite(ys)
    per_unit = _pixels_per_unit(ctx, panel, 1)
    if keep.sum() < 2 or np.ptp(xs[keep]) == 0 or per_unit is None:
        return 0.0
    slope = float(np.polyfit(xs[keep], ys[keep], 1)[0])
    return abs(slope) * float(np.ptp(xs[keep])) * per_unit


def trend_visible(
    ctx: FigureContext, panel: PanelRecord, x: Sequence[float], y: Sequence[float]
) -> bool:
    """Whether a point set's fitted rise or fall shows (rule: tiny trends): at least
    :data:`MIN_TREND_PX` pixels and :data:`MIN_TREND_SHARE` of the plot height."""
    plot = ctx.elements(panel.index, "panel")
    height = plot[0].bbox[3] - plot[0].bbox[1] if plot else 0.0
    return trend_pixels(ctx, panel, x, y) >= max(MIN_TREND_PX, MIN_TREND_SHARE * height)


MIN_LENGTH_AXIS_PX = 100.0
"""A length is read only on an axis drawn at least this long (pixels): a pixel is then at most
1% of the axis, so two ends each read within half a pixel stay within ``axis_2pct``'s 2% (of
the span of the values drawn, which the axis shows with margins: about 1/1.1 of it)."""
MIN_LENGTH_GAP_PX = 3.0
"""A length's two ends are told apart when this many pixels lie between their lines."""
MIN_LENGTH_SHARE = 0.04
"""A length is read only when it is at least this share of the span it is scored against:
twice the 2% tolerance of ``axis_2pct``, so that "no length" (0) never scores as correct."""


def length_readable(axis: DrawnAxis, length: float, span: float, line_px: float = 0.0) -> bool:
    """Whether a length drawn along ``axis`` between two ends (lines ``line_px`` wide, 0 for
    the ends of a filled bar) reads by eye (rule: readable lengths); ``span`` is the span of
    the values drawn along the axis, the one the answer is scored against."""
    gap = length * axis.pixels / axis.span - line_px
    return (
        axis.pixels >= MIN_LENGTH_AXIS_PX
        and gap >= MIN_LENGTH_GAP_PX
        and length >= MIN_LENGTH_SHARE * span
    )
