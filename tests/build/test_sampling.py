"""The sampled text, layout and style follow the configured probabilities (1000 specs)."""

from __future__ import annotations

import re
import statistics

import pytest

from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig
from figgen.schema.spec import FigureSpec

TOKEN = re.compile(r"\$[^$]*\$|[^\s$]+")


@pytest.fixture(scope="module")
def specs() -> list[FigureSpec]:
    cfg = FigureConfig()
    return [sample_figure(cfg, 2024, i) for i in range(1000)]


def _tokens(text: str) -> list[str]:
    return TOKEN.findall(text)


def test_title_and_label_probabilities(specs: list[FigureSpec]) -> None:
    panels = [p for s in specs for p in s.panels]
    n = len(panels)
    title_share = sum(p.title is not None for p in panels) / n
    x_share = sum(p.xlabel is not None for p in panels) / n
    y_share = sum(p.ylabel is not None for p in panels) / n
    # Binomial standard errors are below 0.007 at this n; allow about 4 of them.
    assert abs(title_share - 0.5) < 0.03
    assert abs(x_share - 0.9) < 0.02 and abs(y_share - 0.9) < 0.02

    title_tokens = [t for p in panels if p.title for t in _tokens(p.title)]
    label_tokens = [t for p in panels for lab in (p.xlabel, p.ylabel) if lab for t in _tokens(lab)]
    title_formula = sum(t.startswith("$") for t in title_tokens) / len(title_tokens)
    label_formula = sum(t.startswith("$") for t in label_tokens) / len(label_tokens)
    assert abs(title_formula - 0.1) < 0.02
    assert abs(label_formula - 0.25) < 0.02

    title_lengths = {len(_tokens(p.title)) for p in panels if p.title}
    label_lengths = {len(_tokens(lab)) for p in panels for lab in (p.xlabel, p.ylabel) if lab}
    assert title_lengths == {1, 2, 3, 4, 5}
    assert label_lengths == {1, 2, 3}


def test_capitalisation_variants_all_occur(specs: list[FigureSpec]) -> None:
    words = [
        p.title
        for s in specs
        for p in s.panels
        if p.title and "$" not in p.title and len(p.title.split()) >= 2
    ]
    assert any(w == w.lower() for w in words)
    assert any(w == w.upper() for w in words)
    assert any(w.split()[0][0].isupper() and w.split()[1][0].islower() for w in words)
    assert any(all(t[0].isupper() for t in w.split()) and w != w.upper() for w in words)


def test_panel_counts_are_wide_with_median_near_six(specs: list[FigureSpec]) -> None:
    counts = [s.layout.n_panels for s in specs]
    assert min(counts) == 1 and max(counts) == 25
    assert 4 <= statistics.median(counts) <= 8
    multi = sum(c > 1 for c in counts) / len(counts)
    assert multi >= 0.5  # normal(6, 15) clipped to [1, 25] gives about 0.62
    arrangements = {s.layout.arrangement for s in specs}
    assert arrangements == {"horizontal", "vertical", "grid"}


def test_canvas_is_capped_to_what_papers_print(specs: list[FigureSpec]) -> None:
    img = FigureConfig().image
    low, high = img.figure_aspect
    aspects = [s.width_in / s.height_in for s in specs]
    slack = 2 / 200  # a side snaps to whole pixels: one pixel at the lowest dpi, either side
    assert all(low * (1 - slack) <= a <= high * (1 + slack) for a in aspects)
    assert min(aspects) < 0.45 and max(aspects) > 3.5  # tall and wide strips still occur
    assert all(s.width_px * s.height_px <= img.max_pixels * 1.001 for s in specs)
    assert all(max(s.width_in, s.height_in) <= img.max_inches + 1 / 200 for s in specs)
    # the caps reshape the canvas only: the layout (panel count, grid) is sampled as before
    strips = [s for s in specs if s.layout.arrangement == "vertical" and s.layout.rows == 5]
    assert strips and all(s.width_in / s.height_in >= low * (1 - slack) for s in strips)


def test_canvas_and_style_ranges(specs: list[FigureSpec]) -> None:
    assert all(200 <= s.dpi <= 500 for s in specs)
    assert all(0.25 <= s.panel_aspect <= 1.5 for s in specs)
    assert len({s.style.mpl_style for s in specs}) >= 10
    assert len({s.style.font_family for s in specs}) >= 4
    assert len({s.style.mathtext_fontset for s in specs}) >= 4
    assert 0.03 < sum(s.style.dark for s in specs) / len(specs) < 0.15
    kinds = {p.kind for s in specs for p in s.panels}
    dists = {p.distribution for s in specs for p in s.panels}
    assert kinds == {"line", "histogram", "scatter", "contour"}
    assert dists == {"linear", "gmm", "random"}
    scales = {(p.xscale, p.yscale) for s in specs for p in s.panels}
    assert ("log", "linear") in scales and ("linear", "log") in scales
    sizes = [s.style.sizes for s in specs]
    assert all(10 <= z.title <= 20 or z.title < 10 for z in sizes)  # capped only downward
    assert max(z.tick for z in sizes) > 16 and min(z.tick for z in sizes) >= 4
