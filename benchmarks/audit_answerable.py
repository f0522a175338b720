"""Audit a build for questions whose answer the picture hides; counts per problem and family.

``python benchmarks/audit_answerable.py DIR [BASELINE_DIR]`` reads ``DIR/figures/*.json`` and
``DIR/qa.jsonl`` and prints, independently of :mod:`figgen.vqa.api.answerable` (its own axis maps,
from the tick labels, and its own contour tracing, through matplotlib's contour engine):

- ``under_legend``: value or shape questions on a line series or point set with a vertex inside
  a legend box;
- ``near_duplicate_x``: ``value_at_x`` where another vertex of the line lies within 1% of its x
  span;
- ``near_zero``: sSMAPE and relaxed-5% questions with a truth below 5% of the drawn axis span
  (a reading error of 1% of the span then costs more than 0.2 sSMAPE);
- ``hist_mean_unreadable``: ``hist_mean`` where the bars' mean misses the sample mean by more
  than the 0.05 sSMAPE that scores as correct, or fewer than 3 bars are filled;
- ``n_peaks_not_drawn``: ``n_peaks`` whose answer differs from the innermost contour regions
  matplotlib draws at the stored levels;
- ``unchecked``: items an axis map could not be made for (offset text, too few ticks).

and what a person cannot tell apart (``figgen.vqa.api.answerable``'s by-eye rules, checked here
with their own geometry):

- ``look-alike line items``: questions naming one line of several where another line of the
  panel is less than 20 CIEDE2000 from its colour and not told apart by a dash pattern (same
  style, or a legend sample shorter than 1.5 periods of the style sheet's pattern);
- ``overlapping n_points items``: ``n_points`` where some marker's disc is more than half
  covered by another's (counted on a 41 x 41 grid of sample points in the disc);
- ``tiny trend items``: ``trend`` or ``same_trend`` whose fitted rise or fall (over the points'
  x range, mapped to pixels by the tick labels) is under 20 px or 5% of the plot height;
- ``one-tick log items``: sSMAPE and relative questions about a value on a log axis that shows
  fewer than two labelled ticks.

With BASELINE_DIR (the ``qa.jsonl`` of the same records asked before, e.g. by ``figgen qa`` of
an older checkout on a copy) it also prints how many questions each family lost and their
share.
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import contourpy
import matplotlib as mpl
import matplotlib.style
import numpy as np
from matplotlib.path import Path as MplPath

from figgen._util.colour_distance import colour_difference
from figgen.vqa.api.reading.measures import tick_number
from figgen.vqa.questions.family_table import series_families

SERIES_FAMILIES = series_families()
"""Families that need every point of the series or point set they name."""
DESCENT = 0.125
"""Half the share of a tick label's box height below its baseline (DejaVu and STIX digits)."""
NEAR_DUPLICATE = 0.01
NEAR_ZERO = 0.05
SCORED = 0.05
LOOK_ALIKE = 20.0
"""CIEDE2000 under which two lines of one style are taken for each other."""
SAMPLE_PERIODS = 1.5
MARKER_OVERLAP = 0.5
TREND_PX, TREND_SHARE = 20.0, 0.05
RELATIVE = ("ssmape", "relaxed_5pct", "relative_1pct")
BY_EYE = (
    "look-alike line items",
    "overlapping n_points items",
    "tiny trend items",
    "one-tick log items",
)


@dataclass
class AxisMap:
    """pixel = offset + slope * value (log10 of the value on a log axis)."""

    slope: float
    offset: float
    log: bool

    def pixel(self, values: Iterable[float]) -> np.ndarray:
        v = np.asarray(list(values), dtype=float)
        return self.offset + self.slope * (np.log10(v) if self.log else v)

    def value(self, pixels: Iterable[float]) -> np.ndarray:
        shown = (np.asarray(list(pixels), dtype=float) - self.offset) / self.slope
        return np.asarray(10**shown if self.log else shown)


def elements(record: dict[str, Any], panel: int, *kinds: str) -> list[dict[str, Any]]:
    return [e for e in record["elements"] if e.get("panel") == panel and e["kind"] in kinds]


def axis_map(record: dict[str, Any], panel: dict[str, Any], axis: str) -> AxisMap | None:
    """The data-to-pixel map of one axis, fitted to its tick labels' values and centres."""
    index = panel["index"]
    if any(e.get("axis") in (axis, None) for e in elements(record, index, "offset_text")):
        return None
    values, pixels = [], []
    for label in elements(record, index, f"{axis}tick_label"):
        value = tick_number(str(label.get("text", "")))
        if value is None:
            return None
        x0, y0, x1, y1 = label["bbox"]
        values.append(value)
        # y labels are centred on their tick without the font's descent (matplotlib's
        # "center_baseline"): the tick sits above the middle of the label's box
        pixels.append((x0 + x1) / 2 if axis == "x" else (y0 + y1) / 2 - DESCENT * (y1 - y0))
    log = panel.get(f"{axis}scale", "linear") == "log"
    if log:
        if min(values, default=0) <= 0:
            return None
        values = [float(np.log10(v)) for v in values]
    if len(set(values)) < 2:
        return None
    slope, offset = np.polyfit(values, pixels, 1)
    return AxisMap(float(slope), float(offset), log)


def _inside(x: float, y: float, box: list[float]) -> bool:
    return box[0] <= x <= box[2] and box[1] <= y <= box[3]


def _series_of(record: dict[str, Any], item: dict[str, Any]) -> int | None:
    lines = {e["id"]: e for e in record["elements"] if e["kind"] in ("line", "marker")}
    named = {lines[i]["series"] for i in item["evidence"] if i in lines}
    return named.pop() if len(named) == 1 else None


def _points(
    record: dict[str, Any], panel: dict[str, Any], item: dict[str, Any]
) -> np.ndarray | None:
    """The data points an item needs, in pixels; None where no axis map can be made."""
    xmap, ymap = axis_map(record, panel, "x"), axis_map(record, panel, "y")
    if panel["kind"] == "line":
        series = _series_of(record, item)
        chosen = panel["data"]["series"] if series is None else [panel["data"]["series"][series]]
        xs = [v for s in chosen for v in s["x"]]
        ys = [v for s in chosen for v in s["y"]]
    else:
        xs, ys = panel["data"]["x"], panel["data"]["y"]
    if xmap is None or ymap is None:
        return None
    return np.column_stack([xmap.pixel(xs), ymap.pixel(ys)])


def _axis_span(record: dict[str, Any], panel: dict[str, Any], axis: str) -> float | None:
    """The data range of a linear axis as drawn: the plot box edges mapped back to data."""
    mapping = axis_map(record, panel, axis)
    boxes = elements(record, panel["index"], "panel")
    if mapping is None or mapping.log or not boxes:
        return None
    x0, y0, x1, y1 = boxes[0]["bbox"]
    ends = mapping.value([x0, x1] if axis == "x" else [y0, y1])
    return float(abs(ends[1] - ends[0]))


def _span_for(record: dict[str, Any], panel: dict[str, Any], item: dict[str, Any]) -> float | None:
    family, data = item["family"], panel["data"]
    if family in ("min_z", "max_z"):
        return float(np.ptp(np.asarray(data["z"], dtype=float)))
    if family == "bar_value":
        return None
    if family == "x_range":
        return _axis_span(record, panel, "x")
    if family in ("hist_mean", "max_count", "bin_range"):
        horizontal = data.get("orientation") == "horizontal"
        value_axis, count_axis = ("y", "x") if horizontal else ("x", "y")
        return _axis_span(record, panel, count_axis if family == "max_count" else value_axis)
    return _axis_span(record, panel, "y")


def drawn_peaks(panel: dict[str, Any]) -> int:
    """Innermost filled regions matplotlib's contour engine draws at the stored levels."""
    data = panel["data"]
    z = np.asarray(data["z"], dtype=float)
    generator = contourpy.contour_generator(
        np.asarray(data["x"], dtype=float),
        np.asarray(data["y"], dtype=float),
        z,
        fill_type=contourpy.FillType.OuterOffset,
    )
    levels = sorted(float(v) for v in data["levels"])
    outers = []
    for level in levels:
        points, offsets = generator.filled(level, float(z.max()) + 1.0)
        outers.append([MplPath(p[o[0] : o[1]]) for p, o in zip(points, offsets, strict=True)])
    count = 0
    for k, regions in enumerate(outers):
        higher = outers[k + 1] if k + 1 < len(outers) else []
        for region in regions:
            # a higher region may share the grid's border with this one: test all its vertices
            if not any(region.contains_points(h.vertices).any() for h in higher):
                count += 1
    return count


def _pattern_period(linestyle: str, linewidth: float, mpl_style: str) -> float:
    """One period of a dash pattern in points, as the style sheet sets it (0: solid)."""
    names = {"--": "dashed", "-.": "dashdot", ":": "dotted"}
    if linestyle not in names:
        return 0.0
    params = {**mpl.rcParamsDefault, **matplotlib.style.library.get(mpl_style, {})}
    pattern = params[f"lines.{names[linestyle]}_pattern"]
    return float(sum(pattern)) * (linewidth if params["lines.scale_dashes"] else 1.0)


def look_alike(record: dict[str, Any], panel: dict[str, Any], series: int) -> bool:
    """Whether another line of the panel cannot be told from line ``series``."""
    lines = panel["data"]["series"]
    width = float(panel["style"].get("linewidth", 1.0))
    mpl_style = record.get("style", {}).get("mpl_style", "default")
    legends = elements(record, panel["index"], "legend")
    sample = (
        float(legends[0].get("handle") or 2.0 * record["style"]["sizes"]["legend"])
        if legends
        else None
    )
    me = lines[series]
    for k, other in enumerate(lines):
        if k == series or colour_difference(me["color"], other["color"]) >= LOOK_ALIKE:
            continue
        styles = {me.get("linestyle", "-"), other.get("linestyle", "-")}
        if len(styles) == 1:
            return True
        periods = [_pattern_period(s, width, mpl_style) for s in styles]
        if sample is not None and SAMPLE_PERIODS * max(periods) > sample:
            return True
    return False


def covered_share(boxes: list[list[float]]) -> float:
    """The largest share of a marker's disc (centred in its box, half its longer side) that
    another marker's disc covers, counted on a grid of points in the disc."""
    b = np.asarray(boxes, dtype=float).reshape(-1, 4)
    centres = np.column_stack([(b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2])
    radii = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]) / 2
    unit = np.linspace(-1, 1, 41)
    gx, gy = np.meshgrid(unit, unit)
    in_disc = gx**2 + gy**2 <= 1
    offsets = np.column_stack([gx[in_disc], gy[in_disc]])
    worst = 0.0
    for i in range(len(b)):
        near = np.flatnonzero(np.hypot(*(centres - centres[i]).T) < radii + radii[i])
        near = near[near != i]
        if not len(near):
            continue
        samples = centres[i] + offsets * radii[i]
        for j in near:
            inside = np.hypot(*(samples - centres[j]).T) <= radii[j]
            worst = max(worst, float(inside.mean()))
    return worst


def _point_sets(panel: dict[str, Any], series: int | None) -> list[tuple[list[float], list[float]]]:
    if panel["kind"] == "line":
        chosen = panel["data"]["series"] if series is None else [panel["data"]["series"][series]]
        return [(s["x"], s["y"]) for s in chosen]
    return [(panel["data"]["x"], panel["data"]["y"])]


def trend_change_px(
    record: dict[str, Any], panel: dict[str, Any], x: list[float], y: list[float]
) -> float | None:
    """The fitted rise or fall of the points in pixels, by the tick labels' axis map."""
    ymap = axis_map(record, panel, "y")
    if ymap is None:
        return None
    xs = np.asarray(x, dtype=float)
    xs = np.log10(xs) if panel.get("xscale") == "log" else xs
    ys = ymap.pixel(y)
    keep = np.isfinite(xs) & np.isfinite(ys)
    if keep.sum() < 2 or np.ptp(xs[keep]) == 0:
        return 0.0
    slope = np.polyfit(xs[keep], ys[keep], 1)[0]  # pixels per x unit
    return float(abs(slope) * np.ptp(xs[keep]))


def tiny_trend(record: dict[str, Any], panel: dict[str, Any], series: int | None) -> bool | None:
    """Whether some point set the item judges rises or falls too little to see."""
    boxes = elements(record, panel["index"], "panel")
    height = boxes[0]["bbox"][3] - boxes[0]["bbox"][1] if boxes else 0.0
    for x, y in _point_sets(panel, series):
        change = trend_change_px(record, panel, x, y)
        if change is None:
            return None
        if change < max(TREND_PX, TREND_SHARE * height):
            return True
    return False


def _answer_axis(panel: dict[str, Any], family: str) -> str | None:
    """The axis whose value a relative question asks for (None: not an axis value)."""
    if family in ("min_z", "max_z"):
        return None
    horizontal = panel["data"].get("orientation") == "horizontal"
    if family == "x_range":
        return "x"
    if family in ("hist_mean", "bin_range"):
        return "y" if horizontal else "x"
    if family in ("max_count", "bar_value"):
        return "x" if horizontal else "y"
    return "y"


def one_tick_log(record: dict[str, Any], panel: dict[str, Any], family: str) -> bool:
    axis = _answer_axis(panel, family)
    if axis is None or panel.get(f"{axis}scale") != "log":
        return False
    texts = {str(e.get("text", "")) for e in elements(record, panel["index"], f"{axis}tick_label")}
    return len(texts - {""}) < 2


@dataclass
class Audit:
    asked: Counter[str] = field(default_factory=Counter)
    problems: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def flag(self, problem: str, item: dict[str, Any]) -> None:
        self.problems[problem] += 1
        self.examples.setdefault(problem, [])
        if len(self.examples[problem]) < 3:
            self.examples[problem].append(item["qid"])


def audit_by_eye(audit: Audit, record: dict[str, Any], item: dict[str, Any]) -> None:
    """The four checks of what a person cannot tell apart."""
    panels = {p["index"]: p for p in record["panels"]}
    family = item["family"]
    if family == "same_trend":
        ids = set(item["evidence"])
        shown = {e["panel"] for e in record["elements"] if e["id"] in ids and e["kind"] == "panel"}
        verdicts = [tiny_trend(record, panels[i], None) for i in sorted(shown)]
        if any(verdicts):
            audit.flag("tiny trend items", item)
        return
    panel = panels.get(item.get("panel"))
    if panel is None:
        return
    series = _series_of(record, item) if panel["kind"] == "line" else None
    lines = len(panel["data"].get("series", []))
    if series is not None and lines > 1 and look_alike(record, panel, series):
        audit.flag("look-alike line items", item)
    if family == "n_points":
        boxes = [e["bbox"] for e in elements(record, panel["index"], "point")]
        if covered_share(boxes) > MARKER_OVERLAP:
            audit.flag("overlapping n_points items", item)
    if family == "trend" and tiny_trend(record, panel, series):
        audit.flag("tiny trend items", item)
    if item["metric"] in RELATIVE and one_tick_log(record, panel, family):
        audit.flag("one-tick log items", item)


def audit_item(audit: Audit, record: dict[str, Any], item: dict[str, Any]) -> None:
    audit_by_eye(audit, record, item)
    panels = {p["index"]: p for p in record["panels"]}
    panel = panels.get(item.get("panel"))
    family = item["family"]
    if panel is None:
        return
    if family in SERIES_FAMILIES and panel["kind"] in ("line", "scatter"):
        points = _points(record, panel, item)
        legends = [e["bbox"] for e in elements(record, panel["index"], "legend")]
        if points is None:
            audit.flag("unchecked", item)
        elif any(_inside(x, y, box) for x, y in points for box in legends):
            audit.flag("under_legend", item)
    if family == "value_at_x":
        series = panel["data"]["series"][_series_of(record, item) or 0]
        quoted = float(re.search(r"x = (\S+)\?", item["question"]).group(1))  # type: ignore[union-attr]
        xs = np.asarray(series["x"], dtype=float)
        shown = np.log10(xs) if panel.get("xscale") == "log" else xs
        k = int(np.argmin(np.abs(xs - quoted)))
        others = np.delete(shown, k)
        if np.any(np.abs(others - shown[k]) < NEAR_DUPLICATE * np.ptp(shown)):
            audit.flag("near_duplicate_x", item)
    if item["metric"] in ("ssmape", "relaxed_5pct"):
        span = _span_for(record, panel, item)
        answer = item["answer"] if isinstance(item["answer"], list) else [item["answer"]]
        if span is not None and min(abs(float(v)) for v in answer) < NEAR_ZERO * span:
            audit.flag("near_zero", item)
    if family == "hist_mean":
        counts = np.asarray(panel["data"]["counts"], dtype=float)
        edges = np.asarray(panel["data"]["bin_edges"], dtype=float)
        binned = float(np.sum((edges[:-1] + edges[1:]) / 2 * counts) / counts.sum())
        mean = float(np.mean(panel["data"]["samples"]))
        error = abs(2 * (binned - mean) / (abs(binned) + abs(mean) or 1.0))
        if error > SCORED or int((counts > 0).sum()) < 3:
            audit.flag("hist_mean_unreadable", item)
    if family == "n_peaks" and drawn_peaks(panel) != item["answer"]:
        audit.flag("n_peaks_not_drawn", item)


def audit_build(folder: Path) -> Audit:
    """Audit every item of ``folder/qa.jsonl`` against its record."""
    audit = Audit()
    records: dict[str, dict[str, Any]] = {}
    with (folder / "qa.jsonl").open(encoding="utf-8") as lines:
        for line in lines:
            item = json.loads(line)
            audit.asked[item["family"]] += 1
            figure = item["figure_id"]
            if figure not in records:
                path = folder / "figures" / f"{figure}.json"
                records[figure] = json.loads(path.read_text(encoding="utf-8"))
            audit_item(audit, records[figure], item)
    return audit


def main() -> None:
    folder = Path(sys.argv[1])
    audit = audit_build(folder)
    print(f"{folder}: {sum(audit.asked.values())} questions")
    for problem in (
        "under_legend",
        "near_duplicate_x",
        "near_zero",
        "hist_mean_unreadable",
        "n_peaks_not_drawn",
        "unchecked",
        *BY_EYE,
    ):
        examples = ", ".join(audit.examples.get(problem, []))
        print(
            f"  {problem}: {audit.problems[problem]}" + (f" (e.g. {examples})" if examples else "")
        )
    if len(sys.argv) > 2:
        base = audit_build(Path(sys.argv[2]))
        before = base.asked
        print(f"baseline: {sum(before.values())} questions")
        for problem in BY_EYE:
            print(f"  baseline {problem}: {base.problems[problem]}")
        print("family: baseline -> this build (lost, share withheld)")
        for name in sorted(set(before) | set(audit.asked)):
            old, new = before[name], audit.asked[name]
            if old != new:
                share = f"{(old - new) / old:.1%}" if old else "new"
                print(f"  {name}: {old} -> {new} ({old - new:+d}, {share})")


if __name__ == "__main__":
    main()
