"""Every Level 2 answer of real figures, read back from the marks the picture shows.

Each answer is recomputed without the record's data: from the boxes of the marks that are
shown (not under a legend, not hidden by the frame), mapped to data units through the axes as
drawn (the tick labels' values and positions), and must score as correct under the family's
own metric. Lines are drawn with markers here so every vertex has a box. Not recomputed: a
contour plot's ``mean_y`` (the centre of mass of the field is not a mark position).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np
import pytest

from benchmarks.audit_answerable import Audit, AxisMap, audit_item, axis_map, elements
from figgen.config.load import config_from_dict
from figgen.eval.scoring.scoring import score_value
from figgen.vqa import QAItem, questions_for_record
from figgen.vqa.api.reading.measures import tick_number

pytestmark = pytest.mark.slow

CONFIG = {
    "panels": {"mean": 2.0, "std": 2.0, "count": [1, 4]},
    "image": {"dpi": [150, 200], "panel_inches": [3.0, 3.5]},
    "line": {"marker_p": 1.0},
    "style": {"legend_p": 1.0},
}
FIGURES = range(8)


@pytest.fixture(scope="module")
def records() -> list[dict[str, Any]]:
    from figgen.build.figure import generate_figure

    cfg = config_from_dict(CONFIG)
    # the stored JSON: the answers are recomputed with the audit's own readers of it
    return [generate_figure(cfg, 11, i).record.to_dict() for i in FIGURES]


def _centres(record: dict[str, Any], panel: int, marks: list[dict[str, Any]]) -> np.ndarray:
    """Centres of square mark boxes; a box clipped by the plot box keeps its other edges."""
    (plot,) = elements(record, panel, "panel")
    px0, py0, px1, py1 = plot["bbox"]
    out = []
    for mark in marks:
        x0, y0, x1, y1 = mark["bbox"]
        half = max(x1 - x0, y1 - y0) / 2
        cx = x1 - half if x0 <= px0 else x0 + half
        cy = y1 - half if y0 <= py0 else y0 + half
        out.append((cx, cy))
    return np.asarray(out, dtype=float)


def _is_shown(record: dict[str, Any], panel: int, mark: dict[str, Any]) -> bool:
    """Not touching a legend box, and where the renderer measured it, at least 3/4 of its ink
    left by the legend and the frame (other marks of its panel may cover it: they sit there)."""
    x0, y0, x1, y1 = mark["bbox"]
    legends = [e["bbox"] for e in elements(record, panel, "legend")]
    clear = all(x1 < lx0 or lx1 < x0 or y1 < ly0 or ly1 < y0 for lx0, ly0, lx1, ly1 in legends)
    covered = {"legend", "frame"} & set(mark.get("occluded_by") or [])
    return clear and (not covered or mark.get("visible_fraction", 1.0) >= 0.75)


def _shown(record: dict[str, Any], panel: int, marks: list[dict[str, Any]]) -> None:
    for mark in marks:
        assert _is_shown(record, panel, mark), mark


def _point_values(
    record: dict[str, Any], panel: dict[str, Any], item: QAItem
) -> tuple[np.ndarray, np.ndarray] | None:
    index = panel["index"]
    xmap, ymap = axis_map(record, panel, "x"), axis_map(record, panel, "y")
    if xmap is None or ymap is None:
        return None
    if panel["kind"] == "line":
        ids = set(item.evidence)
        named = {e["series"] for e in record["elements"] if e["id"] in ids and "series" in e}
        marks = [
            e for e in elements(record, index, "marker") if len(named) != 1 or e["series"] in named
        ]
    else:
        marks = elements(record, index, "point")
    centres = _centres(record, index, marks)
    xs, ys = xmap.value(centres[:, 0]), ymap.value(centres[:, 1])
    if item.family == "x_range":  # the range needs a shown mark at each end
        for end in (xs.min(), xs.max()):
            at_end = [m for m, x in zip(marks, xs, strict=True) if abs(x - end) <= 1e-9 * abs(end)]
            assert any(_is_shown(record, index, m) for m in at_end), (item.qid, end)
    else:
        _shown(record, index, marks)
    return xs, ys


def _bars(record: dict[str, Any], panel: dict[str, Any]) -> tuple[np.ndarray, np.ndarray] | None:
    """(bin edges, bar lengths) read off the bar boxes."""
    horizontal = panel["data"]["orientation"] == "horizontal"
    value_map = axis_map(record, panel, "y" if horizontal else "x")
    count_map = axis_map(record, panel, "x" if horizontal else "y")
    if value_map is None or count_map is None:
        return None
    bars = [e for e in elements(record, panel["index"], "bar") if not e.get("empty")]
    _shown(record, panel["index"], bars)
    style, dpi = panel["style"], record["image"]["dpi"]
    pad = (style["edgewidth"] if style.get("edgecolor") else 0.0) * dpi / 72 / 2
    lows, highs, lengths = [], [], []
    for bar in bars:
        x0, y0, x1, y1 = bar["bbox"]
        if horizontal:
            a, b = value_map.value([y1 - pad, y0 + pad])
            length = count_map.value([x1 - pad])[0]
        else:
            a, b = value_map.value([x0 + pad, x1 - pad])
            length = count_map.value([y0 + pad])[0]
        lows.append(min(a, b))
        highs.append(max(a, b))
        lengths.append(max(float(length), 0.0))
    order = np.argsort(lows)
    edges = np.append(np.asarray(lows)[order], np.asarray(highs)[order][-1])
    return edges, np.asarray(lengths)[order]


def _colorbar_ends(record: dict[str, Any], panel: int) -> list[float] | None:
    if elements(record, panel, "offset_text"):
        return None
    (bar,) = elements(record, panel, "colorbar")
    x0, y0, x1, y1 = bar["bbox"]
    vertical = y1 - y0 > x1 - x0
    values, pixels = [], []
    for label in elements(record, panel, "colorbar_tick_label"):
        value = tick_number(str(label.get("text", "")))
        if value is None:
            return None
        lx0, ly0, lx1, ly1 = label["bbox"]
        values.append(value)
        pixels.append((ly0 + ly1) / 2 if vertical else (lx0 + lx1) / 2)
    if len(set(values)) < 2:
        return None
    slope, offset = np.polyfit(values, pixels, 1)
    ends = AxisMap(float(slope), float(offset), log=False).value([y1, y0] if vertical else [x0, x1])
    return sorted(float(v) for v in ends)


def recompute(record: dict[str, Any], item: QAItem) -> Any:
    """The item's answer from the shown marks; None where this test has no reading for it."""
    panel = {p["index"]: p for p in record["panels"]}[item.panel]
    family, kind = item.family, panel["kind"]
    if kind in ("line", "scatter") and family in ("mean_y", "median_y", "min_y", "max_y"):
        read = _point_values(record, panel, item)
        if read is None:
            return None
        reduce = {"mean_y": np.mean, "median_y": np.median, "min_y": np.min, "max_y": np.max}
        return float(reduce[family](read[1]))
    if kind in ("line", "scatter") and family in ("x_range", "value_at_x"):
        read = _point_values(record, panel, item)
        if read is None:
            return None
        xs, ys = read
        if family == "x_range":
            return [float(xs.min()), float(xs.max())]
        quoted = float(item.question.split("x = ")[1].split("?")[0])
        return float(ys[int(np.argmin(np.abs(xs - quoted)))])
    if kind == "histogram" and family in ("hist_mean", "max_count", "bin_range"):
        bars = _bars(record, panel)
        if bars is None:
            return None
        edges, lengths = bars
        if family == "max_count":
            return float(lengths.max())
        if family == "bin_range":
            filled = np.flatnonzero(lengths > 0.5)
            return [float(edges[filled[0]]), float(edges[filled[-1] + 1])]
        return float(np.average((edges[:-1] + edges[1:]) / 2, weights=lengths))
    if kind == "contour" and family == "x_range":
        xmap = axis_map(record, panel, "x")
        (plot,) = elements(record, panel["index"], "panel")
        if xmap is None:
            return None
        return sorted(float(v) for v in xmap.value([plot["bbox"][0], plot["bbox"][2]]))
    if kind == "contour" and family in ("min_z", "max_z"):
        ends = _colorbar_ends(record, panel["index"])
        return None if ends is None else ends[0 if family == "min_z" else 1]
    return None


def test_every_level2_answer_reads_back_from_the_shown_marks(
    records: list[dict[str, Any]],
) -> None:
    checked: Counter[str] = Counter()
    skipped: Counter[str] = Counter()
    wrong = []
    for record in records:
        for item in questions_for_record(record):
            if item.level != 2 or item.scope != "panel":
                continue
            reading = recompute(record, item)
            if reading is None:
                skipped[item.family] += 1
                continue
            checked[item.family] += 1
            if not score_value(item.metric, reading, item.answer).correct:
                wrong.append((item.qid, item.answer, reading))
    assert not wrong, wrong
    assert sum(checked.values()) >= 60, checked
    assert {"mean_y", "value_at_x", "x_range"} <= set(checked), checked
    assert sum(skipped.values()) <= 0.2 * sum(checked.values()) + 5, skipped


def test_the_audit_finds_nothing_to_withhold(records: list[dict[str, Any]]) -> None:
    audit = Audit()
    for record in records:
        for item in questions_for_record(record):
            audit_item(audit, record, item.to_dict())
    assert sum(v for k, v in audit.problems.items() if k != "unchecked") == 0, audit.problems


def test_the_drawn_contour_levels_are_the_levels_peaks_are_judged_at(
    records: list[dict[str, Any]],
) -> None:
    panels = 0
    for record in records:
        for panel in record["panels"]:
            if panel["kind"] != "contour" or panel["style"]["contour_style"] == "image":
                continue
            drawn = {e["value"][0] for e in elements(record, panel["index"], "contour_level")}
            assert drawn and drawn <= set(panel["data"]["levels"]), panel["index"]
            panels += 1
    assert panels >= 1
