"""The whole figure spec: (config, seed, index) -> FigureSpec: layout and style from
:mod:`figgen.sample`, then each panel from its plot kind (numpy only, no drawing)."""

from __future__ import annotations

import math

import numpy as np

from figgen.config.load import FigureConfig
from figgen.kinds import KINDS
from figgen.sample.layout import sample_canvas, sample_layout
from figgen.sample.rng import choose, figure_rng
from figgen.sample.style import sample_style
from figgen.sample.text import Vocabulary, default_vocabulary, maybe_label, maybe_title
from figgen.schema.record import figure_id
from figgen.schema.spec import FigureSpec, PanelSpec


def sample_footprint(cfg: FigureConfig, seed: int, index: int) -> tuple[int, int]:
    """(pixels, panels) of figure ``index``'s first attempt, without sampling its data.

    The same random streams as :func:`sample_figure`, stopped after the canvas: what a
    scheduler needs to predict a figure's cost at a fraction of a millisecond.
    """
    layout = sample_layout(figure_rng(seed, index, "layout"), cfg)
    width, height, dpi, _ = sample_canvas(figure_rng(seed, index, "content", 0), cfg, layout)
    return round(width * dpi) * round(height * dpi), layout.n_panels


def sample_figure(
    cfg: FigureConfig,
    seed: int,
    index: int,
    *,
    attempt: int = 0,
    vocab: Vocabulary | None = None,
) -> FigureSpec:
    """The spec of figure ``index`` of a build with ``seed``.

    The layout depends on (seed, index) only; ``attempt`` > 0 redraws everything else, which
    is how a figure that cannot be repaired is resampled without biasing panel counts.
    """
    vocab = vocab or default_vocabulary()
    layout = sample_layout(figure_rng(seed, index, "layout"), cfg)
    rng = figure_rng(seed, index, "content", attempt)
    width, height, dpi, aspect = sample_canvas(rng, cfg, layout)
    style = sample_style(rng, cfg)
    panels = []
    for i in range(layout.n_panels):
        kind = choose(rng, cfg.kinds)
        distribution = choose(rng, cfg.distributions.weights)
        sampled = KINDS[kind].sample(rng, cfg, distribution, dark=style.dark, vocab=vocab)
        panels.append(
            PanelSpec(
                index=i,
                row=i // layout.cols,
                col=i % layout.cols,
                kind=kind,
                distribution=distribution,  # type: ignore[arg-type]
                params=sampled.params,
                data=sampled.data,
                title=maybe_title(rng, vocab, cfg.text),
                xlabel=_axis_label(rng, vocab, cfg, kind),
                ylabel=_axis_label(rng, vocab, cfg, kind),
                xscale=sampled.xscale,
                yscale=sampled.yscale,
                style=sampled.style,
            )
        )
    spec = FigureSpec(
        id=figure_id(index),
        seed=seed,
        index=index,
        width_in=width,
        height_in=height,
        dpi=dpi,
        layout=layout,
        style=style,
        panels=panels,
        panel_aspect=aspect,
        attempt=attempt,
    )
    fit_font_sizes(spec)
    cell_pt = (width / layout.cols * 72, height / layout.rows * 72)
    for panel in panels:  # a table keeps only the rows and columns its cell can print
        KINDS[panel.kind].fit_cell(panel, cell_pt, style)
    return spec


def _axis_label(
    rng: np.random.Generator, vocab: Vocabulary, cfg: FigureConfig, kind: str
) -> str | None:
    """An axis label drawn with the same draws for every kind; None where the kind draws no
    axes (a map), so nothing names a label that is not printed."""
    label = maybe_label(rng, vocab, cfg.text)
    return label if KINDS[kind].draws_axes else None


def _text_ems(text: str | None) -> float:
    """Rough rendered width of ``text`` in ems: capitals are wide, formulas render short."""
    if not text:
        return 0.0
    parts = text.split("$")
    plain = "".join(parts[::2])
    formula = sum(len(p) for p in parts[1::2])
    upper = sum(c.isupper() for c in plain)
    spaces = plain.count(" ")
    return 0.74 * upper + 0.34 * spaces + 0.58 * (len(plain) - upper - spaces) + 0.4 * formula


# Across a cell: y tick labels, the y label, and three x tick labels of five digits with gaps.
_TICK_EMS = 18.0


def fit_font_sizes(spec: FigureSpec) -> None:
    """Cap the sampled font sizes at what the panel cells can hold.

    The anchor's ranges (ticks up to 20 pt) assume large panels; capping by the cell size
    keeps the sampled variety where it fits, so most figures need no repair pass at all.
    """
    cell_w = spec.width_in / spec.layout.cols * 72 * 0.92  # points
    cell_h = spec.height_in / spec.layout.rows * 72 * 0.92
    sizes = spec.style.sizes
    longest_title = max((_text_ems(p.title) for p in spec.panels), default=0.0)
    longest_x = max((_text_ems(p.xlabel) for p in spec.panels), default=0.0)
    longest_y = max((_text_ems(p.ylabel) for p in spec.panels), default=0.0)
    if longest_title:
        # A title centres on its axes, which sit right of the cell centre: leave a margin.
        sizes.title = _cap(sizes.title, 0.85 * cell_w / longest_title, 5.0)
    label_cap = min(
        cell_w / longest_x if longest_x else 99.0,
        cell_h / longest_y if longest_y else 99.0,
    )
    sizes.label = _cap(sizes.label, label_cap, 5.0)
    tick_cap = min(cell_w, cell_h) / _TICK_EMS
    sizes.tick = _cap(sizes.tick, tick_cap, 4.0)
    sizes.colorbar = _cap(sizes.colorbar, tick_cap, 4.0)
    sizes.legend = _cap(sizes.legend, sizes.label, 4.0)


def _cap(size: float, limit: float, floor: float) -> float:
    return max(floor, min(size, math.floor(limit * 2) / 2))
