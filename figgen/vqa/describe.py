"""Reference descriptions (alt text) at Levels 1-3 for each figure and each panel.

Level 1 says what is there (panel types, titles, axes, marks), Level 2 gives the values a reader
would take off the axes, Level 3 states only the trends that pass the rules in
:mod:`figgen.vqa.trends`. Everything is generated from the record.
"""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

import numpy as np

from figgen.kinds import KINDS, noun
from figgen.vqa import contour_trends, trends
from figgen.vqa.context import FigureContext
from figgen.vqa.series import series_colors, series_names
from figgen.vqa.value_questions import contour_mean_y

_NUMBER_WORDS = (
    "no",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
)


def _count(n: int, noun: str) -> str:
    word = _NUMBER_WORDS[n] if n < len(_NUMBER_WORDS) else str(n)
    return f"{word} {noun}{'' if n == 1 else 's'}"


def _num(value: float) -> str:
    return f"{value:.3g}".replace("e+0", "e").replace("e-0", "e-")


def _join(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


def _cap(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


def _panel_level1(ctx: FigureContext, panel: dict[str, Any]) -> str:
    data, kind = panel["data"], panel["kind"]
    out = [
        f"{_cap(ctx.location(panel))} is a {noun(kind)}"
        + (f' titled "{panel["title"]}".' if panel.get("title") else " with no title.")
    ]
    for axis in ("x", "y"):
        label = panel.get(f"{axis}label")
        scale = "logarithmic" if panel.get(f"{axis}scale") == "log" else "linear"
        named = f'labelled "{label}"' if label else "unlabelled"
        out.append(f"The {axis} axis is {named} and {scale}.")
    if kind == "line":
        colors = series_colors(panel)
        shown = [c for c in colors if c]
        out.append(
            f"It shows {_count(len(data['series']), 'line')}"
            + (f" ({_join(shown)})" if len(shown) == len(colors) else "")
            + (" with markers." if panel.get("style", {}).get("marker") else ".")
        )
        labels = [s.get("label") for s in data["series"]]
        if panel.get("style", {}).get("legend") and all(labels):
            out.append("A legend names them " + _join([f'"{label}"' for label in labels]) + ".")
    elif kind == "scatter":
        out.append(f"It shows {_count(len(data['x']), 'point')}.")
    elif kind == "histogram":
        direction = "horizontal" if data.get("orientation") == "horizontal" else "vertical"
        out.append(f"It shows {_count(len(data['counts']), direction + ' bin')}.")
    elif kind == "contour":
        style = panel.get("style", {}).get("contour_style")
        how = {
            "image": "a filled colour image",
            "lines": "contour lines",
            "both": "a filled colour image with contour lines",
        }.get(style, "contours")
        out.append(f"It is drawn as {how} with {_count(len(data.get('levels', [])), 'level')}.")
    out += KINDS[kind].describe(ctx, panel, 1)
    cmap = panel.get("style", {}).get("colormap")
    if cmap and (kind == "contour" or (kind == "scatter" and data.get("c") is not None)):
        out.append(f"Colours follow the {cmap} colormap.")
    return " ".join(out)


def _panel_level2(ctx: FigureContext, panel: dict[str, Any]) -> str:
    data, kind = panel["data"], panel["kind"]
    own = KINDS[kind].describe(ctx, panel, 2)
    if own:
        return " ".join(own)
    if kind == "line":
        out = []
        for series, name in zip(data["series"], series_names(panel), strict=True):
            ys = series["y"]
            who = _cap(name) if name else "One line"
            out.append(
                f"{who} runs from x = {_num(min(series['x']))} to {_num(max(series['x']))}"
                f" with y between {_num(min(ys))} and {_num(max(ys))} "
                f"(mean {_num(statistics.fmean(ys))})."
            )
        return " ".join(out)
    if kind == "scatter":
        ys = data["y"]
        return (
            f"The points span x from {_num(min(data['x']))} to {_num(max(data['x']))} and "
            f"y from {_num(min(ys))} to {_num(max(ys))}, with mean y "
            f"{_num(statistics.fmean(ys))} and median y {_num(statistics.median(ys))}."
        )
    if kind == "histogram":
        counts, edges = data["counts"], data["bin_edges"]
        top = int(np.argmax(counts))
        centre = (edges[top] + edges[top + 1]) / 2
        return (
            f"The bars cover values from {_num(edges[0])} to {_num(edges[-1])}; the "
            f"tallest bar holds {_num(counts[top])} at about {_num(centre)}. The underlying "
            f"data ({_count(len(data['samples']), 'value')}) have mean "
            f"{_num(statistics.fmean(data['samples']))}."
        )
    z = np.asarray(data["z"], dtype=float)
    row, col = np.unravel_index(int(np.argmax(z)), z.shape)
    text = (
        f"The field covers x from {_num(min(data['x']))} to {_num(max(data['x']))} and y "
        f"from {_num(min(data['y']))} to {_num(max(data['y']))}; its values run from "
        f"{_num(z.min())} to {_num(z.max())}, highest near x = {_num(data['x'][col])}, "
        f"y = {_num(data['y'][row])}."
    )
    mean = contour_mean_y(panel)
    return text + (f" Its mean y is {_num(mean)}." if mean is not None else "")


def panel_trend_sentences(ctx: FigureContext, panel: dict[str, Any]) -> list[str]:
    """The Level 3 statements that pass the rules in :mod:`figgen.vqa.trends`."""
    out: list[str] = []
    kind = panel["kind"]
    if kind in ("line", "scatter"):
        names = series_names(panel) if kind == "line" else ["the points"]
        plural = kind == "scatter"
        for i, ((x, y), name) in enumerate(zip(trends.point_sets(panel), names, strict=True)):
            verdict = trends.linearity(
                x,
                y,
                panel["distribution"],
                panel.get("xscale", "linear"),
                panel.get("yscale", "linear"),
            )
            who = _cap(name) if name else "One line"
            if verdict == "linear":
                trend = trends.series_trend(panel, i)
                way = {
                    "increasing": "rise" if plural else "rises",
                    "decreasing": "fall" if plural else "falls",
                }.get(trend or "", "follow" if plural else "follows")
                out.append(f"{who} {way} along a straight line.")
            elif verdict == "nonlinear":
                out.append(f"{who} {'do' if plural else 'does'} not follow a straight line.")
    if kind == "histogram":
        shape = trends.symmetry(panel)
        if shape is not None:
            out.append(f"The distribution is {shape}.")
        modes = trends.n_modes(panel)
        if modes is not None:
            out.append(f"It has {_count(modes, 'peak')}.")
    peaks = contour_trends.n_peaks(panel) if kind == "contour" else None
    if peaks is not None:
        out.append(f"The field has {_count(peaks, 'separate peak')}.")
    direction = contour_trends.gradient_direction(panel) if kind == "contour" else None
    if direction is not None:
        out.append(f"The values increase from {direction}.")
    clusters = trends.n_clusters(panel, ctx.panel_aspect(panel)) if kind == "scatter" else None
    if clusters is not None:
        out.append(f"The points form {_count(clusters, 'separate cluster')}.")
    return out + KINDS[kind].describe(ctx, panel, 3)


def describe_record(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows ``{figure_id, scope, panel, location, level, text}``: figure first, then panels."""
    ctx = FigureContext(record)
    panels = ctx.panels
    rows: list[dict[str, Any]] = []

    def add(scope: str, panel: dict[str, Any] | None, level: int, text: str) -> None:
        rows.append(
            {
                "figure_id": ctx.figure_id,
                "scope": scope,
                "panel": panel["index"] if panel else None,
                "location": ctx.location(panel) if panel else None,
                "level": level,
                "text": text,
            }
        )

    kinds = Counter(p["kind"] for p in panels)
    inventory = _join([_count(kinds[k], noun(k)) for k in KINDS if kinds[k]])
    if len(panels) == 1:
        summary = f"A figure with a single panel, a {noun(panels[0]['kind'])}."
    else:
        summary = (
            f"A figure with {len(panels)} panels in {_count(ctx.rows, 'row')} and "
            f"{_count(ctx.cols, 'column')}: {inventory}."
        )
    titled = [f'{ctx.location(p)}: "{p["title"]}"' for p in panels if p.get("title")]
    if titled:
        summary += " Titles: " + "; ".join(titled) + "."
    level2 = {p["index"]: _panel_level2(ctx, p) for p in panels}
    level3 = {p["index"]: panel_trend_sentences(ctx, p) for p in panels}
    add("figure", None, 1, summary)
    add(
        "figure",
        None,
        2,
        " ".join(f"{_cap(ctx.location(p))}: {level2[p['index']]}" for p in panels),
    )
    stated = [
        f"{_cap(ctx.location(p))}: " + " ".join(level3[p["index"]])
        for p in panels
        if level3[p["index"]]
    ]
    add(
        "figure",
        None,
        3,
        " ".join(stated)
        if stated
        else "No panel shows a trend that can be stated with confidence.",
    )
    for p in panels:
        add("panel", p, 1, _panel_level1(ctx, p))
        add("panel", p, 2, level2[p["index"]])
        add(
            "panel",
            p,
            3,
            " ".join(level3[p["index"]])
            or "No overall trend can be stated with confidence from this panel.",
        )
    return rows
