"""Level 3 sentences about several panels at once: which rises fastest, which axes are shared.

Fastest rise (or fall): among panels on linear axes whose every point set shows at least a
    clear drawn trend (|r| >= 0.6, :mod:`figgen.vqa.api.reading.hedges`) in the same direction, the
    one whose steepest set has the largest slope in data units, said only where two or more panels
    qualify and the leader is at least ``LEAD`` steeper than the runner-up.
Shared axes: panels whose drawn tick labels along an axis are identical (two or more panels,
    all of them or all in one row or column) share that axis.
"""

from __future__ import annotations

from figgen.kinds import KINDS
from figgen.schema.panel import PanelRecord
from figgen.vqa.api.context import FigureContext
from figgen.vqa.api.reading.hedges import drawn_trend
from figgen.vqa.api.reading.readout import spoken_number
from figgen.vqa.api.reading.trends import linear_axes
from figgen.words.wording import cap, count, join

LEAD = 0.1


def cross_panel_sentences(ctx: FigureContext) -> list[str]:
    """The cross-panel sentences of a figure with two or more panels."""
    if len(ctx.panels) < 2:
        return []
    out = [s for rising in (True, False) if (s := _fastest(ctx, rising=rising))]
    return out + _shared_axes(ctx)


def _steepest(panel: PanelRecord, *, rising: bool) -> float | None:
    """The steepest slope of a panel whose every point set clearly rises (falls), else None."""
    point_sets = KINDS[panel.kind].point_sets(panel)
    if not point_sets or not linear_axes(panel):
        return None
    slopes = []
    for points in point_sets:
        trend = drawn_trend(panel, points)
        if trend is None or trend.strength not in ("strong", "clear") or trend.rising != rising:
            return None
        slopes.append(abs(trend.slope))
    return max(slopes)


def _fastest(ctx: FigureContext, *, rising: bool) -> str | None:
    steep = [(s, p) for p in ctx.panels if (s := _steepest(p, rising=rising)) is not None]
    if len(steep) < 2:
        return None
    steep.sort(key=lambda item: item[0], reverse=True)
    (best, panel), (second, _) = steep[0], steep[1]
    if best < (1 + LEAD) * second:
        return None
    way = "rise" if rising else "fall"
    per = spoken_number(best, digits=2)
    return (
        f"Of the {count(len(steep), 'panel')} that {way}, {ctx.location(panel)} {way}s fastest "
        f"(about {per} per unit of x)."
    )


def _ticks(ctx: FigureContext, panel: PanelRecord, axis: str) -> tuple[str, ...]:
    elements = ctx.elements(panel.index, f"{axis}tick_label")
    position = 0 if axis == "x" else 1
    ordered = sorted(elements, key=lambda e: e.bbox[position])
    return tuple((e.text or "") for e in ordered)


def _shared_axes(ctx: FigureContext) -> list[str]:
    out = []
    for axis, line in (("x", "col"), ("y", "row")):
        ticks = {p.index: _ticks(ctx, p, axis) for p in ctx.panels}
        if any(not t for t in ticks.values()):
            continue  # tick labels not drawn (or not measured): nothing to compare
        if len(set(ticks.values())) == 1:
            out.append(f"All panels share the same {axis} axis.")
            continue
        lines = sorted({_place(p, line) for p in ctx.panels})
        shared = []
        for key in lines:
            members = [p for p in ctx.panels if _place(p, line) == key]
            if len(members) > 1 and len({ticks[p.index] for p in members}) == 1:
                shared.append(members)
        word = "column" if line == "col" else "row"
        if shared and len(shared) == len(lines):
            out.append(f"The panels in each {word} share the same {axis} axis.")
        for members in shared if len(shared) < len(lines) else []:
            out.append(
                cap(f"{join([ctx.location(p) for p in members])} share the same {axis} axis.")
            )
    return out


def _place(panel: PanelRecord, line: str) -> int:
    """The panel's grid column (``line`` "col") or row."""
    return panel.col if line == "col" else panel.row
