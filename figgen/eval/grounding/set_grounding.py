"""Grounding and pointing over a set of images (a multi-chart question sends several).

A set's evidence is a list of (image index, box) pairs, read from ``set_evidence.json``
beside ``qa.jsonl`` (written by ``figgen multichart build``). The prompt states every image's
size and asks for the boxes (or points) per image, every image listed, an unused one with an
empty list, as LongChart's grounding prompt does (appendix H). Scoring follows appendix F per
image: mDIoU of the boxes matched one to one, or the Chamfer distance of the points over the
image's diagonal; the question's score is the mean over the images that hold evidence or were
given some. An image with evidence and no answer, or with an answer and no evidence, scores
the worst (mDIoU -1, Chamfer 2: each of its two means is at most one diagonal).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figgen.eval.grounding.coords import BOX_KEYS, POINT_KEYS, Frame, Shape, detect_frame, shapes_in
from figgen.eval.grounding.evidence import EvidenceTarget
from figgen.eval.grounding.geometry import Box, Point, centre, matched_diou, normalised_chamfer
from figgen.eval.grounding.grounding import (
    BOXES_KEY,
    POINTS_KEY,
    LocationScore,
    PromptMode,
    sent_size,
)
from figgen.eval.scoring.parse import json_candidates
from figgen.schema.set_evidence import SetEvidence

FILE = "set_evidence.json"
WORST_CHAMFER = 2.0
"""The normalised Chamfer distance of an image answered without evidence or the reverse."""


@dataclass(frozen=True)
class SetTarget:
    """A question's evidence in each image of its set (an image it does not use: no boxes)."""

    images: tuple[EvidenceTarget, ...]

    @property
    def sizes(self) -> list[tuple[int, int]]:
        return [(t.width, t.height) for t in self.images]

    def in_images(self, sizes: list[tuple[int, int]]) -> SetTarget:
        """The same evidence in pixels of the images resized to ``sizes``."""
        return SetTarget(
            tuple(t.in_image(w, h) for t, (w, h) in zip(self.images, sizes, strict=True))
        )

    def any(self, mode: PromptMode) -> bool:
        return any(t.points if mode == "pointed" else t.boxes for t in self.images)


def load_set_targets(root: Path) -> dict[str, SetTarget]:
    """Every question's evidence over its set, by qid; empty without ``set_evidence.json``."""
    path = root / FILE
    if not path.is_file():
        return {}
    stored = SetEvidence.from_dict(json.loads(path.read_text(encoding="utf-8")))
    out = {}
    for qid, entry in stored.evidence.items():
        sizes = stored.sizes[entry.figure]
        per_image: list[list[Box]] = [[] for _ in sizes]
        for index, box in entry.boxes:
            per_image[index].append(box)
        out[qid] = SetTarget(
            tuple(
                EvidenceTarget(tuple(b), tuple(centre(x) for x in b), int(w), int(h))
                for b, (w, h) in zip(per_image, sizes, strict=True)
            )
        )
    return out


def set_instruction(mode: PromptMode, sizes: list[tuple[int, int]]) -> str:
    """What a grounded or pointed question over several images adds, sizes stated."""
    if mode == "plain":
        return ""
    what = "boxes [x_min, y_min, x_max, y_max]" if mode == "grounded" else "points [x, y]"
    key = BOXES_KEY if mode == "grounded" else POINTS_KEY
    around = (
        "around the parts of that image your answer is read from"
        if mode == "grounded"
        else "one at the centre of each value your answer is read from"
    )
    listed = "; ".join(f"image {i} is {w} x {h}" for i, (w, h) in enumerate(sizes, 1))
    return (
        f"In the same JSON object, add {json.dumps(key)}: an object with one entry per image, "
        f'"1" to "{len(sizes)}" in the order the images were given, each a list of {what} '
        f"{around}. If an image is not relevant to the answer, give it an empty list; do not "
        "omit any image. Use pixel coordinates of each image with the origin at its top-left "
        f"pixel, x increasing to the right and y downwards ({listed} pixels)."
    )


def oracle_set_extra(mode: PromptMode, target: SetTarget | None) -> dict[str, Any]:
    """What a perfect model adds to its reply: every image's evidence, by image number."""
    if target is None or mode == "plain":
        return {}
    if mode == "grounded":
        return {
            BOXES_KEY: {str(i): [list(b) for b in t.boxes] for i, t in enumerate(target.images, 1)}
        }
    return {
        POINTS_KEY: {str(i): [list(p) for p in t.points] for i, t in enumerate(target.images, 1)}
    }


_INDEX = re.compile(r"(\d+)")


def locate_set(
    text: str | None, shape: Shape, sizes: list[tuple[int, int]]
) -> list[list[list[float]]] | str:
    """The shapes given per image (in pixels of each image sent), or why none could be read.

    Accepted: an object keyed by image number ("1", "image_2", ...) under a box or point
    key, or a list of [image, ...coordinates] entries.
    """
    if not text or not text.strip():
        return "empty reply"
    keys = BOX_KEYS if shape == "boxes" else POINT_KEYS
    size = 4 if shape == "boxes" else 2
    for candidate in json_candidates(text):
        if not isinstance(candidate, dict):
            continue
        found = next((v for k, v in candidate.items() if str(k).casefold() in keys), None)
        per_image: list[list[list[float]]] = [[] for _ in sizes]
        if isinstance(found, dict):
            for key, value in found.items():
                match = _INDEX.search(str(key))
                if match is None or not 1 <= int(match.group(1)) <= len(sizes):
                    return f"no image {key!r} in a set of {len(sizes)}"
                per_image[int(match.group(1)) - 1] = shapes_in(value, shape)
        elif isinstance(found, list) and all(
            isinstance(v, list) and len(v) == size + 1 for v in found
        ):
            for index, *values in found:
                if not (isinstance(index, int) and 1 <= index <= len(sizes)):
                    return f"no image {index!r} in a set of {len(sizes)}"
                per_image[index - 1].append([float(v) for v in values])
        else:
            continue
        return per_image
    return f"no {shape} per image in the reply"


def _frame(found: list[list[list[float]]], sizes: list[tuple[int, int]]) -> Frame:
    """One coordinate frame for the whole reply: 0-1 if every image's numbers are, 0-1000 if
    any image's reach past it (but not 1000), else pixels."""
    frames = {
        detect_frame(shapes, w, h) for shapes, (w, h) in zip(found, sizes, strict=True) if shapes
    }
    if frames == {"unit"}:
        return "unit"
    return "per_mille" if "per_mille" in frames else "pixels"


def _in_pixels(
    shapes: list[list[float]], frame: Frame, width: int, height: int
) -> list[list[float]]:
    if frame == "pixels":
        return shapes
    sx, sy = (width, height) if frame == "unit" else (width / 1000.0, height / 1000.0)
    return [[v * (sx if i % 2 == 0 else sy) for i, v in enumerate(s)] for s in shapes]


def score_set_location(
    mode: PromptMode, row: dict[str, Any], target: SetTarget | None
) -> LocationScore:
    """Score one reply's per-image coordinates against the set's evidence (see the module)."""
    if target is None or not target.any(mode):
        return LocationScore(mode, None, eligible=False)
    scale_row = {**row, "image_size": None}  # a set's images share their scale, not a size
    sizes = [sent_size(scale_row, w, h) for w, h in target.sizes]
    shape: Shape = "boxes" if mode == "grounded" else "points"
    found = locate_set(row.get("raw"), shape, sizes)
    if isinstance(found, str):
        return LocationScore(mode, None, True, rejected=True, reason=found)
    frame = _frame(found, sizes)
    truth = target.in_images(sizes)
    scores = []
    for raw, expected, (w, h) in zip(found, truth.images, sizes, strict=True):
        given = _in_pixels(raw, frame, w, h)
        if mode == "grounded":
            boxes: list[Box] = [(b[0], b[1], b[2], b[3]) for b in given]
            if boxes or expected.boxes:
                scores.append(matched_diou(_ordered(boxes), list(expected.boxes)))
        else:
            points: list[Point] = [(p[0], p[1]) for p in given]
            if points and expected.points:
                scores.append(normalised_chamfer(points, list(expected.points), w, h))
            elif points or expected.points:
                scores.append(WORST_CHAMFER)
    # scores is not empty: some image holds evidence (``target.any``)
    return LocationScore(mode, sum(scores) / len(scores), True, frame=frame)


def _ordered(boxes: list[Box]) -> list[Box]:
    return [(min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])) for b in boxes]
