"""Panel count, grid arrangement, figure size and dpi."""

from __future__ import annotations

import math

import numpy as np

from figgen.config.sections.shared import SharedConfig
from figgen.sample.rng import choose, integer, uniform
from figgen.schema.spec import Arrangement, LayoutSpec

MIN_CELL_INCHES = 1.25
"""The smallest panel cell side: a title, ticks and a label at the smallest fonts fit in it."""


def sample_layout(rng: np.random.Generator, cfg: SharedConfig) -> LayoutSpec:
    """round(normal(mean, std)) panels, clipped; strips up to ``max_strip``, else a grid.

    A grid keeps the sampled count: its last row may be partly filled, as in real papers.
    """
    pc = cfg.panels
    n = int(np.clip(round(rng.normal(pc.mean, pc.std)), pc.count[0], pc.count[1]))
    arrangement: Arrangement = "grid" if n > pc.max_strip else choose(rng, pc.arrangement)  # type: ignore[assignment]
    if n == 1 or arrangement == "horizontal":
        return LayoutSpec(n_panels=n, rows=1, cols=n, arrangement="horizontal" if n > 1 else "grid")
    if arrangement == "vertical":
        return LayoutSpec(n_panels=n, rows=n, cols=1, arrangement="vertical")
    rows = max(1, math.floor(math.sqrt(n)))
    cols = math.ceil(n / rows)
    if rng.random() < 0.5:
        rows, cols = cols, rows
        rows = math.ceil(n / cols)
    if rows == 1:
        return LayoutSpec(n_panels=n, rows=1, cols=n, arrangement="horizontal")
    return LayoutSpec(n_panels=n, rows=rows, cols=cols, arrangement="grid")


def sample_canvas(
    rng: np.random.Generator,
    cfg: SharedConfig,
    layout: LayoutSpec,
) -> tuple[float, float, int, float]:
    """Figure width and height in inches, dpi, and the panel aspect ratio (w/h) sampled.

    The whole figure is held to what papers print (docs/architecture.md, "Canvas"): its
    width / height within ``image.figure_aspect`` (a strip too long for a page keeps its
    length and gets taller or wider panels), its longest side at most ``image.max_inches``
    and its pixel count at most ``image.max_pixels`` (dpi is lowered first). Only a figure
    whose cells would be under ``MIN_CELL_INCHES`` a side breaks the first two (it grows) or
    the dpi range (below it), so that any accepted config lays out.
    """
    img = cfg.image
    panel_w = uniform(rng, img.panel_inches)
    aspect = uniform(rng, img.aspect)
    width, height = layout.cols * panel_w, layout.rows * panel_w / aspect
    low, high = img.figure_aspect
    if width / height < low:
        height = width / low
    elif width / height > high:
        width = height * high
    shrink = min(1.0, img.max_inches / width, img.max_inches / height)
    width, height = width * shrink, height * shrink
    # A cell under MIN_CELL_INCHES a side holds no title, ticks and label even at the smallest
    # fonts: such a figure grows, panels keeping their shape, past max_inches if it must.
    grow = max(1.0, MIN_CELL_INCHES * layout.cols / width, MIN_CELL_INCHES * layout.rows / height)
    width, height = width * grow, height * grow
    dpi = integer(rng, img.dpi)
    fit = math.floor(math.sqrt(img.max_pixels / (width * height)))
    if fit < dpi:
        dpi = max(img.dpi[0], fit)
        if width * height * dpi * dpi > img.max_pixels:
            scale = math.sqrt(img.max_pixels / (width * height * dpi * dpi))
            if (
                grow > 1.0
                or scale * min(width / layout.cols, height / layout.rows) < MIN_CELL_INCHES
            ):
                dpi = max(1, fit)  # the inches hold the layout: the pixel cap takes dpi instead
            else:
                width, height = width * scale, height * scale
    return snap_inches(width, dpi), snap_inches(height, dpi), dpi, round(aspect, 4)


def snap_inches(inches: float, dpi: int) -> float:
    """The nearest size that is a whole number of pixels at ``dpi``.

    With fractional pixels the canvas is truncated while the layout uses the exact size, so an
    axes edge could fall outside the saved image.
    """
    return round(inches * dpi) / dpi
