"""The one place where matplotlib display boxes become PNG pixel boxes.

Display coordinates start bottom-left with y up; PNG pixels start top-left with y down.
A pixel box ``[x0, y0, x1, y1]`` covers every pixel the artist may have inked: it is rounded
outward to whole pixels.
"""

from __future__ import annotations

import math

from matplotlib.transforms import BboxBase

PixelBox = tuple[float, float, float, float]


def to_pixels(box: tuple[float, float, float, float] | BboxBase, height: int) -> PixelBox:
    """Flip a display box (x0, y0, x1, y1) at canvas ``height`` and round it outward."""
    if isinstance(box, BboxBase):
        box = (box.x0, box.y0, box.x1, box.y1)
    x0, y0, x1, y1 = box
    x0, x1 = min(x0, x1), max(x0, x1)
    y0, y1 = min(y0, y1), max(y0, y1)
    return (
        float(math.floor(x0)),
        float(math.floor(height - y1)),
        float(math.ceil(x1)),
        float(math.ceil(height - y0)),
    )


def intersect(box: PixelBox, clip: PixelBox) -> PixelBox | None:
    """The part of ``box`` inside ``clip``; None when they do not touch."""
    x0, y0 = max(box[0], clip[0]), max(box[1], clip[1])
    x1, y1 = min(box[2], clip[2]), min(box[3], clip[3])
    if x0 > x1 or y0 > y1:
        return None
    return (x0, y0, x1, y1)


def overlaps(a: PixelBox, b: PixelBox) -> bool:
    """True when the boxes share a positive area (touching edges do not count)."""
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def inside(box: PixelBox, outer: PixelBox) -> bool:
    return box[0] >= outer[0] and box[1] >= outer[1] and box[2] <= outer[2] and box[3] <= outer[3]


def area(box: PixelBox) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])
