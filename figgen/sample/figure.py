"""The whole figure spec: (config, seed, index) -> FigureSpec, with numpy only (no matplotlib)."""

from __future__ import annotations

from figgen.config import FigureConfig
from figgen.kinds import KINDS
from figgen.record import figure_id
from figgen.sample.layout import sample_canvas, sample_layout
from figgen.sample.rng import choose, figure_rng
from figgen.sample.style import sample_style
from figgen.sample.text import Vocabulary, default_vocabulary, maybe_label, maybe_title
from figgen.spec import FigureSpec, PanelSpec


def sample_figure(
    cfg: FigureConfig, seed: int, index: int, *, attempt: int = 0,
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
        panels.append(PanelSpec(
            index=i, row=i // layout.cols, col=i % layout.cols, kind=kind,  # type: ignore[arg-type]
            distribution=distribution,  # type: ignore[arg-type]
            params=sampled.params, data=sampled.data,
            title=maybe_title(rng, vocab, cfg.text),
            xlabel=maybe_label(rng, vocab, cfg.text),
            ylabel=maybe_label(rng, vocab, cfg.text),
            xscale=sampled.xscale, yscale=sampled.yscale,  # type: ignore[arg-type]
            style=sampled.style,
        ))
    return FigureSpec(id=figure_id(index), seed=seed, index=index, width_in=width,
                      height_in=height, dpi=dpi, layout=layout, style=style, panels=panels,
                      panel_aspect=aspect, attempt=attempt)
