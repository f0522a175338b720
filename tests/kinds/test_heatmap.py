"""The heatmap kind: sampling, drawing, boxes and questions, each checked independently."""

from __future__ import annotations

import io
import re

import matplotlib as mpl
import numpy as np
import pytest
from PIL import Image
from sklearn.linear_model import LinearRegression

from figgen.build.figure import GeneratedFigure, generate_figure
from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig, config_from_dict
from figgen.kinds.heatmap import HeatmapData, HeatmapStyle
from figgen.schema.elements import Element
from figgen.schema.panel import PanelRecord
from figgen.schema.record import spec_from_record
from figgen.vqa import describe_record
from tests.kinds.figures import elements_of, items_of, panels_of

HEATMAPS_ONLY = {
    "kinds": {"heatmap": 1.0},
    "panels": {"mean": 1.5, "std": 1.0, "count": [1, 3]},
    "image": {"dpi": [90, 120], "panel_inches": [3.0, 3.6]},
}


@pytest.fixture(scope="module")
def config() -> FigureConfig:
    return config_from_dict(HEATMAPS_ONLY)


@pytest.fixture(scope="module")
def figures(config: FigureConfig) -> list[GeneratedFigure]:
    return [generate_figure(config, 3, i) for i in range(8)]


def _data(panel: PanelRecord) -> HeatmapData:
    return panel.data_as(HeatmapData)


def _elements(figure: GeneratedFigure, panel: PanelRecord, kind: str) -> list[Element]:
    return [e for e in elements_of(figure, panel) if e.kind == kind]


def _grid(panel: PanelRecord) -> np.ndarray:
    return np.array(_data(panel).values, dtype=float)


def test_the_default_mix_never_draws_heatmaps() -> None:
    cfg = FigureConfig()
    assert cfg.kinds["heatmap"] == 0.0
    kinds = {p.kind for i in range(40) for p in sample_figure(cfg, 0, i).panels}
    assert kinds == {"line", "histogram", "scatter", "contour"}


def test_sampled_heatmaps_vary(config: FigureConfig) -> None:
    panels = [p for i in range(40) for p in sample_figure(config, 1, i).panels]
    assert {p.kind for p in panels} == {"heatmap"}
    assert {p.distribution for p in panels} == {"linear", "gmm", "random"}
    assert {p.style["annotate"] for p in panels} == {True, False}
    assert len({p.style["colormap"] for p in panels}) >= 10
    shapes = {np.shape(p.data["values"]) for p in panels}
    assert len(shapes) >= 10 and all(3 <= r <= 10 and 3 <= c <= 10 for r, c in shapes)
    for p in panels:
        grid, decimals = np.array(p.data["values"]), p.data["decimals"]
        assert np.array_equal(grid, np.round(grid, decimals))  # printed values are the truth
        assert len(set(p.data["rows"])) == grid.shape[0]
        assert len(set(p.data["columns"])) == grid.shape[1]
        if not p.style["annotate"]:
            assert p.style["colorbar"]  # without printed values the colour bar reads them


def test_the_record_renders_again_to_the_same_image(figures: list[GeneratedFigure]) -> None:
    from figgen.render import render

    figure = figures[0]
    again = render(spec_from_record(figure.record), config_from_dict(HEATMAPS_ONLY))
    assert again.png == figure.png


def test_one_box_per_cell_in_its_colour_on_the_grid(figures: list[GeneratedFigure]) -> None:
    for figure, panel in panels_of(figures):
        pixels = np.asarray(Image.open(io.BytesIO(figure.png)).convert("RGB")).astype(int)
        grid = _grid(panel)
        cmap = mpl.colormaps[panel.style_as(HeatmapStyle).colormap]
        cells = {(e.series, e.item): e for e in _elements(figure, panel, "cell")}
        assert set(cells) == {(r, c) for r in range(grid.shape[0]) for c in range(grid.shape[1])}
        for (r, c), e in cells.items():
            assert e.value == [grid[r, c]]
            x0, y0, x1, y1 = e.bbox
            if (r, c + 1) in cells:  # columns run left to right, rows top to bottom
                assert cells[(r, c + 1)].bbox[0] >= x1 - 1.5
            if (r + 1, c) in cells:
                assert cells[(r + 1, c)].bbox[1] >= y1 - 1.5
            # the cell's colour fills a good share of its box, around the printed value and
            # inside the gutter lines
            share = (grid[r, c] - grid.min()) / np.ptp(grid)
            expected = np.round(np.array(cmap(share)[:3]) * 255)
            inner = pixels[int(y0) + 2 : int(y1) - 2, int(x0) + 2 : int(x1) - 2].reshape(-1, 3)
            matching = np.abs(inner - expected).max(axis=1) <= 8
            assert matching.mean() >= 0.2, (r, c, matching.mean())
            assert e.visible is True


def test_printed_values_are_the_cell_values_inside_their_cells(
    figures: list[GeneratedFigure],
) -> None:
    printed = 0
    for figure, panel in panels_of(figures):
        grid, decimals = _grid(panel), _data(panel).decimals
        texts = _elements(figure, panel, "cell_text")
        assert not texts or panel.style_as(HeatmapStyle).annotate
        cells = {(e.series, e.item): e.bbox for e in _elements(figure, panel, "cell")}
        for e in texts:
            r, c = e.series, e.item
            assert float(e.text) == grid[r, c]
            assert e.text == f"{grid[r, c]:.{decimals}f}"
            x0, y0, x1, y1 = cells[(r, c)]
            tx0, ty0, tx1, ty1 = e.bbox
            assert x0 - 1 <= tx0 and tx1 <= x1 + 1 and y0 - 1 <= ty0 and ty1 <= y1 + 1
            printed += 1
    assert printed


def test_row_and_column_labels_are_the_tick_labels(figures: list[GeneratedFigure]) -> None:
    for figure, panel in panels_of(figures):
        xs = sorted(_elements(figure, panel, "xtick_label"), key=lambda e: e.bbox[0])
        ys = sorted(_elements(figure, panel, "ytick_label"), key=lambda e: e.bbox[1])
        assert [e.text for e in xs] == _data(panel).columns
        assert [e.text for e in ys] == _data(panel).rows


def test_crowded_column_labels_stand_upright_without_a_repair_pass(
    figures: list[GeneratedFigure],
) -> None:
    """Column labels wider than their column are drawn upright from the first pass (their
    boxes taller than wide, none overlapping); a later repair's turn is drawn too."""
    upright = 0
    for figure, panel in panels_of(figures):
        xs = sorted(_elements(figure, panel, "xtick_label"), key=lambda e: e.bbox[0])
        turned = any(
            a.get("action") == "turn_labels" and a.get("panel") == panel.index
            for a in figure.record.repair["actions"]
        )
        tall = [e.bbox[3] - e.bbox[1] > e.bbox[2] - e.bbox[0] for e in xs if len(e.text) > 2]
        assert all(tall) or not any(tall)
        if turned:
            assert all(tall)
        upright += all(tall) and not turned
        for a, b in zip(xs, xs[1:], strict=False):
            assert a.bbox[2] <= b.bbox[0], (a, b)
    assert upright
    passes = [figure.record.repair["attempts"] for figure in figures]
    assert passes.count(1) > len(passes) / 2, passes


def test_shape_questions(figures: list[GeneratedFigure]) -> None:
    rows, columns = items_of(figures, "heatmap_rows"), items_of(figures, "heatmap_columns")
    assert rows and columns
    for panel, item in rows:
        assert item.answer == len(_data(panel).rows) and item.metric == "exact"
    for panel, item in columns:
        assert item.answer == len(_data(panel).columns)
    for _, item in items_of(figures, "axis_scale"):
        raise AssertionError(f"a heatmap's category axes have no scale to ask: {item.question}")


def test_cell_value_answers_the_named_printed_cell(figures: list[GeneratedFigure]) -> None:
    items = items_of(figures, "cell_value")
    assert items
    for panel, item in items:
        match = re.search(r'row "([^"]+)" and column "([^"]+)"', item.question)
        assert match is not None
        r = _data(panel).rows.index(match.group(1))
        c = _data(panel).columns.index(match.group(2))
        assert item.answer == _grid(panel)[r, c] and item.metric == "relative_1pct"
        assert panel.style_as(HeatmapStyle).annotate  # only printed values are asked


def test_largest_cell_row_and_column(figures: list[GeneratedFigure]) -> None:
    asked = 0
    for family, axis in (("max_cell_row", "rows"), ("max_cell_column", "columns")):
        for panel, item in items_of(figures, family):
            grid = _grid(panel) if axis == "rows" else _grid(panel).T
            r, _ = np.unravel_index(np.argmax(grid), grid.shape)
            assert item.answer == getattr(_data(panel), axis)[r]
            assert item.choices == getattr(_data(panel), axis)
            others = np.delete(grid, r, axis=0).max()
            # without printed values the colour bar must show the lead
            margin = 0.0 if panel.style_as(HeatmapStyle).annotate else 0.15 * np.ptp(grid)
            assert grid.max() - others > margin
            asked += 1
    assert asked


def test_gradient_direction_against_a_least_squares_fit(figures: list[GeneratedFigure]) -> None:
    items = items_of(figures, "heatmap_gradient")
    assert items
    for panel, item in items:
        grid = _grid(panel)
        rows, cols = np.indices(grid.shape)
        u = cols.ravel() / cols.max()
        w = (rows.max() - rows.ravel()) / rows.max()  # up the image
        fit = LinearRegression().fit(np.column_stack([u, w]), grid.ravel())
        a, b = fit.coef_
        assert fit.score(np.column_stack([u, w]), grid.ravel()) >= 0.6
        if abs(a) > abs(b):
            assert item.answer == ("left to right" if a > 0 else "right to left")
            assert abs(a) >= 2 * abs(b) and abs(a) >= 0.5 * np.ptp(grid)
        else:
            assert item.answer == ("bottom to top" if b > 0 else "top to bottom")
            assert abs(b) >= 2 * abs(a) and abs(b) >= 0.5 * np.ptp(grid)


def test_descriptions_name_rows_columns_and_extremes(figures: list[GeneratedFigure]) -> None:
    for figure in figures:
        rows = describe_record(figure.record)
        for panel in figure.record.panels:
            texts = {r["level"]: r["text"] for r in rows if r["panel"] == panel.index}
            assert "heatmap" in texts[1] and "linear" not in texts[1]
            assert all(f'"{w}"' in texts[1] for w in _data(panel).rows)
            grid = _grid(panel)
            high = np.unravel_index(np.argmax(grid), grid.shape)
            assert f'row "{_data(panel).rows[high[0]]}"' in texts[2]
            assert texts[3]
