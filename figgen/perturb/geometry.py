"""Where a geometric perturbation moves every pixel, and with it every box.

A ``Warp`` is a 3x3 matrix taking a point of the original image (pixel-edge coordinates:
``(0, 0)`` is the top-left corner of the top-left pixel) to the perturbed image, and the size
of the perturbed canvas. A box moves by its four corners; the new box is the smallest
whole-pixel box around them, clipped to the canvas, so a rotated box becomes the bounding box
of its rotated corners.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from PIL import Image

from figgen.schema.elements import BBox

Matrix = np.ndarray


SNAP = 1e-6
"""Coordinates within this of a whole pixel count as on it, alike for canvas sizes and boxes
(a rotation of 1e-7 degrees must not grow the canvas by a pixel the boxes never reach)."""


def translation(dx: float, dy: float) -> Matrix:
    return np.array([[1.0, 0.0, dx], [0.0, 1.0, dy], [0.0, 0.0, 1.0]])


def scaling(sx: float, sy: float) -> Matrix:
    return np.array([[sx, 0.0, 0.0], [0.0, sy, 0.0], [0.0, 0.0, 1.0]])


def rotation(degrees: float) -> Matrix:
    """Counter-clockwise on screen (y points down, so the sine's sign flips)."""
    t = math.radians(degrees)
    c, s = math.cos(t), math.sin(t)
    return np.array([[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]])


def shearing(k: float) -> Matrix:
    """Horizontal shear: x' = x + k * y."""
    return np.array([[1.0, k, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]])


def _corners(box: BBox) -> np.ndarray:
    x0, y0, x1, y1 = box
    return np.array([[x0, y0, 1.0], [x1, y0, 1.0], [x1, y1, 1.0], [x0, y1, 1.0]])


def fitted(matrix: Matrix, width: int, height: int) -> tuple[Matrix, tuple[int, int]]:
    """``matrix`` followed by the shift that puts the whole transformed image on a canvas
    just large enough for it (nothing is cut off), and that canvas's size."""
    moved = _corners((0.0, 0.0, float(width), float(height))) @ matrix.T
    low = moved[:, :2].min(axis=0)
    high = moved[:, :2].max(axis=0)
    size = (math.ceil(high[0] - low[0] - SNAP), math.ceil(high[1] - low[1] - SNAP))
    return translation(-low[0], -low[1]) @ matrix, size


@dataclass(frozen=True)
class Warp:
    """A geometric perturbation: original pixels to perturbed pixels, and the new size."""

    matrix: Matrix
    size: tuple[int, int]
    resize: bool = False
    """A pure scaling, resampled with a Lanczos filter instead of the affine one."""

    def box(self, box: BBox) -> BBox:
        """The whole-pixel box around the moved corners, clipped to the new canvas."""
        moved = _corners(box) @ self.matrix.T
        width, height = self.size
        x0 = min(max(math.floor(moved[:, 0].min() + SNAP), 0), width)
        y0 = min(max(math.floor(moved[:, 1].min() + SNAP), 0), height)
        x1 = min(max(math.ceil(moved[:, 0].max() - SNAP), 0), width)
        y1 = min(max(math.ceil(moved[:, 1].max() - SNAP), 0), height)
        return (float(x0), float(y0), float(x1), float(y1))

    def image(self, image: Image.Image, fill: tuple[int, ...]) -> Image.Image:
        """The image moved by the warp; uncovered canvas is painted ``fill``."""
        if self.resize:
            return image.resize(self.size, Image.Resampling.LANCZOS)
        shift = self.whole_pixel_shift()
        if shift is not None:  # crop and pad: copy pixels exactly, no resampling
            canvas = Image.new(image.mode, self.size, fill)
            canvas.paste(image, shift)
            return canvas
        # PIL maps each output pixel centre back through the inverse in the same pixel-edge
        # coordinates (checked: a lone pixel lands where the matrix sends its centre)
        inverse = np.linalg.inv(self.matrix)
        data = tuple(float(v) for v in inverse[:2].reshape(-1))
        return image.transform(
            self.size, Image.Transform.AFFINE, data, Image.Resampling.BICUBIC, fillcolor=fill
        )

    def whole_pixel_shift(self) -> tuple[int, int] | None:
        """The offset when the warp only moves the image by whole pixels."""
        m = self.matrix
        if not np.allclose(m[:2, :2], np.eye(2)) or not np.allclose(m[:2, 2], np.rint(m[:2, 2])):
            return None
        return int(round(m[0, 2])), int(round(m[1, 2]))

    def as_list(self) -> list[list[float]]:
        """The 2x3 affine part, for the record."""
        return [[round(float(v), 9) for v in row] for row in self.matrix[:2]]
