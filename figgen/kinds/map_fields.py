"""The values a map draws: a field over its regions' centroids and its class edges.

:func:`field_values` decides where the largest value lies and which way values rise, so it
decides which map questions a blind guess could favour; its docstring says which are asked
where.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import numpy as np

from figgen.kinds.map_regions import Region, project, region_set
from figgen.sample.rng import integer, uniform
from figgen.vqa.api.reading.readout import nice_step


def centroids(regions: tuple[Region, ...]) -> np.ndarray:
    """Region centroids (n x 2) in the map's projected coordinates."""
    mid = mid_latitude(regions)
    return project(np.array([r.centroid() for r in regions]), mid)


ROOM_QUANTILE = 0.75
"""The largest value sits on a region at least this quantile in area (its label then fits)."""


@cache
def room_regions(name: str) -> tuple[int, ...]:
    """The regions of set ``name`` in the top quarter by area, where the largest value may
    sit: each has room for its name label, so "which labelled region has the largest value"
    can be asked."""
    regions = region_set(name)
    mid = mid_latitude(regions)
    room = np.array([max(_ring_area(project(ring, mid)) for ring in r.rings) for r in regions])
    return tuple(int(i) for i in np.flatnonzero(room >= np.quantile(room, ROOM_QUANTILE)))


def _peak_on(unit: np.ndarray, target: int) -> np.ndarray:
    """``unit`` with its largest value on region ``target`` (the two swap values)."""
    best = int(np.argmax(unit))
    out = unit.copy()
    out[[best, target]] = unit[[target, best]]
    return out


def _ring_area(ring: np.ndarray) -> float:
    x, y = ring[:, 0], ring[:, 1]
    return abs(float((x[:-1] * y[1:] - x[1:] * y[:-1]).sum())) / 2


def mid_latitude(regions: tuple[Region, ...]) -> float:
    lat = np.concatenate([ring[:, 1] for r in regions for ring in r.rings])
    return float((lat.min() + lat.max()) / 2)


def field_values(
    rng: np.random.Generator, distribution: str, where: np.ndarray, target: int
) -> tuple[np.ndarray, dict[str, Any]]:
    """Values in [0, 1] over the regions: a spatial trend (its direction drawn evenly), or hot
    spots (one on region ``target``) or independent draws, both largest on ``target``.

    Each map question is asked where the sampler leaves its answer unbiased: which way the
    values increase on trend maps, whose direction is uniform; which labelled region is the
    largest on hot-spot and independent maps, whose maximum is drawn evenly among the large
    regions (:func:`room_regions`).
    Aiming trends at a large region would bend their directions towards where large regions
    are (the American west), and spots at the trend's end would tie the maximum to the edges.
    """
    u = (where - where.min(axis=0)) / np.ptp(where, axis=0)
    if distribution == "linear":
        a, b = rng.normal(size=2)
        clean = a * u[:, 0] + b * u[:, 1] + rng.normal(0, 0.1 * (abs(a) + abs(b)), len(u))
        params: dict[str, Any] = {"gradient": [float(a), float(b)]}
    elif distribution == "gmm":
        k = integer(rng, (1, 2))
        spots = u[[target, *rng.choice(len(u), size=k - 1, replace=False)]]
        width = uniform(rng, (0.15, 0.4))
        clean = sum(np.exp(-0.5 * (((u - s) / width) ** 2).sum(axis=1)) for s in spots)
        clean = clean + rng.normal(0, 0.05, len(u))
        params = {"spots_unit": spots.tolist(), "width_unit": width}
    else:
        clean = rng.uniform(0.0, 1.0, len(u))
        params = {}
    low, high = clean.min(), clean.max()
    unit = (clean - low) / ((high - low) or 1.0)
    return (unit if distribution == "linear" else _peak_on(unit, target)), params


def class_edges(low: float, top: float, classes: int) -> tuple[list[float], int]:
    """``classes`` equal-interval class edges at round numbers around [low, top], and their
    decimals: the number of classes is drawn, not left to where round numbers fall."""
    step = nice_step(top - low or 1.0, classes)
    decimals = max(0, -int(np.floor(np.log10(step) + 1e-9)))
    start = np.floor(low / step) * step
    return [round(float(start + i * step), decimals) for i in range(classes + 1)], decimals
