"""Figure-level Level 1-3 text written for listening: a summary across panels, not a list.

A screen-reader user hears the figure text before any panel's. It says what the panels share
and where they differ, and which panel is extreme, within ``WORD_BUDGET`` words; panel details
follow, whole panels in order, only while the budget lasts (each panel has its own
description). No sentence is said twice: a clause that several panels share ("the lines never
cross") is said once, with the number of panels it holds for.

Shapes come from the same measured features as the panel descriptions and the questions
(:mod:`figgen.vqa.api.reading.features`, :mod:`figgen.vqa.api.reading.hedges`): a panel's headline
is the first of its groups, its peaks, or the common direction of its point sets.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

import numpy as np

from figgen.kinds import KINDS
from figgen.kinds.contour import MAX_NAMED_PEAKS, PATCHY
from figgen.schema.panel import PanelRecord
from figgen.vqa.api.context import FigureContext
from figgen.vqa.api.reading import contour_trends, features, hedges
from figgen.vqa.api.reading.readout import spoken_number
from figgen.words.wording import cap, count, join

WORD_BUDGET = 120
"""Words a figure's Level 1, 2 or 3 text may take (about 45 seconds at a reader's pace)."""
MORE = "Each panel's own description gives its details."
LISTED = 2
"""Panels named by location in a shared-shape sentence; more are counted instead."""

_HEADLINES = {  # headline: (verb phrase for several panels, for one)
    "groups": ("show points in groups", "shows points in groups"),
    "rise": ("rise", "rises"),
    "fall": ("fall", "falls"),
    "mixed": ("hold lines that go different ways", "holds lines that go different ways"),
    "flat": ("show no clear trend", "shows no clear trend"),
    "peaks": (
        "show distributions with two or more peaks",
        "shows a distribution with two or more peaks",
    ),
    "one peak": ("show single-peaked distributions", "shows a single-peaked distribution"),
    "no peak": ("show distributions with no clear peak", "shows a distribution with no clear peak"),
    "gradient": (
        "show fields that increase toward one side",
        "shows a field that increases toward one side",
    ),
    "field peaks": ("show fields with separate peaks", "shows a field with separate peaks"),
    "patchy": ("show patchy fields", "shows a patchy field"),
}


def words(text: str) -> int:
    return len(text.split())


def headline(ctx: FigureContext, panel: PanelRecord) -> str | None:
    """The one-word shape of a panel (a key of ``_HEADLINES``), or None for kinds without one."""
    kind = panel.kind
    if kind == "histogram":
        bars = len(features.bars(panel).peaks)
        return "peaks" if bars > 1 else "one peak" if bars == 1 else "no peak"
    if kind == "contour":
        plane = hedges.field_direction(panel)
        if plane and hedges.direction_words(plane[1]):
            return "gradient"
        peaks = contour_trends.field_peaks(panel, PATCHY)
        return "field peaks" if peaks and peaks <= MAX_NAMED_PEAKS else "patchy"
    if kind == "scatter" and features.groups(panel, ctx.panel_aspect(panel)) is not None:
        return "groups"
    point_sets = KINDS[kind].point_sets(panel)
    if not point_sets:
        return None
    ways = set()
    for points in point_sets:
        trend = hedges.drawn_trend(panel, points)
        clear = trend is not None and trend.strength in ("strong", "clear")
        ways.add(("rise" if trend.rising else "fall") if clear and trend else "flat")
    return ways.pop() if len(ways) == 1 else "mixed"


def _named(ctx: FigureContext, panels: Sequence[PanelRecord], total: int) -> str:
    if len(panels) == total:
        return f"All {count(total, 'panel')}" if total > 2 else "Both panels"
    if len(panels) <= LISTED:
        return cap(join([ctx.location(p) for p in panels]))
    return cap(count(len(panels), "panel").replace(" panels", f" of the {total} panels"))


def shape_sentences(ctx: FigureContext) -> list[str]:
    """What the panels' shapes share and where they differ, most common shape first."""
    by_shape: dict[str, list[PanelRecord]] = defaultdict(list)
    for panel in ctx.panels:
        if (shape := headline(ctx, panel)) is not None:
            by_shape[shape].append(panel)
    total = len(ctx.panels)
    out = []
    for shape, panels in sorted(by_shape.items(), key=lambda item: -len(item[1])):
        many, one = _HEADLINES[shape]
        verb = one if len(panels) == 1 and total > 1 else many
        out.append(f"{_named(ctx, panels, total)} {verb}.")
    return out


def extreme_sentences(ctx: FigureContext) -> list[str]:
    """Which panel's values sit highest and lowest (means of panels on linear value axes)."""
    means = []
    for panel in ctx.panels:
        found = KINDS[panel.kind].mean_and_span(panel)
        if found is not None and found[2] == "linear" and np.isfinite(found[0]):
            means.append((found[0], panel))
    if len(means) < 2:
        return []
    means.sort(key=lambda item: item[0])
    (low, lowest), (high, highest) = means[0], means[-1]
    if low == high:
        return []
    return [
        f"Of the {count(len(means), 'panel')} with a mean value, {ctx.location(highest)} has "
        f"the highest (about {spoken_number(high, digits=2)}) and {ctx.location(lowest)} the "
        f"lowest (about {spoken_number(low, digits=2)})."
    ]


def _clauses(sentences: Sequence[str]) -> list[str]:
    """A panel's sentences cut at full stops and semicolons, each once."""
    parts = [c for s in sentences for c in s.removesuffix(".").split("; ") if c]
    return list(dict.fromkeys(parts))


def _lower(clause: str) -> str:
    """A clause continuing a sentence: its first letter lower case (not "The" of a label)."""
    return clause if clause[1:2].isupper() else clause[:1].lower() + clause[1:]


def _block(location: str, clauses: Sequence[str]) -> str:
    """A panel's clauses as one sentence: "The left panel: a; b."."""
    parts = [c if i == 0 else _lower(c) for i, c in enumerate(clauses)]
    return f"{cap(location)}: " + "; ".join(parts) + "."


def panel_blocks(ctx: FigureContext, per_panel: dict[int, list[str]]) -> list[str]:
    """One sentence per panel; clauses that several panels share said once, counted."""
    clauses = {i: _clauses(s) for i, s in per_panel.items()}
    seen: dict[str, int] = defaultdict(int)
    for found in clauses.values():
        for clause in found:
            seen[clause.lower()] += 1
    out = []
    for panel in ctx.panels:
        own = [c for c in clauses.get(panel.index, []) if seen[c.lower()] == 1]
        if own:
            out.append(_block(ctx.location(panel), own))
    shared = [c for c, n in seen.items() if n > 1]
    said = {c.lower(): c for found in clauses.values() for c in found}
    for clause in shared:
        out.append(f"In {count(seen[clause], 'panel')}, {_lower(said[clause])}.")
    return out


def within_budget(summary: Sequence[str], details: Sequence[str], budget: int = WORD_BUDGET) -> str:
    """The summary, then whole detail sentences while they fit ``budget`` words, no repeats."""
    out: list[str] = []
    used = 0
    reserve = words(MORE)
    for sentence in dict.fromkeys([*summary, *details]):
        if used + words(sentence) + reserve > budget:
            continue
        out.append(sentence)
        used += words(sentence)
    if len(out) < len(dict.fromkeys([*summary, *details])) and used + reserve <= budget:
        out.append(MORE)
    return " ".join(out)


def titles_within(opening: str, titled: Sequence[str], budget: int = WORD_BUDGET) -> str:
    """The figure's Level 1 text: ``opening``, then whole panel titles while they fit
    ``budget`` words; titles left out are counted (each panel's own description names it)."""
    said: list[str] = []
    for i, title in enumerate(titled):
        left = len(titled) - i - 1
        rest = f"; and {count(left, 'more titled panel')}" if left else ""
        if words(" ".join([opening, "Titles:", *said, title + rest + "."])) > budget:
            break
        said.append(title)
    if not titled:
        return opening
    if not said:
        return f"{opening} Each panel's own description gives its title."
    left = len(titled) - len(said)
    rest = f"; and {count(left, 'more titled panel')}" if left else ""
    return f"{opening} Titles: {'; '.join(said)}{rest}."


def figure_level2(ctx: FigureContext, per_panel: dict[int, list[str]]) -> str:
    """The figure's Level 2 text: extremes across panels, then panel values while they fit."""
    summary = extreme_sentences(ctx) if len(ctx.panels) > 1 else []
    return within_budget(summary, panel_blocks(ctx, per_panel))


def figure_level3(ctx: FigureContext, per_panel: dict[int, list[str]], cross: Sequence[str]) -> str:
    """The figure's Level 3 text: shared shapes and cross-panel findings, then panels."""
    summary = shape_sentences(ctx) + list(cross) if len(ctx.panels) > 1 else list(cross)
    return within_budget(summary, panel_blocks(ctx, per_panel))
