"""Density tables of the box, range and heatmap kinds, checked against matplotlib's box
statistics and against the values the drawing put on the record's elements; the oracle's
tables parse back and score perfectly, and a known misreading scores what hand arithmetic says."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from matplotlib import cbook

from figgen.build.figure import GeneratedFigure, generate_figure
from figgen.config.load import config_from_dict
from figgen.density.metrics import score_chart
from figgen.density.parse import parse_tables
from figgen.density.prompt import EXTRACTION_PROMPT, extraction_prompt
from figgen.density.tables import load_sources, panel_tables
from figgen.errors import FiggenError
from figgen.kinds.box_data import BoxData
from figgen.kinds.ranges_data import RangeData
from figgen.schema.truth_table import ChartTable
from tests.kinds.figures import elements_of, panels_of

from .helpers import rows, table

NEW_KINDS = {
    "kinds": {"box": 1.0, "range": 1.0, "heatmap": 1.0},
    "panels": {"mean": 2.0, "std": 1.0, "count": [2, 3]},
    "image": {"dpi": [60, 80], "panel_inches": [2.8, 3.2]},
    "range": {"band_p": 0.5},
    "heatmap": {"rows": [2, 5], "columns": [2, 5]},
}


@pytest.fixture(scope="module")
def figures() -> list[GeneratedFigure]:
    cfg = config_from_dict(NEW_KINDS)
    return [generate_figure(cfg, 11, i) for i in range(6)]


def _triples(chart: ChartTable) -> list[tuple[str, str, float]]:
    return [(r.series, r.x, float(r.y)) for r in chart.rows]


def _same(got: list[tuple[str, str, float]], expected: list[tuple[str, str, float]]) -> None:
    assert [g[:2] for g in got] == [e[:2] for e in expected]
    assert np.allclose([g[2] for g in got], [e[2] for e in expected], rtol=1e-12, atol=0)


def _scores_perfectly(chart: ChartTable) -> None:
    score = score_chart(chart.rows, chart)
    assert (score.completeness, score.point_coverage, score.mae, score.rms_f1) == (1, 1, 0, 1)
    parsed = parse_tables(chart.markdown())  # no heading: one table is one chart
    assert parsed.charts == [list(chart.rows)]


def test_every_new_kind_is_drawn(figures: list[GeneratedFigure]) -> None:
    kinds = {p.kind for _, p in panels_of(figures)}
    assert kinds == {"box", "range", "heatmap"}
    assert set(panel_tables()) == {"line", "bar", "box", "range", "heatmap"}


def test_box_tables_are_matplotlibs_whiskers_and_quartiles(
    figures: list[GeneratedFigure],
) -> None:
    names = ("lower whisker", "Q1", "median", "Q3", "upper whisker")
    keys = ("whislo", "q1", "med", "q3", "whishi")
    boxes = [p for _, p in panels_of(figures) if p.kind == "box"]
    assert boxes
    for panel in boxes:
        chart = panel_tables()["box"](panel)
        assert chart is not None and chart.x_kind == "categorical"
        data = panel.data_as(BoxData)
        expected = []
        for group, sample in zip(data.groups, data.samples, strict=True):
            stats = cbook.boxplot_stats(np.asarray(sample), whis=data.whis)[0]
            expected += [
                (group, name, float(stats[key])) for name, key in zip(names, keys, strict=True)
            ]
        _same(_triples(chart), expected)
        _scores_perfectly(chart)


def test_range_tables_are_the_drawn_bar_ends_and_bands_have_none(
    figures: list[GeneratedFigure],
) -> None:
    seen = {"band": 0, "bars": 0}
    for figure, panel in panels_of(figures):
        if panel.kind != "range":
            continue
        data = panel.data_as(RangeData)
        seen[data.mode] += 1
        chart = panel_tables()["range"](panel)
        if data.mode == "band":  # the positions of a band are not marked
            assert chart is None
            continue
        assert chart is not None
        # the drawn bars: value = [position, low, high] per (series, category)
        drawn = {
            (e.series, e.item): e.value for e in elements_of(figure, panel) if e.kind == "range_bar"
        }
        expected = []
        for s, series in enumerate(data.series):
            prefix = f"{series.label} " if series.label else ""
            for end, at in (("low", 1), ("high", 2)):
                for c, category in enumerate(data.categories):
                    value = drawn[(s, c)]
                    assert value is not None
                    expected.append((prefix + end, category, value[at]))
        _same(_triples(chart), expected)
        _scores_perfectly(chart)
    assert seen["band"] and seen["bars"]


def test_heatmap_tables_are_the_drawn_cells_where_a_colour_bar_reads_them(
    figures: list[GeneratedFigure],
) -> None:
    heatmaps = [(f, p) for f, p in panels_of(figures) if p.kind == "heatmap"]
    assert heatmaps
    for figure, panel in heatmaps:
        chart = panel_tables()["heatmap"](panel)
        readable = (
            bool(panel.stored_style["colorbar"]) and panel.stored_style["colormap"] != "twilight"
        )
        assert (chart is not None) == readable
        if chart is None:
            continue
        cells = sorted(
            (e.series, e.item, e.value) for e in elements_of(figure, panel) if e.kind == "cell"
        )
        rows_, cols_ = panel.stored_data["rows"], panel.stored_data["columns"]
        expected = [(rows_[r], cols_[c], v[0]) for r, c, v in cells if v is not None]
        _same(_triples(chart), expected)
        _scores_perfectly(chart)


def test_a_misread_cell_scores_what_hand_arithmetic_says() -> None:
    truth = table([("a", "x", 0), ("a", "y", 10), ("b", "x", 20), ("b", "y", 40)], "categorical")
    reply = rows(("A", "X", 0), ("a", "y", 14), ("b", "x", 20), ("b", "y", 40))
    score = score_chart(reply, truth)
    # one error of 4 over the matched true range 40: 10 points of 100, over 4 pairs
    assert score.mae == pytest.approx(10 / 4)
    assert score.rmse == pytest.approx(math.sqrt(100 / 4))
    assert score.point_coverage == 1


def test_box_statistic_names_match_whatever_their_case() -> None:
    truth = table(
        [("g", "lower whisker", 1), ("g", "Q1", 2), ("g", "median", 3), ("g", "Q3", 4)],
        "categorical",
    )
    reply = rows(("G", "Median", 3), ("g", "q1", 2), ("g", "LOWER WHISKER", 1), ("g", "q3", 5))
    score = score_chart(reply, truth)  # matched by label, not row order: only Q3 is off by 1
    assert score.mae == pytest.approx(100 * 1 / 3 / 4)


def test_the_prompt_is_the_papers_unless_a_new_kind_is_chosen() -> None:
    assert extraction_prompt({"line", "bar"}) == extraction_prompt() == EXTRACTION_PROMPT
    assert extraction_prompt({"external"}) == EXTRACTION_PROMPT
    mixed = extraction_prompt({"bar", "box", "heatmap"})
    assert "(bar charts, box plots or heatmaps)" in mixed
    assert '"lower whisker", "Q1", "median", "Q3"' in mixed and "Range plot" not in mixed
    assert mixed.endswith(EXTRACTION_PROMPT.split("\n\n", 1)[1].split("\n\n", 1)[1])


@pytest.mark.slow
def test_a_build_of_the_new_kinds_is_chosen_by_kinds(tmp_path: Path) -> None:
    from figgen.build.dataset import build_dataset
    from figgen.density.compose import build_density
    from figgen.density.manifest import load_manifest
    from figgen.density.metrics import score_compound
    from figgen.density.run import compound_items, truth_reply

    source = tmp_path / "src"
    cfg = config_from_dict(NEW_KINDS)
    build_dataset(source, n=4, seed=11, workers=1, config=cfg, progress=False, questions=False)
    skipped: dict[str, int] = {}
    with pytest.raises(FiggenError, match="no chart with a table"):  # default: line and bar
        load_sources(source, skipped)
    assert "box panels (not among --kinds line,bar)" in skipped
    with pytest.raises(FiggenError, match="--kinds pie: no such plot kind has a table"):
        load_sources(source, kinds=["pie"])
    built = build_density(
        source, tmp_path / "d", densities=[1, 3], mode="native", kinds=["box", "range", "heatmap"]
    )
    manifest = load_manifest(tmp_path / "d")
    assert set(manifest.kinds.values()) == {"box", "range", "heatmap"}
    assert compound_items(manifest)[0].question == extraction_prompt({"box", "range", "heatmap"})
    for compound in built.compounds:
        parsed = parse_tables(truth_reply(manifest, compound.id))
        score = score_compound(compound.id, compound.sources, parsed.charts, manifest.tables)
        assert score.valid and all(c.mae == 0 and c.point_coverage == 1 for c in score.charts)


def test_every_kind_with_a_table_of_its_own_says_how_it_reads() -> None:
    from figgen.kinds import KINDS

    tabled = {name for name, kind in KINDS.items() if kind.chart_table is not None}
    ruled = {name for name, kind in KINDS.items() if kind.density_rule}
    assert ruled == tabled - {"line", "bar"}  # the paper's prompt says how line and bar read
    prompt = extraction_prompt(tabled)
    for name in ruled:
        rule = str(KINDS[name].density_rule)
        assert rule.startswith("- ") and rule in prompt
