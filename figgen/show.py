"""Draw a record's boxes over its image, coloured by element kind, for checking by eye."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from figgen.errors import FiggenError

if TYPE_CHECKING:
    from PIL import Image

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
    "marker": "#8b008b",
    "errorbar": "#00ced1",
    "bar": "#ff4500",
    "point": "#ff00ff",
    "contour_level": "#00bfff",
    "contour_band": "#4169e1",
    "cell": "#32cd32",
    "cell_text": "#ff1493",
    "region": "#ffa500",
    "region_label": "#ff1493",
}


def show_boxes(
    dataset: str | Path,
    figure: str,
    out: str | Path,
    *,
    kinds: set[str] | None = None,
) -> Path:
    """Write ``out``: the figure's PNG with every (or each of ``kinds``) box outlined, and a
    key of the colours below it (the image keeps its size and pixel coordinates above)."""
    from PIL import Image, ImageDraw

    record_path = _record_path(Path(dataset), figure)
    unknown = sorted((kinds or set()) - set(KIND_COLOURS))
    if unknown:
        raise FiggenError(
            f"unknown element kind {unknown[0]!r} for --kind; kinds: {', '.join(KIND_COLOURS)}"
        )
    record = json.loads(record_path.read_text("utf-8"))
    image = Image.open(Path(dataset) / record["image"]["file"]).convert("RGB")
    draw = ImageDraw.Draw(image)
    width = max(1, round(min(image.size) / 600))
    shown: set[str] = set()
    for element in record["elements"]:
        if element["kind"] == "figure" or (kinds and element["kind"] not in kinds):
            continue
        x0, y0, x1, y1 = element["bbox"]
        colour = KIND_COLOURS.get(element["kind"], "#000000")
        draw.rectangle([x0, y0, max(x0, x1 - 1), max(y0, y1 - 1)], outline=colour, width=width)
        shown.add(element["kind"])
    out = Path(out)
    with_key(image, [kind for kind in KIND_COLOURS if kind in shown]).save(out)
    return out


def with_key(image: Image.Image, kinds: list[str]) -> Image.Image:
    """``image`` above a white band naming each of ``kinds`` beside a swatch of its colour."""
    from PIL import Image, ImageDraw, ImageFont

    size = max(10, min(24, image.width // 40))
    font = ImageFont.load_default(size=size)
    swatch, gap, line = size, size // 2, size + size // 2
    entries: list[tuple[int, int, str]] = []  # x, row, kind
    x = row = 0
    for kind in kinds:
        advance = swatch + gap + round(font.getlength(kind)) + 2 * gap
        if x and x + advance > image.width:
            x, row = 0, row + 1
        entries.append((x, row, kind))
        x += advance
    rows = row + 1 if entries else 0
    keyed = Image.new("RGB", (image.width, image.height + rows * line + gap), "white")
    keyed.paste(image, (0, 0))
    draw = ImageDraw.Draw(keyed)
    for x, row, kind in entries:
        top = image.height + gap + row * line
        draw.rectangle([x + gap, top, x + gap + swatch - 1, top + swatch - 1],
                       fill=KIND_COLOURS[kind])  # fmt: skip
        draw.text((x + 2 * gap + swatch, top), kind, fill="black", font=font)
    return keyed


def _record_path(dataset: Path, figure: str) -> Path:
    if not dataset.is_dir():
        raise FiggenError(f"{dataset} is not a folder; give the folder of a figgen build --out")
    folder = dataset / "figures"
    ids = sorted(p.stem for p in folder.glob("fig-*.json")) if folder.is_dir() else []
    if not ids:
        raise FiggenError(f"{dataset} holds no figures; give the folder of a figgen build --out")
    record_path = folder / f"{figure}.json"
    if not record_path.exists():
        raise FiggenError(
            f"no figure {figure!r} in {dataset}; it holds {len(ids)} ({ids[0]} .. {ids[-1]})"
        )
    return record_path
