"""The small-panel check judges the room the layout gave a panel, not what a fixed-aspect
panel (a map) draws inside it."""

from __future__ import annotations

from dataclasses import replace

import pytest

from figgen.build.sampling import sample_figure
from figgen.config.load import config_from_dict
from figgen.render import render
from figgen.render.elements import Measured
from figgen.render.repair import find_problems
from figgen.schema.elements import Element
from figgen.schema.spec import FigureSpec, FigureStyle, FontSizes, LayoutSpec, PanelSpec


def _spec() -> FigureSpec:
    style = FigureStyle("default", "DejaVu Sans", "dejavusans", False, FontSizes(12, 10, 9, 9, 8))
    panel = PanelSpec(0, 0, 0, "line", "linear", {}, {})
    return FigureSpec("fig-x", 0, 0, 1.0, 1.0, 100, LayoutSpec(1, 1, 1, "grid"), style, [panel])


def _measured(drawn: tuple[float, ...], allotted: tuple[float, ...]) -> Measured:
    figure = Element(0, "figure", None, (0.0, 0.0, 100.0, 100.0))
    panel = Element(1, "panel", 0, drawn)  # type: ignore[arg-type]
    return Measured([figure, panel], set(), allotted={0: allotted})  # type: ignore[dict-item]


@pytest.mark.parametrize(
    ("drawn", "allotted", "small"),
    [
        ((10.0, 40.0, 90.0, 55.0), (10.0, 10.0, 90.0, 90.0), False),  # a map in a tall cell
        ((10.0, 40.0, 90.0, 55.0), (10.0, 40.0, 90.0, 55.0), True),  # a panel squeezed flat
        ((10.0, 10.0, 90.0, 90.0), (10.0, 10.0, 90.0, 90.0), False),
    ],
)
def test_small_panel_reads_the_allotted_box(
    drawn: tuple[float, ...], allotted: tuple[float, ...], small: bool
) -> None:
    kinds = [p.kind for p in find_problems(_measured(drawn, allotted), _spec())]
    assert ("small_panel" in kinds) == small


def test_a_wide_map_in_a_tall_figure_lays_out_at_once() -> None:
    """A US map (about 1.6:1) in a 2.5 x 10 inch figure fills a seventh of it: before, every
    such figure was refused as a small panel (a maps-only build stopped on its 11th figure)."""
    cfg = config_from_dict({"kinds": {"map": 1.0}, "panels": {"mean": 1.0, "std": 0.0}})
    spec = next(
        s
        for i in range(40)
        if (s := sample_figure(cfg, 0, i)).panels[0].data["region_set"] == "us48"
    )
    assert len(spec.panels) == 1
    out = render(replace(spec, width_in=2.5, height_in=10.0, dpi=80), cfg)
    (panel,) = [e for e in out.elements if e.kind == "panel"]
    x0, y0, x1, y1 = panel.bbox
    assert (x1 - x0) * (y1 - y0) < 0.2 * out.width * out.height
