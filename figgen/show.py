"""Draw a record's boxes over its image, coloured by element kind, for checking by eye."""

from __future__ import annotations

import json
from pathlib import Path

from figgen.errors import FiggenError

KIND_COLOURS: dict[str, str] = {
    "figure": "#888888",
    "panel": "#1f77b4",
    "title": "#d62728",
    "xlabel": "#ff7f0e",
    "ylabel": "#ff7f0e",
    "xtick_label": "#2ca02c",
    "ytick_label": "#2ca02c",
    "offset_text": "#17becf",
    "legend": "#9467bd",
    "legend_entry": "#c5b0d5",
    "colorbar": "#8c564b",
    "colorbar_label": "#e377c2",
    "colorbar_tick_label": "#bcbd22",
    "line": "#7f7f7f",
    "marker": "#ff00ff",
    "errorbar": "#00ced1",
    "bar": "#ff4500",
    "point": "#ff00ff",
    "contour_level": "#00bfff",
    "contour_band": "#4169e1",
}


def show_boxes(
    dataset: str | Path,
    figure: str,
    out: str | Path,
    *,
    kinds: set[str] | None = None,
) -> Path:
    """Write ``out``: the figure's PNG with every (or each of ``kinds``) box outlined."""
    from PIL import Image, ImageDraw

    folder = Path(dataset) / "figures"
    record_path = folder / f"{figure}.json"
    if not record_path.exists():
        raise FiggenError(f"no figure {figure!r} in {dataset}; ids look like fig-000000")
    record = json.loads(record_path.read_text("utf-8"))
    image = Image.open(Path(dataset) / record["image"]["file"]).convert("RGB")
    draw = ImageDraw.Draw(image)
    width = max(1, round(min(image.size) / 600))
    for element in record["elements"]:
        if element["kind"] == "figure" or (kinds and element["kind"] not in kinds):
            continue
        x0, y0, x1, y1 = element["bbox"]
        colour = KIND_COLOURS.get(element["kind"], "#000000")
        draw.rectangle([x0, y0, max(x0, x1 - 1), max(y0, y1 - 1)], outline=colour, width=width)
    out = Path(out)
    image.save(out)
    return out
