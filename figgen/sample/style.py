"""Figure-wide look: style sheet, fonts, font sizes, dark mode."""

from __future__ import annotations

import numpy as np

from figgen.config.sections.shared import SharedConfig
from figgen.sample.rng import choose, uniform
from figgen.schema.spec import FigureStyle, FontSizes


def _size(rng: np.random.Generator, bounds: tuple[float, float]) -> float:
    return round(uniform(rng, bounds) * 2) / 2


def sample_style(rng: np.random.Generator, cfg: SharedConfig) -> FigureStyle:
    fonts = cfg.fonts
    dark = bool(rng.random() < cfg.style.dark_p)
    label = _size(rng, fonts.label)
    return FigureStyle(
        mpl_style="dark_background" if dark else str(rng.choice(cfg.style.styles)),
        font_family=choose(rng, fonts.families),
        mathtext_fontset=choose(rng, fonts.mathtext_fontsets),
        dark=dark,
        sizes=FontSizes(
            title=_size(rng, fonts.title),
            label=label,
            tick=_size(rng, fonts.tick),
            colorbar=_size(rng, fonts.colorbar),
            legend=max(4.0, round(label * 0.8 * 2) / 2),
        ),
    )
