"""The tick label box memo: reused while the ticks stand, measured again when they move."""

from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from figgen.render.tick_memo import memoize_ticks


def _fresh_boxes(fig: Figure, axis_name: str) -> list[tuple[float, ...]]:
    """The same axis's label boxes from an unmemoized twin figure (the independent answer)."""
    ax = fig.axes[0]
    twin = Figure(figsize=fig.get_size_inches(), dpi=fig.dpi)
    FigureCanvasAgg(twin)
    other = twin.add_subplot()
    other.set_position(ax.get_position())
    other.set_xlim(ax.get_xlim())
    other.set_ylim(ax.get_ylim())
    axis = getattr(other, f"{axis_name}axis")
    renderer = twin.canvas.get_renderer()
    first, _ = axis._get_ticklabel_bboxes(axis._update_ticks(), renderer)
    return [tuple(box.bounds) for box in first]


def test_label_boxes_are_kept_while_the_ticks_stand_and_follow_a_change() -> None:
    fig = Figure(figsize=(4, 3), dpi=50)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_xlim(0, 1)
    memoize_ticks(fig)
    renderer = fig.canvas.get_renderer()
    axis = ax.xaxis

    first, _ = axis._get_ticklabel_bboxes(axis._update_ticks(), renderer)
    again, _ = axis._get_ticklabel_bboxes(axis._update_ticks(), renderer)
    assert all(a is b for a, b in zip(first, again, strict=True))  # kept, not measured again
    assert [tuple(b.bounds) for b in first] == _fresh_boxes(fig, "x")

    ax.set_xlim(0, 1000)  # wider labels in other places
    moved, _ = axis._get_ticklabel_bboxes(axis._update_ticks(), renderer)
    assert [tuple(b.bounds) for b in moved] == _fresh_boxes(fig, "x")
    assert [tuple(b.bounds) for b in moved] != [tuple(b.bounds) for b in first]

    ax.set_position([0.3, 0.3, 0.4, 0.4])  # the layout engine moving the axes
    shifted, _ = axis._get_ticklabel_bboxes(axis._update_ticks(), renderer)
    assert [tuple(b.bounds) for b in shifted] == _fresh_boxes(fig, "x")
    assert shifted[0].x0 != moved[0].x0
