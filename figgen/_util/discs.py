"""How much round marks overlap: markers boxed as squares, read as the discs that fill them."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def disc_overlaps(boxes: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
    """For marks boxed ``[x0, y0, x1, y1]``, the n x n shares: entry (i, j) is the area of
    disc i that disc j covers, over disc i's area (0 on the diagonal).

    Each disc is centred in its box with the radius of half the box's longer side (a box
    clipped at the panel's edge keeps its full disc).
    """
    b = np.asarray(boxes, dtype=float).reshape(-1, 4)
    n = len(b)
    if n < 2:
        return np.zeros((n, n))
    cx, cy = (b[:, 0] + b[:, 2]) / 2, (b[:, 1] + b[:, 3]) / 2
    r = np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1]) / 2
    d = np.hypot(cx[:, None] - cx[None, :], cy[:, None] - cy[None, :])
    ri, rj = r[:, None], r[None, :]
    with np.errstate(divide="ignore", invalid="ignore"):
        # the lens of two intersecting circles: two circular segments
        ci = np.clip((d**2 + ri**2 - rj**2) / (2 * d * ri), -1, 1)
        cj = np.clip((d**2 + rj**2 - ri**2) / (2 * d * rj), -1, 1)
        kite = (-d + ri + rj) * (d + ri - rj) * (d - ri + rj) * (d + ri + rj)
        lens = ri**2 * np.arccos(ci) + rj**2 * np.arccos(cj) - 0.5 * np.sqrt(np.clip(kite, 0, None))
    inner = np.pi * np.minimum(ri, rj) ** 2  # one disc inside the other
    lens = np.where(d >= ri + rj, 0.0, np.where(d <= np.abs(ri - rj), inner, lens))
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(ri > 0, lens / (np.pi * ri**2), 0.0)
    np.fill_diagonal(share, 0.0)
    return np.asarray(share)
