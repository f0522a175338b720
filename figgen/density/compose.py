"""Compose source charts into compounds of k charts, as the paper does or re-rendered natively.

Grouping (both modes): for each density k the source ids, sorted, are shuffled by a generator
seeded with ``(seed, k)`` and cut into consecutive groups of k, so a chart appears at most
once per density (sampling without replacement) and the incomplete last group is dropped.

Paper mode: k = 1 is the original chart, as it is (transparency shown on white). For k > 1
each source image is resized to width 800 keeping its aspect (Lanczos), laid out row-major on
a 1x3, 2x3 or 3x3 grid with 10 px between neighbours on a white canvas; each row is as tall
as its tallest image and images sit at the top-left of their cells.

Native mode (figgen builds): each panel is drawn alone in its own style at one cell size
(:mod:`figgen.density.native`) and the cells are laid out the same way, unresized.
"""

from __future__ import annotations

import io
import json
import logging
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from figgen.density.manifest import (
    FIGURES,
    MANIFEST,
    BBox,
    Compound,
    DensityManifest,
    Mode,
    load_manifest,
)
from figgen.density.tables import PAPER_KINDS, SourceChart, load_sources
from figgen.errors import FiggenError, RepairFailed
from figgen.eval.providers.image import PNG_COMPRESS_LEVEL
from figgen.store.storage import atomic_write_bytes, atomic_write_text

if TYPE_CHECKING:
    from figgen.density.native import NativeCache

log = logging.getLogger(__name__)

GRIDS: dict[int, tuple[int, int]] = {1: (1, 1), 3: (1, 3), 6: (2, 3), 9: (3, 3)}
"""The paper's grids (rows, cols); other k use 3 columns and as many rows as needed."""

PAPER_WIDTH = 800
PAPER_MARGIN = 10
PAPER_SEED = 42


def grid_for(k: int) -> tuple[int, int]:
    if k < 1:
        raise FiggenError(f"--k {k} is not a chart count; use positive integers such as 1,3,6,9")
    return GRIDS.get(k, (math.ceil(k / 3), min(k, 3)))


def group_sources(ids: Sequence[str], k: int, seed: int) -> list[list[str]]:
    """Groups of k distinct ids, without replacement; the incomplete remainder is dropped."""
    if k > len(ids):
        raise FiggenError(
            f"--k {k} needs at least {k} source charts, but the source has {len(ids)}; "
            "lower --k or add charts"
        )
    ordered = sorted(ids)
    shuffled = [ordered[i] for i in np.random.default_rng([seed, k]).permutation(len(ids))]
    return [shuffled[i : i + k] for i in range(0, len(shuffled) - k + 1, k)]


def _on_white(img: Any) -> Any:
    """RGB, with transparent pixels shown on white as a viewer would (not black)."""
    from PIL import Image

    if img.mode in ("RGBA", "LA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        white = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
        return Image.alpha_composite(white, rgba).convert("RGB")
    return img.convert("RGB")


def resize_to_width(png: bytes, width: int | None) -> bytes:
    """The image scaled to ``width`` pixels wide (None: as it is), keeping its aspect, as an
    RGB PNG."""
    from PIL import Image

    with Image.open(io.BytesIO(png)) as img:
        width = width or img.width
        height = max(1, round(img.height * width / img.width))
        rgb = _on_white(img)
        resized = (
            rgb
            if rgb.size == (width, height)
            else rgb.resize((width, height), Image.Resampling.LANCZOS)
        )
    out = io.BytesIO()
    resized.save(out, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue()


def on_white_png(png: bytes) -> bytes:
    """The image at its own size as an RGB PNG, transparency shown on white."""
    return resize_to_width(png, None)


def paste_grid(
    images: Sequence[bytes], grid: tuple[int, int], margin: int
) -> tuple[bytes, list[BBox], tuple[int, int]]:
    """Images laid out row-major on ``grid``; the PNG, each image's box and the canvas size."""
    from PIL import Image

    rows, cols = grid
    opened = [Image.open(io.BytesIO(data)).convert("RGB") for data in images]
    col_w = [max((im.width for im in opened[c::cols]), default=0) for c in range(cols)]
    row_h = [max(im.height for im in opened[r * cols : (r + 1) * cols]) for r in range(rows)]
    width = sum(col_w) + margin * (cols - 1)
    height = sum(row_h) + margin * (rows - 1)
    canvas = Image.new("RGB", (width, height), "white")
    boxes: list[BBox] = []
    for i, im in enumerate(opened):
        r, c = divmod(i, cols)
        x0 = sum(col_w[:c]) + margin * c
        y0 = sum(row_h[:r]) + margin * r
        canvas.paste(im, (x0, y0))
        boxes.append((float(x0), float(y0), float(x0 + im.width), float(y0 + im.height)))
    out = io.BytesIO()
    canvas.save(out, format="PNG", compress_level=PNG_COMPRESS_LEVEL)
    return out.getvalue(), boxes, (width, height)


def source_png(source: SourceChart) -> bytes:
    """The source chart's picture: the given PNG, or the figgen panel rendered on its own."""
    if source.image is not None:
        return source.image.read_bytes()
    from figgen.density.native import render_panel

    return render_panel(source).png


Composed = tuple[bytes, list[BBox], dict[str, Any] | None]
"""The compound PNG, each chart's box, and the figgen record of a native render."""
ComposeGroup = Callable[[list[SourceChart], tuple[int, int], str], Composed]


def _settings_guard(out: Path, manifest: DensityManifest) -> None:
    """Refuse to mix two builds with different settings in one folder."""
    if not (out / MANIFEST).is_file():
        return
    existing = load_manifest(out)
    if existing.settings() != manifest.settings():
        raise FiggenError(
            f"{out} holds a density build with other settings; use another --out or delete it"
        )


RENDER_FAILURES: tuple[type[Exception], ...] = (RepairFailed, ValueError)
"""What re-rendering a panel can raise (an unrepairable layout, text matplotlib cannot lay
out); the chart or compound is then left out and named in ``manifest.failed``."""


def build_density(
    source: str | Path,
    out: str | Path,
    *,
    densities: Sequence[int] = (1, 3, 6, 9),
    mode: Mode = "paper",
    seed: int = PAPER_SEED,
    width: int = PAPER_WIDTH,
    margin: int = PAPER_MARGIN,
    kinds: Sequence[str] = PAPER_KINDS,
    progress: bool = False,
) -> DensityManifest:
    """Compose the sources at each density and write images, records and the manifest.

    ``kinds``: the plot kinds of a figgen build whose panels are source charts (the paper's
    line and bar charts by default; box, range and heatmap on request). A rerun with the same
    settings keeps the images already written (a killed build resumes).
    """
    from tqdm.auto import tqdm

    skipped: dict[str, int] = {}
    sources = load_sources(source, skipped, kinds)
    if mode == "native" and any(s.figure is None for s in sources):
        raise FiggenError("--mode native re-renders figgen panels; pass a figgen build as --source")
    densities = sorted(set(densities))
    for k in densities:
        grid_for(k)
        if k > len(sources):
            group_sources([s.id for s in sources], k, seed)  # raises the one-line error
    out = Path(out)
    by_id = {s.id: s for s in sorted(sources, key=lambda s: s.id)}
    manifest = DensityManifest(
        mode=mode,
        seed=seed,
        densities=densities,
        width=width,
        margin=margin,
        tables={sid: s.table for sid, s in by_id.items()},
        kinds={sid: s.kind for sid, s in by_id.items()},
        skipped=skipped,
    )
    _settings_guard(out, manifest)
    (out / FIGURES).mkdir(parents=True, exist_ok=True)
    if mode == "paper":
        cache = _SourceCache(out / "sources", width, keep_original=1 in densities)
        prepare: Callable[[SourceChart], object] = cache.resized
        compose: ComposeGroup = _paper_composer(cache, margin)
    else:
        from figgen.density.native import NativeCache

        native = NativeCache(out / "sources")
        prepare = native.panel
        compose = _native_composer(native, margin)
    for sid in tqdm(list(by_id), desc="sources", unit="chart", disable=not progress):
        try:
            prepare(by_id[sid])
        except RENDER_FAILURES as exc:
            manifest.failed[sid] = _reason(exc)
            log.warning("source %s left out: %s", sid, manifest.failed[sid])
    usable = [sid for sid in by_id if sid not in manifest.failed]
    groups = {k: group_sources(usable, k, seed) for k in densities}
    manifest.dropped = {str(k): len(usable) - k * len(groups[k]) for k in densities}
    tasks = [(k, number, ids) for k in densities for number, ids in enumerate(groups[k])]
    for k, number, ids in tqdm(tasks, desc="compounds", unit="image", disable=not progress):
        compound_id = f"k{k}-{number:04d}"
        try:
            compound = _compound(out, compound_id, k, [by_id[i] for i in ids], compose, mode)
        except RENDER_FAILURES as exc:
            manifest.failed[compound_id] = _reason(exc)
            log.warning("compound %s left out: %s", compound_id, manifest.failed[compound_id])
            continue
        manifest.compounds.append(compound)
    atomic_write_text(out / MANIFEST, json.dumps(manifest.to_dict(), indent=1) + "\n")
    return manifest


def _reason(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200]


def _compound(
    out: Path,
    compound_id: str,
    k: int,
    group: list[SourceChart],
    compose: ComposeGroup,
    mode: Mode,
) -> Compound:
    image = f"{FIGURES}/{compound_id}.png"
    record_path = out / FIGURES / f"{compound_id}.json"
    if record_path.is_file() and (out / image).is_file():  # resume: written by an earlier run
        done = Compound.from_record(json.loads(record_path.read_text(encoding="utf-8")))
        if done.sources == [s.id for s in group]:
            return done
    png, boxes, native_record = compose(group, grid_for(k), compound_id)
    from PIL import Image

    with Image.open(io.BytesIO(png)) as img:
        width, height = img.size
    compound = Compound(
        compound_id, k, grid_for(k), [s.id for s in group], boxes, image, width, height
    )
    atomic_write_bytes(out / image, png)
    # a paper-mode compound pastes source images, so it has no figgen panels of its own; the
    # empty list keeps it a record that figgen.schema.record.read_record reads
    record = {"panels": [], **(native_record or {}), **compound.record(mode)}
    atomic_write_text(record_path, json.dumps(record) + "\n")
    return compound


class _SourceCache:
    """Each source's picture kept in ``DIR/sources``: resized to the paper's width, and for
    figgen panels (drawn here, not read from a file) also as originally drawn."""

    def __init__(self, folder: Path, width: int, *, keep_original: bool) -> None:
        self.folder = folder
        self.width = width
        self.keep_original = keep_original
        (folder / "original").mkdir(parents=True, exist_ok=True)

    def original(self, source: SourceChart) -> bytes:
        if source.image is not None:
            return source.image.read_bytes()
        path = self.folder / "original" / f"{source.id}.png"
        if not path.is_file():
            atomic_write_bytes(path, source_png(source))
        return path.read_bytes()

    def resized(self, source: SourceChart) -> bytes:
        path = self.folder / f"{source.id}.png"
        if not path.is_file():
            original = self.original(source) if self.keep_original else source_png(source)
            atomic_write_bytes(path, resize_to_width(original, self.width))
        return path.read_bytes()


def _paper_composer(cache: _SourceCache, margin: int) -> ComposeGroup:
    def paper(group: list[SourceChart], grid: tuple[int, int], _: str) -> Composed:
        if len(group) == 1:  # "the k = 1 condition uses the original chart"
            original = cache.original(group[0])
            png, boxes, _size = paste_grid([on_white_png(original)], grid, margin)
            return png, boxes, None
        png, boxes, _size = paste_grid([cache.resized(s) for s in group], grid, margin)
        return png, boxes, None

    return paper


def _native_composer(cache: NativeCache, margin: int) -> ComposeGroup:
    from figgen.density.native import compound_record

    def native(group: list[SourceChart], grid: tuple[int, int], _: str) -> Composed:
        panels = [cache.panel(s) for s in group]
        png, boxes, size = paste_grid([p.png for p in panels], grid, margin)
        return png, boxes, compound_record(panels, boxes, grid, size)

    return native
