"""Log-axis minor labels: the default ones where they fit, none where they would overlap."""

from __future__ import annotations

from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure

from figgen.render.log_labels import FittingLogFormatter


def _drawn_labels(
    width_in: float, *, fitting: bool, limits: tuple[float, float] = (2, 30)
) -> list[tuple[str, tuple[float, float]]]:
    """The x tick labels a draw shows, with their horizontal pixel extents."""
    fig = Figure(figsize=(width_in, 2.0), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_subplot()
    ax.set_xscale("log")
    ax.set_xlim(*limits)  # about a decade or less: matplotlib labels minor ticks too
    ax.tick_params(labelsize=12)
    if fitting:
        ax.xaxis.set_minor_formatter(FittingLogFormatter())
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    low, high = ax.get_xlim()
    labels = []
    for tick in ax.xaxis.get_major_ticks() + ax.xaxis.get_minor_ticks():
        text = tick.label1
        if text.get_visible() and text.get_text() and low <= tick.get_loc() <= high:
            box = text.get_window_extent(renderer)
            labels.append((text.get_text(), (box.x0, box.x1)))
    return sorted(labels, key=lambda label: label[1][0])


def _overlapping(labels: list[tuple[str, tuple[float, float]]]) -> bool:
    return any(a[1][1] > b[1][0] for a, b in zip(labels, labels[1:], strict=False))


def test_where_minor_labels_fit_they_are_the_default_ones() -> None:
    default = _drawn_labels(12.0, fitting=False)
    assert len(default) > 3 and not _overlapping(default)  # minor labels shown, apart
    assert _drawn_labels(12.0, fitting=True) == default


def test_where_minor_labels_would_overlap_none_is_drawn() -> None:
    default = _drawn_labels(1.6, fitting=False)
    assert _overlapping(default)  # what the repair pass had to fix
    fitted = _drawn_labels(1.6, fitting=True)
    assert not _overlapping(fitted)
    majors = {"$\\mathdefault{10^{1}}$"}
    assert {text for text, _ in fitted} == majors


def test_within_one_decade_crowded_labels_all_go_even_at_coefficient_one() -> None:
    # Inside a decade the minor ticks are linear (12, 14, ...): 14 still rounds to 1 x 10^1.
    default = _drawn_labels(1.6, fitting=False, limits=(11, 19))
    assert _overlapping(default)
    assert _drawn_labels(1.6, fitting=True, limits=(11, 19)) == []
