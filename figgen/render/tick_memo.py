"""Compute each axis's ticks once per axis state instead of once per caller.

One matplotlib draw asks an axis for its ticks (``Axis._update_ticks``: run the locator,
format every label, position every tick) many times over without anything changing in
between: the axis's own tight box, its label placement, each of the four spines' extents, the
title placement, the constrained-layout passes and the raster draw. Every answer is a pure
function of the state in :func:`_state`, so the pipeline keeps the last answer per axis and
recomputes it only when that state moves (the layout engine moving an axes, a new locator).
The ticks drawn are the same objects in the same positions with the same labels: the PNG is
byte-identical to an ordinary draw (tested), only cheaper.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from matplotlib.axis import Axis
from matplotlib.figure import Figure


def memoize_ticks(fig: Figure) -> None:
    """Give every axis of ``fig`` (panels and colorbars) a memoized ``_update_ticks``.

    Call it once the figure is built: tick parameters (``tick_params``) set later are not
    part of the watched state.
    """
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if "_update_ticks" not in vars(axis):
                axis._update_ticks = _memoized(axis, axis._update_ticks)  # type: ignore[method-assign,union-attr]


def _memoized(axis: Axis, compute: Callable[[], list[Any]]) -> Callable[[], list[Any]]:
    last: tuple[Any, ...] | None = None  # (values, objects, ticks) after the last computation

    def update_ticks() -> list[Any]:
        nonlocal last
        values, objects = _state(axis)
        if (
            last is None
            or values != last[0]
            or any(new is not old for new, old in zip(objects, last[1], strict=True))
        ):
            ticks = compute()
            last = (*_state(axis), ticks)  # the first computation creates the tick lists
        return list(last[2])

    return update_ticks


def _state(axis: Axis) -> tuple[tuple[Any, ...], tuple[object, ...]]:
    """What ``_update_ticks`` reads: values (compared equal) and objects (compared by identity).

    The objects are held, not their ids, so a replaced locator can never alias a freed one.
    """
    values = (
        tuple(axis.get_view_interval()),
        tuple(axis.get_data_interval()),
        axis.axes.bbox.bounds,
        axis.get_figure(root=True).dpi,  # type: ignore[union-attr]
        axis.get_visible(),
    )
    objects = (
        axis._scale,  # type: ignore[attr-defined]
        axis.major.locator,
        axis.minor.locator,
        axis.major.formatter,
        axis.minor.formatter,
        vars(axis).get("majorTicks"),  # a tick reset replaces these lists
        vars(axis).get("minorTicks"),
    )
    return values, objects
