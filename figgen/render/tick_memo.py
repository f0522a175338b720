"""Compute each axis's ticks, and their label boxes, once per axis state instead of per caller.

One matplotlib draw asks an axis for its ticks (``Axis._update_ticks``: run the locator,
format every label, position every tick) many times over without anything changing in
between: the axis's own tight box, its label placement, each of the four spines' extents, the
title placement, the constrained-layout passes and the raster draw. Every answer is a pure
function of the state in :func:`_state`, so the pipeline keeps the last answer per axis and
recomputes it only when that state moves (the layout engine moving an axes, a new locator).

The tick labels' boxes (``Axis._get_ticklabel_bboxes``, asked as often: by the axis, by each
sibling axis placing its label, by the offset text) depend on nothing but the ticks' state
too: they are kept for as long as the ticks are, and measured again with them. Text layout
is matplotlib's largest layout cost, and a tick label is otherwise laid out a dozen times.

The ticks drawn are the same objects in the same positions with the same labels: the PNG is
byte-identical to an ordinary draw (tested), only cheaper.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from matplotlib.axis import Axis, Tick
from matplotlib.backend_bases import RendererBase
from matplotlib.figure import Figure
from matplotlib.transforms import Bbox

LabelBoxes = tuple[list[Bbox], list[Bbox]]


def memoize_ticks(fig: Figure) -> None:
    """Give every axis of ``fig`` (panels and colorbars) memoized ticks and tick label boxes.

    Call it once the figure is built: tick parameters (``tick_params``) set later are not
    part of the watched state.
    """
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            if "_update_ticks" not in vars(axis):
                _TickMemo(axis).install()


class _TickMemo:
    """The last ticks one axis computed, the state they were computed in, and their boxes."""

    def __init__(self, axis: Axis) -> None:
        self.axis = axis
        self.compute_ticks: Callable[[], list[Tick]] = axis._update_ticks  # type: ignore[attr-defined]
        self.compute_boxes: Callable[[list[Tick], RendererBase], LabelBoxes] = (
            axis._get_ticklabel_bboxes  # type: ignore[attr-defined]
        )
        self.state: tuple[tuple[Any, ...], tuple[object, ...]] | None = None
        self.ticks: list[Tick] = []
        self.boxes: tuple[list[Tick], RendererBase, LabelBoxes] | None = None

    def install(self) -> None:
        self.axis._update_ticks = self.update_ticks  # type: ignore[attr-defined]
        self.axis._get_ticklabel_bboxes = self.ticklabel_bboxes  # type: ignore[attr-defined]

    def update_ticks(self) -> list[Tick]:
        values, objects = _state(self.axis)
        if (
            self.state is None
            or values != self.state[0]
            or any(new is not old for new, old in zip(objects, self.state[1], strict=True))
        ):
            self.ticks = self.compute_ticks()
            self.state = _state(self.axis)  # the first computation creates the tick lists
            self.boxes = None  # the labels moved or changed: measure them again
        return list(self.ticks)

    def ticklabel_bboxes(self, ticks: list[Tick], renderer: RendererBase) -> LabelBoxes:
        kept = self.boxes
        if (
            kept is None
            or kept[1] is not renderer
            or len(ticks) != len(kept[0])
            or any(new is not old for new, old in zip(ticks, kept[0], strict=True))
        ):
            kept = self.boxes = (list(ticks), renderer, self.compute_boxes(ticks, renderer))
        first, second = kept[2]
        return list(first), list(second)  # callers extend these lists


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
