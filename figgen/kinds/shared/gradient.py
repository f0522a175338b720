"""The direction values increase across a drawn grid or map, where a plane fits them clearly.

Heatmaps and maps ask "in which direction do the values increase?" only where a reader sees
one: a least-squares plane over the drawn positions explains most of the variation
(:data:`MIN_R2`), its rise along one axis is at least :data:`DOMINANCE` times the rise along
the other, and that rise spans at least :data:`MIN_RISE_SHARE` of the values' range.
"""

from __future__ import annotations

import numpy as np

MIN_R2 = 0.6
DOMINANCE = 2.0
MIN_RISE_SHARE = 0.5
CYCLIC_COLORMAPS = frozenset({"twilight"})
"""Colour scales whose two ends look alike: a colour alone does not say high from low."""


def plane_direction(
    x: np.ndarray, y: np.ndarray, values: np.ndarray, words: tuple[str, str, str, str]
) -> str | None:
    """``words[0]`` (values rise with x), ``[1]`` (fall with x), ``[2]`` (rise with y, y up) or
    ``[3]`` (fall with y) where one clear direction holds; else None."""
    x, y, v = (np.asarray(a, dtype=float).ravel() for a in (x, y, values))
    spread = float(np.ptp(v))
    if spread == 0 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return None
    u, w = (x - x.min()) / np.ptp(x), (y - y.min()) / np.ptp(y)
    design = np.column_stack([u, w, np.ones_like(u)])
    coef, *_ = np.linalg.lstsq(design, v, rcond=None)
    residual = v - design @ coef
    r2 = 1.0 - float(residual @ residual) / float(((v - v.mean()) ** 2).sum())
    along_x, along_y = float(coef[0]), float(coef[1])
    if r2 < MIN_R2:
        return None
    if abs(along_x) >= DOMINANCE * abs(along_y) and abs(along_x) >= MIN_RISE_SHARE * spread:
        return words[0] if along_x > 0 else words[1]
    if abs(along_y) >= DOMINANCE * abs(along_x) and abs(along_y) >= MIN_RISE_SHARE * spread:
        return words[2] if along_y > 0 else words[3]
    return None
