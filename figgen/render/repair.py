"""Find layout problems on measured boxes and plan spec edits that remove them.

Problems: two text boxes overlap; a text box overlaps another panel's plot area or colorbar;
a box leaves the canvas; a panel's plot area shrinks below a share of its grid cell.
Repairs edit the spec (fewer ticks, smaller fonts, a larger canvas), so the stored spec of
the final figure draws the same image again without any repair.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from figgen.config.load import FigureConfig
from figgen.kinds import KINDS
from figgen.render.boxes import area, inside, overlaps
from figgen.render.elements import Measured
from figgen.sample.layout import snap_inches
from figgen.schema.elements import Element
from figgen.schema.spec import FigureSpec, PanelSpec

FONT_OF_KIND = {
    "title": "title",
    "xlabel": "label",
    "ylabel": "label",
    "xtick_label": "tick",
    "ytick_label": "tick",
    "offset_text": "tick",
    "legend": "legend",
    "colorbar_label": "colorbar",
    "colorbar_tick_label": "colorbar",
}
TEXT_BOX_KINDS = frozenset(FONT_OF_KIND)
"""The texts checked for overlaps: the record's text kinds, with a legend as one box (its
entries sit inside it)."""
MIN_FONT = {"title": 5.0, "label": 5.0, "tick": 4.0, "colorbar": 4.0, "legend": 4.0}
SHRINK = 0.75
MIN_PANEL_SHARE = 0.2
TICK_KINDS = frozenset({"xtick_label", "ytick_label", "colorbar_tick_label"})


@dataclass(frozen=True)
class Problem:
    kind: str  # "overlap" | "on_panel" | "off_canvas" | "small_panel"
    a: Element
    b: Element | None = None

    def describe(self) -> str:
        other = f" / {self.b.kind}#{self.b.id}" if self.b else ""
        return f"{self.kind}: {self.a.kind}#{self.a.id}{other}"


def find_problems(measured: Measured, spec: FigureSpec) -> list[Problem]:
    elements = measured.elements
    canvas = elements[0].bbox
    texts = [e for e in elements if e.kind in TEXT_BOX_KINDS]
    areas = [e for e in elements if e.kind in ("panel", "colorbar")]
    owner = {e.id: (e.panel, e.id in measured.colorbar_ids) for e in texts + areas}
    problems: list[Problem] = []

    boxes = np.array([t.bbox for t in texts], dtype=float).reshape(-1, 4)
    if len(texts) > 1:
        ix = np.minimum(boxes[:, None, 2], boxes[None, :, 2]) - np.maximum(
            boxes[:, None, 0], boxes[None, :, 0]
        )
        iy = np.minimum(boxes[:, None, 3], boxes[None, :, 3]) - np.maximum(
            boxes[:, None, 1], boxes[None, :, 1]
        )
        hit = np.triu((ix > 0) & (iy > 0), k=1)
        for i, j in zip(*np.nonzero(hit), strict=True):
            problems.append(Problem("overlap", texts[i], texts[j]))
    for text in texts:
        for region in areas:
            if owner[text.id] != owner[region.id] and overlaps(text.bbox, region.bbox):
                problems.append(Problem("on_panel", text, region))
    for element in texts + areas:
        if not inside(element.bbox, canvas):
            problems.append(Problem("off_canvas", element))
    cell = area(canvas) / (spec.layout.rows * spec.layout.cols)
    for region in areas:
        if region.kind != "panel" or region.panel is None:
            continue
        # the room the layout gave the panel: a map or a pie keeps its aspect within it
        room = measured.allotted.get(region.panel, region.bbox)
        if area(room) < MIN_PANEL_SHARE * cell:
            problems.append(Problem("small_panel", region))
    return problems


def plan_repair(
    spec: FigureSpec,
    problems: list[Problem],
    measured: Measured,
    cfg: FigureConfig,
) -> list[dict[str, Any]]:
    """Edit ``spec`` in place to remove ``problems``; return the actions taken (empty: stuck).

    Sizes are cut by what the geometry needs (a title wider than its grid cell shrinks to fit
    in one pass), tick density by the room the labels need, so few passes are needed.
    """
    elements = measured.elements
    canvas = elements[0].bbox
    cell_w = (canvas[2] - canvas[0]) / spec.layout.cols
    cell_h = (canvas[3] - canvas[1]) / spec.layout.rows
    actions: list[dict[str, Any]] = []
    factors: dict[str, float] = {}
    crowded: set[tuple[int | None, str]] = set()

    def need(font: str, factor: float) -> None:
        factors[font] = min(factors.get(font, 1.0), factor)

    for problem in problems:
        a, b = problem.a, problem.b
        if problem.kind == "small_panel":
            for font in MIN_FONT:
                need(font, SHRINK)
            continue
        if (
            problem.kind == "overlap"
            and b is not None
            and a.kind == b.kind
            and a.panel == b.panel
            and a.kind in TICK_KINDS
        ):
            if (a.panel, a.kind) in crowded:
                continue
            action = _fewer_ticks(spec, a, elements)
            if action is not None:
                crowded.add((a.panel, a.kind))
                actions.append(action)
                continue
        for element in (a, b):
            if element is None or element.kind not in FONT_OF_KIND:
                continue
            factor = SHRINK
            x0, y0, x1, y1 = element.bbox
            if element.kind in ("title", "xlabel", "colorbar_label"):
                factor = min(factor, 0.92 * cell_w / max(x1 - x0, 1.0))
            elif element.kind == "ylabel":
                factor = min(factor, 0.92 * cell_h / max(y1 - y0, 1.0))
            need(FONT_OF_KIND[element.kind], factor)
    sizes = spec.style.sizes
    for font, factor in sorted(factors.items()):
        old = getattr(sizes, font)
        new = max(MIN_FONT[font], math.floor(old * max(factor, 0.4) * 2) / 2)
        if new < old:
            setattr(sizes, font, new)
            actions.append({"action": "shrink_font", "target": font, "from": old, "to": new})
    if factors and not any(a["action"] == "shrink_font" for a in actions):
        grow = _grow_canvas(spec, cfg)
        if grow:
            actions.append(grow)
    return actions


def _fewer_ticks(spec: FigureSpec, tick: Element, elements: list[Element]) -> dict[str, Any] | None:
    """Lower the crowded axis's tick count to what its length holds; None at the floor."""
    assert tick.panel is not None
    same = [e for e in elements if e.kind == tick.kind and e.panel == tick.panel]
    if tick.kind == "colorbar_tick_label":
        region = next(e for e in elements if e.kind == "colorbar" and e.panel == tick.panel).bbox
        vertical = (region[3] - region[1]) > (region[2] - region[0])
        key = "cbar_nbins"
    else:
        region = next(e for e in elements if e.kind == "panel" and e.panel == tick.panel).bbox
        vertical = tick.kind == "ytick_label"
        key = f"{tick.kind[0]}_nbins"
        panel = spec.panels[tick.panel]
        if tick.kind[0] in (KINDS[panel.kind].category_axis(panel) or ""):
            return _turn_category_labels(panel, tick)
        minor_key = f"{tick.kind[0]}_minor_labels"
        is_log = (panel.yscale if vertical else panel.xscale) == "log"
        if is_log and panel.style.get(minor_key, True):
            # Log axes label minor ticks over short ranges; those crowd first.
            panel.style[minor_key] = False
            return {"action": "hide_minor_labels", "panel": tick.panel, "target": minor_key}
    length = region[3] - region[1] if vertical else region[2] - region[0]
    size = max((e.bbox[3] - e.bbox[1]) if vertical else (e.bbox[2] - e.bbox[0]) for e in same)
    style = spec.panels[tick.panel].style
    current = style.get(key) or len(same)
    target = max(1, min(current - 1, int(length // (1.6 * max(size, 1.0))) - 1))
    if current <= 1 or target >= current:
        return None
    style[key] = target
    return {"action": "fewer_ticks", "panel": tick.panel, "target": key, "nbins": target}


def _turn_category_labels(panel: PanelSpec, tick: Element) -> dict[str, Any] | None:
    """Category labels are never thinned: crowded x labels turn upright; otherwise None."""
    key = "x_tick_rotation"
    if tick.kind != "xtick_label" or panel.style.get(key):
        return None
    panel.style[key] = 90
    return {"action": "turn_labels", "panel": tick.panel, "target": key}


def _grow_canvas(spec: FigureSpec, cfg: FigureConfig) -> dict[str, Any] | None:
    img = cfg.image
    factor = min(1.25, img.max_inches / spec.width_in, img.max_inches / spec.height_in)
    if factor <= 1.01:
        return None
    old = (spec.width_in, spec.height_in, spec.dpi)
    width, height = spec.width_in * factor, spec.height_in * factor
    max_dpi = int((img.max_pixels / (width * height)) ** 0.5)
    spec.dpi = max(img.dpi[0], min(spec.dpi, max_dpi))
    spec.width_in = snap_inches(width, spec.dpi)
    spec.height_in = snap_inches(height, spec.dpi)
    return {
        "action": "grow_canvas",
        "from": list(old),
        "to": [spec.width_in, spec.height_in, spec.dpi],
    }
