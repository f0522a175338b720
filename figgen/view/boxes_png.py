"""Draw a record's boxes over its image, coloured by element kind, for checking by eye."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from figgen.errors import FiggenError

if TYPE_CHECKING:
    from PIL import Image


def kind_colours() -> dict[str, str]:
    """The box colour of every element kind, as the shared elements and the plot kinds
    declare them."""
    from figgen.kinds import element_tables

    return element_tables().colours


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
    colours = kind_colours()
    unknown = sorted((kinds or set()) - set(colours))
    if unknown:
        raise FiggenError(
            f"unknown element kind {unknown[0]!r} for --kind; kinds: {', '.join(colours)}"
        )
    from figgen.schema.record import open_record

    record = open_record(record_path)
    image = Image.open(Path(dataset) / record.image.file).convert("RGB")
    draw = ImageDraw.Draw(image)
    width = max(1, round(min(image.size) / 600))
    shown: set[str] = set()
    for element in record.elements:
        if element.kind == "figure" or (kinds and element.kind not in kinds):
            continue
        x0, y0, x1, y1 = element.bbox
        colour = colours.get(element.kind, "#000000")
        draw.rectangle([x0, y0, max(x0, x1 - 1), max(y0, y1 - 1)], outline=colour, width=width)
        shown.add(element.kind)
    out = Path(out)
    with_key(image, [kind for kind in colours if kind in shown]).save(out)
    return out


def with_key(image: Image.Image, kinds: list[str]) -> Image.Image:
    """``image`` above a white band naming each of ``kinds`` beside a swatch of its colour."""
    from PIL import Image, ImageDraw, ImageFont

    colours = kind_colours()
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
                       fill=colours[kind])  # fmt: skip
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
