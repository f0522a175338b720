"""How a question names one line of a line plot.

Line colours are stored as drawn (dark figures use a dark style sheet and light colours; no
colour is inverted after drawing), so the stored hex is the colour a reader sees.
"""

from __future__ import annotations

from typing import Any

from figgen.vqa.colors import color_name


def series_colors(panel: dict[str, Any]) -> list[str | None]:
    """Plain colour name of each line, None where the name is doubtful."""
    names: list[str | None] = []
    for series in panel["data"].get("series", []):
        color = series.get("color")
        names.append(color_name(color) if color else None)
    return names


def series_names(panel: dict[str, Any]) -> list[str | None]:
    """A noun phrase naming each line ("the line labelled "a"", "the red line"), or None.

    Legend labels win where a legend is drawn and the labels are distinct; otherwise a colour
    name that no other line of the panel shares.
    """
    series = panel["data"].get("series", [])
    if len(series) == 1:
        return ["the line"]
    labels = [s.get("label") for s in series]
    if panel.get("style", {}).get("legend") and all(labels) and len(set(labels)) == len(labels):
        return [f'the line labelled "{label}" in the legend' for label in labels]
    colors = series_colors(panel)
    return [
        f"the {name} line" if name is not None and colors.count(name) == 1 else None
        for name in colors
    ]
