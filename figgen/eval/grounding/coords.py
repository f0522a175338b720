"""Boxes and points in a model's reply, read leniently and put into pixels of the image sent.

Accepted shapes, under a key such as ``boxes``/``bbox`` or ``points``/``point`` anywhere in a
JSON reply (nested per-image objects included): ``[x0, y0, x1, y1]`` or a list of them,
objects with ``x0..y1``, ``x_min..y_max``, ``left/top/right/bottom`` or ``x, y, width,
height``; ``[x, y]``, ``{"x": .., "y": ..}`` or ``"(x, y)"`` for points. A reply with no such
key is searched for bracketed quadruples (boxes) or ``(x, y)`` pairs (points) outside the
JSON answer.

The coordinate frame is detected and recorded: every value within [0, 1] means fractions of
the image (``unit``); a value beyond the image but none above 1000 means the 0-1000 grid some
models use (``per_mille``); otherwise pixels. A 0-1000 answer that stays inside the image is
indistinguishable from pixels and is read as pixels.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Literal

from figgen.eval.grounding.geometry import Box, Point
from figgen.eval.scoring.parse import json_candidates

Frame = Literal["pixels", "unit", "per_mille"]
Shape = Literal["boxes", "points"]

BOX_KEYS = ("boxes", "bboxes", "bbox", "box", "bounding_box", "bounding_boxes", "regions")
POINT_KEYS = ("points", "point", "coordinates", "coords", "locations", "location")
_BOX_FIELDS = (
    ("x0", "y0", "x1", "y1"),
    ("x_min", "y_min", "x_max", "y_max"),
    ("xmin", "ymin", "xmax", "ymax"),
    ("left", "top", "right", "bottom"),
)
_NUM = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_QUAD = re.compile(rf"[\[(]\s*({_NUM})\s*,\s*({_NUM})\s*,\s*({_NUM})\s*,\s*({_NUM})\s*[\])]")
_PAIR = re.compile(rf"[\[(]\s*({_NUM})\s*,\s*({_NUM})\s*[\])]")
_OUTSIDE = 1.01  # how far past the image edge a pixel answer may reach before it is 0-1000


@dataclass(frozen=True)
class Located:
    """Boxes or points in pixels of the image sent, the frame they were given in, or why not."""

    boxes: tuple[Box, ...] = ()
    points: tuple[Point, ...] = ()
    frame: Frame | None = None
    rejected: bool = False
    reason: str | None = None


class _NotAShape(ValueError):
    pass


def _number(value: Any) -> float:
    if isinstance(value, bool):
        raise _NotAShape("boolean")
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, str) and re.fullmatch(rf"\s*{_NUM}\s*", value):
        return float(value)
    raise _NotAShape(repr(value)[:30])


def _from_text(value: str, size: int) -> list[float]:
    numbers = re.findall(_NUM, value)
    if len(numbers) != size:
        raise _NotAShape(value[:30])
    return [float(n) for n in numbers]


def _one(value: Any, shape: Shape) -> list[float]:
    """One box (4 numbers) or point (2 numbers) from a list, an object or a string."""
    size = 4 if shape == "boxes" else 2
    if isinstance(value, str):
        return _from_text(value, size)
    if isinstance(value, list | tuple) and len(value) == size:
        return [_number(v) for v in value]
    if isinstance(value, dict):
        keys = {str(k).strip().casefold(): v for k, v in value.items()}
        if shape == "points" and "x" in keys and "y" in keys:
            return [_number(keys["x"]), _number(keys["y"])]
        if shape == "boxes":
            for fields in _BOX_FIELDS:
                if all(f in keys for f in fields):
                    return [_number(keys[f]) for f in fields]
            if all(f in keys for f in ("x", "y", "width", "height")):
                x, y = _number(keys["x"]), _number(keys["y"])
                return [x, y, x + _number(keys["width"]), y + _number(keys["height"])]
    raise _NotAShape(repr(value)[:30])


def _many(value: Any, shape: Shape) -> list[list[float]]:
    """A list of shapes, or a single shape given on its own."""
    try:
        return [_one(value, shape)]
    except _NotAShape:
        pass
    if isinstance(value, str):
        stripped = value.strip()
        if stripped.startswith("["):
            try:
                return _many(json.loads(stripped), shape)
            except json.JSONDecodeError:
                pass
        pattern = _QUAD if shape == "boxes" else _PAIR
        found = [[float(g) for g in m.groups()] for m in pattern.finditer(value)]
        if found:
            return found
        raise _NotAShape(value[:30])
    if isinstance(value, list | tuple):
        return [_one(v, shape) for v in value]
    if isinstance(value, dict):  # e.g. {"bboxes": [...]} one level down
        return [s for v in value.values() for s in _many(v, shape)]
    raise _NotAShape(repr(value)[:30])


def _keyed(value: Any, keys: tuple[str, ...]) -> Iterator[Any]:
    """Every value stored under one of ``keys`` in nested objects and lists."""
    if isinstance(value, dict):
        for key, inner in value.items():
            if str(key).strip().casefold() in keys:
                yield inner
            else:
                yield from _keyed(inner, keys)
    elif isinstance(value, list):
        for inner in value:
            yield from _keyed(inner, keys)


def _unkeyed(text: str, shape: Shape) -> list[list[float]]:
    """Bracketed number groups in prose, skipping those inside JSON objects (the answer)."""
    spans: list[tuple[int, int]] = []
    decoder = json.JSONDecoder()
    for match in re.finditer(r"\{", text):
        try:
            _, end = decoder.raw_decode(text, match.start())
        except json.JSONDecodeError:
            continue
        spans.append((match.start(), end))
    pattern = _QUAD if shape == "boxes" else _PAIR
    return [
        [float(g) for g in m.groups()]
        for m in pattern.finditer(text)
        if not any(start <= m.start() < end for start, end in spans)
    ]


def detect_frame(values: list[list[float]], width: int, height: int) -> Frame:
    """Which coordinate frame the numbers were given in (see the module docstring)."""
    flat = [v for shape in values for v in shape]
    if all(0.0 <= v <= 1.0 for v in flat):
        return "unit"
    xs = [v for shape in values for v in shape[0::2]]
    ys = [v for shape in values for v in shape[1::2]]
    beyond = max(xs) > width * _OUTSIDE or max(ys) > height * _OUTSIDE
    if beyond and max(flat) <= 1000.0:
        return "per_mille"
    return "pixels"


def _to_pixels(values: list[float], frame: Frame, width: int, height: int) -> list[float]:
    if frame == "pixels":
        return values
    sx, sy = (width, height) if frame == "unit" else (width / 1000.0, height / 1000.0)
    return [v * (sx if i % 2 == 0 else sy) for i, v in enumerate(values)]


def locate(text: str | None, shape: Shape, width: int, height: int) -> Located:
    """The boxes or points of a reply, in pixels of the ``width`` x ``height`` image it saw."""
    if not text or not text.strip():
        return Located(rejected=True, reason="empty reply")
    keys = BOX_KEYS if shape == "boxes" else POINT_KEYS
    values: list[list[float]] = []
    problem: str | None = None
    for candidate in json_candidates(text):
        for found in _keyed(candidate, keys):
            try:
                values = _many(found, shape)
            except _NotAShape as exc:
                problem = f"unreadable {shape} {exc}"
                continue
            break
        if values:
            break
    if not values and problem is None:
        values = _unkeyed(text, shape)
    if not values:
        return Located(rejected=True, reason=problem or f"no {shape} in the reply")
    frame = detect_frame(values, width, height)
    pixels = [_to_pixels(v, frame, width, height) for v in values]
    if shape == "points":
        return Located(points=tuple((p[0], p[1]) for p in pixels), frame=frame)
    boxes = tuple(
        (min(b[0], b[2]), min(b[1], b[3]), max(b[0], b[2]), max(b[1], b[3])) for b in pixels
    )
    return Located(boxes=boxes, frame=frame)


def shapes_in(value: Any, shape: Shape) -> list[list[float]]:
    """The boxes or points of one JSON value (one shape, a list, a string); [] for none."""
    if value in (None, "", []):
        return []
    try:
        return _many(value, shape)
    except _NotAShape:
        return []
