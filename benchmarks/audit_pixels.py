"""Held-out pixel checks of a build: ink under every mark box, and OCR of the text boxes.

``python benchmarks/audit_pixels.py DIR [--kinds K ...]`` reads ``DIR/figures/*.json`` and the
PNGs beside them, using nothing of figgen but the stored files, and prints per element kind:

- ``ink``: shown marks (``visible`` not false) of the LongChart kinds' elements (box, median
  line, whisker, cap, outlier, cell, band, range bar, region) with a pixel under their box that
  differs from the background (summed RGB difference over 30). The background is the panel's
  commonest colour for marks drawn on an axes face, the canvas's commonest colour for cells and
  regions, which fill their panel (a heatmap's commonest colour is one of its cells);
- ``ocr``: text elements whose printed words tesseract reads back from the crop of their box:
  the crop is turned upright (y labels, tall boxes and rotated x tick labels), scaled to about
  40 px per line, made dark-on-light and read as one line (``--psm 7``) or a block (``--psm
  6``) for multi-line texts. A text counts as read when at least 80% of its characters (letters
  and digits, case ignored; formulas between ``$`` left out) are matched in order by the reading
  (difflib's matching blocks); texts that are all formula are not counted.

Tesseract runs as the ``tesseract`` binary (Debian's ``tesseract-ocr``) in one process per
figure and layout, every crop a page of one list file: a Python binding would only wrap the
same binary. Two-letter state codes are the known misses: a two-glyph crop gives tesseract too
little to recognise a word and it often answers nothing.

    python benchmarks/audit_pixels.py /tmp/lc40
"""

from __future__ import annotations

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import tempfile
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageOps

MARK_KINDS = (
    "box",
    "median_line",
    "whisker",
    "cap",
    "outlier",
    "cell",
    "band",
    "range_bar",
    "region",
)
"""The LongChart kinds' marks, each checked for ink under its box."""

FILLS_PANEL = frozenset({"cell", "region"})
"""Marks that tile their panel, so the panel's commonest colour is one of them."""

TEXT_KINDS = (
    "title",
    "xlabel",
    "ylabel",
    "xtick_label",
    "ytick_label",
    "colorbar_label",
    "colorbar_tick_label",
    "cell_text",
    "region_label",
    "legend_entry",
    "row_label",
    "table_header",
    "table_cell",
    "wedge_label",
)
"""Text elements read back with OCR."""

CELL_KINDS = frozenset({"table_header", "row_label", "table_cell"})
"""Texts whose box is their table cell, rules included."""

READ_SHARE = 0.8
"""A text is read when this share of its characters is matched in order by the reading."""

LINE_PIXELS = 40
"""Crops are scaled so one line of text is about this tall (tesseract's comfortable size)."""


@dataclass
class Tally:
    """Checked and passed counts per element kind, and a few misses to show."""

    checked: Counter[str] = field(default_factory=Counter)
    passed: Counter[str] = field(default_factory=Counter)
    misses: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, ok: bool, miss: str) -> None:
        self.checked[kind] += 1
        self.passed[kind] += ok
        if not ok:
            self.misses.setdefault(kind, []).append(miss)

    def rate(self, kinds: Iterable[str] | None = None) -> float:
        chosen = list(self.checked) if kinds is None else list(kinds)
        checked = sum(self.checked[k] for k in chosen)
        return sum(self.passed[k] for k in chosen) / checked if checked else 1.0

    def merge(self, other: Tally) -> None:
        self.checked.update(other.checked)
        self.passed.update(other.passed)
        for kind, misses in other.misses.items():
            self.misses.setdefault(kind, []).extend(misses)

    def lines(self, label: str) -> list[str]:
        out = [
            f"{label} {kind}: {self.passed[kind]}/{n} ({self.passed[kind] / n:.1%})"
            for kind, n in sorted(self.checked.items())
        ]
        total = sum(self.checked.values())
        return [*out, f"{label} all: {sum(self.passed.values())}/{total} ({self.rate():.1%})"]


def modal_colour(pixels: np.ndarray, box: list[float]) -> np.ndarray:
    """The commonest colour under ``box``."""
    x0, y0, x1, y1 = (int(v) for v in box)
    region = pixels[y0:y1, x0:x1].reshape(-1, 3)
    colours, counts = np.unique(region, axis=0, return_counts=True)
    return colours[np.argmax(counts)]  # type: ignore[no-any-return]


def has_ink(pixels: np.ndarray, box: list[float], background: np.ndarray) -> bool:
    """Whether some pixel under ``box`` differs from ``background`` (summed RGB over 30)."""
    x0, y0, x1, y1 = (int(v) for v in box)
    region = pixels[y0 : max(y1, y0 + 1), x0 : max(x1, x0 + 1)]
    return bool((np.abs(region - background).sum(axis=-1) > 30).any())


def ink_tally(record: dict[str, Any], pixels: np.ndarray) -> Tally:
    """Ink under every shown mark of :data:`MARK_KINDS` in one figure."""
    tally = Tally()
    elements = record["elements"]
    canvas = modal_colour(pixels, elements[0]["bbox"])
    faces = {e["panel"]: modal_colour(pixels, e["bbox"]) for e in elements if e["kind"] == "panel"}
    for e in elements:
        if e["kind"] not in MARK_KINDS or e.get("visible") is False:
            continue
        background = canvas if e["kind"] in FILLS_PANEL else faces[e["panel"]]
        tally.add(e["kind"], has_ink(pixels, e["bbox"], background), f"{record['id']}#{e['id']}")
    return tally


def plain_text(text: str) -> str:
    """The letters and digits a reader sees outside formulas, lower-cased."""
    return re.sub(r"[^0-9a-z]", "", "".join(text.split("$")[::2]).lower())


def read_share(expected: str, reading: str) -> float:
    """Share of ``expected``'s characters matched in order by ``reading`` (both plain)."""
    blocks = difflib.SequenceMatcher(None, expected, reading, autojunk=False).get_matching_blocks()
    return sum(b.size for b in blocks) / len(expected)


def _rotation(record: dict[str, Any], element: dict[str, Any]) -> float:
    """Degrees (counter-clockwise) the text is printed at, from the record alone: a slanted x
    tick label's panel says so; an upright one is a box taller than wide (but a table cell's
    text is always level)."""
    if element["kind"] in CELL_KINDS:  # table text is level; its box is its cell's shape
        return 0.0
    x0, y0, x1, y1 = element["bbox"]
    tall = (y1 - y0) > 1.5 * (x1 - x0) and len(plain_text(element["text"])) > 1
    if element["kind"] == "xtick_label":
        panel = record["panels"][element["panel"]]
        angle = float(panel.get("style", {}).get("x_tick_rotation") or 0)
        if angle % 90:
            return angle
    return 90.0 if tall else 0.0


def _without_rules(image: Image.Image, *, cell: bool) -> Image.Image:
    """The crop with straight dark rows and columns whitened. A table cell's box is its cell,
    borders included: there the faint antialiased rows and columns beside a rule go too, or
    the cut to ink would keep the whole cell and shrink the text to a few pixels."""
    grey = np.asarray(image).copy()
    dark = grey < (230 if cell else 160)
    grey[dark.mean(axis=1) > 0.7, :] = 255
    grey[:, dark.mean(axis=0) > 0.7] = 255
    return Image.fromarray(grey)


def _crop(pixels: np.ndarray, element: dict[str, Any], angle: float) -> Image.Image:
    """The text's box, upright, dark on light, cut to its ink (a table cell's box is far
    taller than its text), about :data:`LINE_PIXELS` per line, padded."""
    x0, y0, x1, y1 = (int(round(v)) for v in element["bbox"])
    height, width = pixels.shape[:2]
    region = pixels[max(y0 - 2, 0) : min(y1 + 2, height), max(x0 - 2, 0) : min(x1 + 2, width)]
    image = ImageOps.autocontrast(Image.fromarray(region.astype(np.uint8)).convert("L"))
    if float(np.median(np.asarray(image))) < 128:
        image = ImageOps.invert(image)
    image = _without_rules(image, cell=element["kind"] in CELL_KINDS)
    grey = np.asarray(image).astype(int)
    rows, cols = np.nonzero(np.abs(grey - np.median(grey)) > 60)
    if rows.size:
        image = image.crop(
            (max(cols.min() - 2, 0), max(rows.min() - 2, 0), cols.max() + 3, rows.max() + 3)
        )
    if angle:
        image = image.rotate(-angle, expand=True, fillcolor=255, resample=Image.Resampling.BICUBIC)
    lines = element["text"].count("\n") + 1
    scale = LINE_PIXELS * lines / max(image.height, 1)
    if angle % 90:  # a slanted label's upright box is mostly empty corners
        scale = LINE_PIXELS / max(image.height * 0.5, 1)
    image = image.resize(
        (max(int(image.width * scale), 1), max(int(image.height * scale), 1)),
        Image.Resampling.LANCZOS,
    )
    return ImageOps.expand(image, border=LINE_PIXELS // 2, fill=255)


def tesseract_pages(images: list[Image.Image], psm: int, folder: Path) -> list[str]:
    """Tesseract's reading of each image, one process for all (a list file of pages)."""
    if not images:
        return []
    names = []
    for i, image in enumerate(images):
        name = folder / f"crop-{psm}-{i}.png"
        image.save(name)
        names.append(str(name))
    listing = folder / f"pages-{psm}.txt"
    listing.write_text("\n".join(names) + "\n")
    done = subprocess.run(
        ["tesseract", str(listing), "stdout", "--psm", str(psm), "-l", "eng"],
        env={**os.environ, "OMP_THREAD_LIMIT": "1"},  # its threads only spin on a busy machine
        check=True,
        capture_output=True,
        text=True,
    )
    pages = done.stdout.split("\f")
    return [*pages[: len(images)], *[""] * (len(images) - len(pages))]


def ocr_tally(
    record: dict[str, Any], pixels: np.ndarray, kinds: Iterable[str] = TEXT_KINDS
) -> Tally:
    """OCR of every text element of ``kinds`` in one figure (formula-only texts skipped)."""
    wanted = set(kinds)
    chosen = [
        e
        for e in record["elements"]
        if e["kind"] in wanted and e.get("text") and plain_text(e["text"])
    ]
    tally = Tally()
    with tempfile.TemporaryDirectory() as folder:
        for psm, multiline in ((7, False), (6, True)):
            group = [e for e in chosen if ("\n" in e["text"]) == multiline]
            crops = [_crop(pixels, e, _rotation(record, e)) for e in group]
            for e, reading in zip(group, tesseract_pages(crops, psm, Path(folder)), strict=True):
                expected = plain_text(e["text"])
                share = read_share(expected, plain_text(reading))
                miss = f"{record['id']}#{e['id']} {e['text']!r} read {reading.strip()!r}"
                tally.add(e["kind"], share >= READ_SHARE, miss)
    return tally


def tesseract_missing() -> str | None:
    """Why OCR cannot run here, or None."""
    return (
        None
        if shutil.which("tesseract")
        else "tesseract is not installed (apt install tesseract-ocr)"
    )


def load(png: Path) -> np.ndarray:
    """A PNG as RGB integers, rows top-down as the record's boxes."""
    return np.asarray(Image.open(png).convert("RGB")).astype(int)


def audit(folder: Path, *, ocr: bool = True) -> tuple[Tally, Tally, Counter[str]]:
    """Ink and OCR tallies over every figure of a build, and its panels per kind."""
    ink, read, panels = Tally(), Tally(), Counter[str]()
    for path in sorted((folder / "figures").glob("*.json")):
        record = json.loads(path.read_text())
        pixels = load(path.with_suffix(".png"))
        panels.update(p["kind"] for p in record["panels"])
        ink.merge(ink_tally(record, pixels))
        if ocr:
            read.merge(ocr_tally(record, pixels))
    return ink, read, panels


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("build", type=Path, help="a figgen build folder")
    parser.add_argument("--misses", type=int, default=5, help="misses to show per kind")
    args = parser.parse_args()
    reason = tesseract_missing()
    if reason:
        print(f"OCR skipped: {reason}")
    ink, read, panels = audit(args.build, ocr=reason is None)
    print(f"panels per kind: {dict(sorted(panels.items()))}")
    for tally, label in ((ink, "ink"), (read, "ocr")):
        for line in tally.lines(label):
            print(line)
        for kind, misses in sorted(tally.misses.items()):
            for miss in misses[: args.misses]:
                print(f"  {label} miss {kind}: {miss}")


if __name__ == "__main__":
    main()
