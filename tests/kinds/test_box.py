"""The box-plot kind: sampling, drawing, boxes and questions, each checked against matplotlib's
own ``cbook.boxplot_stats`` and numpy percentiles of the drawn samples."""

from __future__ import annotations

import re

import numpy as np
import pytest
from matplotlib import cbook
from matplotlib.colors import to_rgb

from benchmarks.audit_answerable import AxisMap, axis_map
from figgen.build.figure import GeneratedFigure, generate_figure
from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig, config_from_dict
from figgen.eval.scoring.scoring import score_value
from figgen.kinds.box_data import BoxData, BoxStyle, box_stats, box_table
from figgen.schema.elements import Element
from figgen.schema.panel import PanelRecord
from figgen.schema.record import spec_from_record
from figgen.vqa import QAItem, describe_record, questions_for_record
from tests.kinds.figures import closest, elements_of, items_of, panels_of, pixels_of

BOXES_ONLY = {
    "kinds": {"box": 1.0},
    "panels": {"mean": 2.0, "std": 2.0, "count": [1, 4]},
    "image": {"dpi": [60, 90], "panel_inches": [2.6, 3.4]},
}
NEAR = 60
"""A shown mark has a pixel this close to its colour (max channel difference, 0..255)."""


@pytest.fixture(scope="module")
def box_config() -> FigureConfig:
    return config_from_dict(BOXES_ONLY)


@pytest.fixture(scope="module")
def figures(box_config: FigureConfig) -> list[GeneratedFigure]:
    return [generate_figure(box_config, 5, i) for i in range(8)]


def _group(panel: PanelRecord, item: QAItem) -> np.ndarray:
    """The drawn sample of the group the question names."""
    name = re.search(r'group "([^"]+)"', item.question)
    assert name is not None, item.question
    boxes = panel.data_as(BoxData)
    return np.asarray(boxes.samples[boxes.groups.index(name.group(1))], dtype=float)


def test_the_default_mix_never_draws_boxes() -> None:
    cfg = FigureConfig()
    assert cfg.kinds["box"] == 0.0
    kinds = {p.kind for i in range(40) for p in sample_figure(cfg, 0, i).panels}
    assert kinds == {"line", "histogram", "scatter", "contour"}


@pytest.mark.parametrize("seed", range(20))
def test_box_stats_are_matplotlibs(seed: int) -> None:
    rng = np.random.default_rng(seed)
    values = np.round(rng.standard_t(3, int(rng.integers(5, 300))) * 10 + 50, 1)
    ours = box_stats(values.tolist())
    (theirs,) = cbook.boxplot_stats(values)
    for key in ("q1", "med", "q3", "whislo", "whishi", "cilo", "cihi", "mean"):
        assert getattr(ours, key) == pytest.approx(theirs[key], abs=1e-9), key
    assert sorted(ours.fliers) == sorted(theirs["fliers"].tolist())


def test_sampled_boxes_vary(box_config: FigureConfig) -> None:
    panels = [p for i in range(40) for p in sample_figure(box_config, 2, i).panels]
    assert {p.kind for p in panels} == {"box"}
    boxes = [BoxData.from_dict(p.data) for p in panels]
    assert {b.orientation for b in boxes} == {"vertical", "horizontal"}
    assert {b.notch for b in boxes} == {True, False}
    assert {p.style["filled"] for p in panels} == {True, False}
    sizes = [len(s) for b in boxes for s in b.samples]
    groups = [len(b.groups) for b in boxes]
    assert min(sizes) < 20 and max(sizes) > 150 and min(groups) == 2 and max(groups) == 7
    with_outliers = [s for b in boxes for s in b.stats if s.fliers]
    assert 0.2 < len(with_outliers) / len(sizes) < 0.95
    for b in boxes:  # the record's statistics are those of its own samples
        for sample, stats in zip(b.samples, b.stats, strict=True):
            (theirs,) = cbook.boxplot_stats(np.asarray(sample))
            assert stats.med == pytest.approx(theirs["med"])
            assert stats.whishi == pytest.approx(theirs["whishi"])
            assert len(stats.fliers) == len(theirs["fliers"])
        if b.notch:  # a notch never folds back over its box
            assert all(s.q1 <= s.cilo and s.cihi <= s.q3 for s in b.stats)


def test_ground_truth_table_is_the_five_numbers(figures: list[GeneratedFigure]) -> None:
    for _, panel in panels_of(figures):
        boxes = panel.data_as(BoxData)
        table = box_table(panel.stored_data)
        assert len(table) == 5 * len(boxes.groups)
        for group, sample in zip(boxes.groups, boxes.samples, strict=True):
            row = {stat: v for g, stat, v in table if g == group}
            q1, med, q3 = np.percentile(sample, [25, 50, 75])
            assert (row["q1"], row["med"], row["q3"]) == pytest.approx((q1, med, q3))
            assert row["whislo"] <= q1 and row["whishi"] >= q3


def test_the_record_renders_again_to_the_same_image(figures: list[GeneratedFigure]) -> None:
    from figgen.render import render

    again = render(spec_from_record(figures[0].record), config_from_dict(BOXES_ONLY))
    assert again.png == figures[0].png


def test_every_part_of_every_box_is_boxed_over_its_ink(figures: list[GeneratedFigure]) -> None:
    """One box, median line, two whiskers and caps per group and one outlier element per flier;
    each shown mark has pixels of its colour under its box (the colours recomputed here)."""
    checked = 0
    for figure, panel in panels_of(figures):
        pixels, boxes = pixels_of(figure), panel.data_as(BoxData)
        elements = elements_of(figure, panel)
        for g, stats in enumerate(boxes.stats):
            mine = [e for e in elements if e.series == g]
            kinds = [e.kind for e in mine]
            assert kinds.count("box") == kinds.count("median_line") == 1
            assert kinds.count("whisker") == kinds.count("cap") == 2
            assert kinds.count("outlier") <= len(stats.fliers)  # off-panel ones are dropped
            for e in mine:
                colours = _ink(panel, e, g)
                if not e.visible or not colours:
                    continue
                nearest = min(closest(pixels, e.bbox, c) for c in colours)
                assert nearest <= NEAR, (figure.record.id, e)
                checked += 1
    assert checked > 300


def _ink(panel: PanelRecord, element: Element, g: int) -> list[np.ndarray]:
    """The colours a mark is drawn in, read from the record's data and style alone: its
    group's colour; the lines' colour (a thin filled box shows only its outline)."""

    def rgb(colour: str) -> np.ndarray:
        return np.asarray(to_rgb(colour)) * 255

    colour, style, kind = panel.data_as(BoxData).colors[g], panel.style_as(BoxStyle), element.kind
    line, median = style.line_colors[g], style.median_colors[g]
    if kind == "outlier" or (kind == "box" and not style.filled):
        return [rgb(colour)]
    if kind == "box":
        return [rgb(colour), rgb(line)]
    if kind in ("whisker", "cap"):
        return [rgb(line)]
    return [rgb(median)]


def test_boxes_sit_where_their_quartiles_are(figures: list[GeneratedFigure]) -> None:
    """Pixels per unit along the value axis are the same for every box and whisker."""
    for figure, panel in panels_of(figures):
        horizontal = panel.data_as(BoxData).orientation == "horizontal"
        spans = []
        for e in elements_of(figure, panel):
            if e.kind in ("box", "whisker") and e.value is not None:
                x0, y0, x1, y1 = e.bbox
                length = (x1 - x0) if horizontal else (y1 - y0)
                spans.append((abs(e.value[2] - e.value[1]), length))
        units, pixels = max(spans)
        if units == 0:
            continue
        for u, px in spans:  # whole-pixel boxes padded by half a line: a few px either way
            assert abs(px - u * pixels / units) <= 6, (u, px)


def test_value_answers_are_the_percentiles_of_the_sample(figures: list[GeneratedFigure]) -> None:
    asked = 0
    for panel, item in items_of(figures, "box_median"):
        assert item.answer == pytest.approx(np.median(_group(panel, item)), rel=1e-5)
        assert item.metric == "ssmape" and item.level == 2
        asked += 1
    for panel, item in items_of(figures, "box_quartile"):
        which = 75 if "upper quartile" in item.question else 25
        assert item.answer == pytest.approx(np.percentile(_group(panel, item), which), rel=1e-5)
        asked += 1
    for panel, item in items_of(figures, "box_iqr"):
        q1, q3 = np.percentile(_group(panel, item), [25, 75])
        assert item.answer == pytest.approx(q3 - q1, rel=1e-5)
        asked += 1
    assert asked > 50


def _value_axis(figure: GeneratedFigure, panel: PanelRecord) -> tuple[float, float, int, bool]:
    """(data span, pixels, pixel coordinate, horizontal) of the value axis as drawn, mapped by
    its tick labels."""
    horizontal = panel.data_as(BoxData).orientation == "horizontal"
    at = 0 if horizontal else 1
    (plot,) = [e for e in elements_of(figure, panel) if e.kind == "panel"]
    ticks = _tick_axis(figure, panel, "xy"[at])
    ends = ticks.value([plot.bbox[at], plot.bbox[at + 2]])
    return abs(float(ends[1] - ends[0])), plot.bbox[at + 2] - plot.bbox[at], at, horizontal


def _tick_axis(figure: GeneratedFigure, panel: PanelRecord, axis: str) -> AxisMap:
    """The audit's map of ``axis``, made from the stored JSON alone."""
    stored = figure.record.to_dict()
    ticks = axis_map(stored, stored["panels"][panel.index], axis)
    assert ticks is not None
    return ticks


def _drawn_values(panel: PanelRecord) -> float:
    """The span of every whisker end and outlier of the panel, by matplotlib's statistics."""
    values = []
    for sample in panel.data_as(BoxData).samples:
        (stats,) = cbook.boxplot_stats(np.asarray(sample, dtype=float))
        values += [stats["whislo"], stats["whishi"], *stats["fliers"]]
    return float(np.ptp(values))


def test_iqr_answers_read_back_from_the_box_as_drawn(figures: list[GeneratedFigure]) -> None:
    """The box's length in pixels, through the tick labels' axis, scores as correct."""
    by_id = {f.record.id: f for f in figures}
    asked = 0
    for panel, item in items_of(figures, "box_iqr"):
        figure = by_id[item.figure_id]
        _, _, at, _ = _value_axis(figure, panel)
        assert item.metric == "axis_2pct" and item.axis_span == pytest.approx(_drawn_values(panel))
        (box,) = [e for e in elements_of(figure, panel) if e.id in item.evidence]
        # the record's box: the quartiles padded by half an edge line, rounded out to whole
        # pixels (half a pixel each side on average)
        pad = max(panel.style_as(BoxStyle).linewidth * figure.record.image.dpi / 72 / 2, 0.5)
        drawn = box.bbox[at + 2] - box.bbox[at] - 2 * pad - 1.0
        ticks = _tick_axis(figure, panel, "xy"[at])
        reading = drawn / abs(ticks.slope)
        assert score_value(item.metric, reading, item.answer, item.axis_span).correct, (
            item.qid,
            item.answer,
            reading,
        )
        asked += 1
    assert asked > 20


def test_iqr_is_asked_only_where_the_box_length_reads(figures: list[GeneratedFigure]) -> None:
    """Rule readable lengths, recomputed from the tick labels: an axis of 100 px or more, 3 px
    between the edge lines, and an IQR of 4% or more of the span of the values drawn."""
    asked = {(p.index, i.question) for p, i in items_of(figures, "box_iqr")}
    medians = {(p.index, i.question.split('"')[1]) for p, i in items_of(figures, "box_median")}
    readable = unreadable = 0
    for figure, panel in panels_of(figures):
        span, pixels, _, _ = _value_axis(figure, panel)
        line = panel.style_as(BoxStyle).linewidth * figure.record.image.dpi / 72
        boxes = panel.data_as(BoxData)
        for group, stats in zip(boxes.groups, boxes.stats, strict=True):
            if (panel.index, group) not in medians:
                continue  # not shown, or too short for any value question
            gap = stats.iqr * pixels / span - line
            share = stats.iqr / (0.04 * _drawn_values(panel))
            margins = (pixels / 100 - 1, gap / 3 - 1, share - 1)
            if min(abs(m) for m in margins) < 0.03:
                continue  # too close to a threshold for the tick-label axis to decide
            named = any(p == panel.index and f'"{group}"' in q for p, q in asked)
            assert named == all(m > 0 for m in margins), (panel.index, group, margins)
            readable += named
            unreadable += not named
    assert readable > 20 and unreadable > 5, (readable, unreadable)


def test_outlier_counts_are_matplotlibs(figures: list[GeneratedFigure]) -> None:
    items = items_of(figures, "n_outliers")
    assert items
    for panel, item in items:
        (stats,) = cbook.boxplot_stats(_group(panel, item))
        assert item.answer == len(stats["fliers"]) and item.metric == "exact"


def test_outliers_are_counted_only_when_apart() -> None:
    from figgen.vqa.api.answerable import MAX_MARKER_OVERLAP, marker_overlap

    cfg = config_from_dict(BOXES_ONLY)
    skipped = 0
    for i in range(10):
        figure = generate_figure(cfg, 7, i)
        asked = {
            (item.panel, item.question)
            for item in questions_for_record(figure.record)
            if item.family == "n_outliers"
        }
        for panel in figure.record.panels:
            for g, group in enumerate(panel.data_as(BoxData).groups):
                boxes = [
                    e.bbox
                    for e in elements_of(figure, panel)
                    if e.kind == "outlier" and e.series == g
                ]
                overlapping = marker_overlap(boxes) > MAX_MARKER_OVERLAP
                named = any(p == panel.index and f'"{group}"' in q for p, q in asked)
                if overlapping:
                    assert not named
                    skipped += 1
    assert skipped  # heavy tails pile outliers up: the rule is exercised


def test_spread_and_median_leaders(figures: list[GeneratedFigure]) -> None:
    asked = 0
    for panel, item in items_of(figures, "largest_spread"):
        boxes = panel.data_as(BoxData)
        iqrs = {
            g: float(np.subtract(*np.percentile(s, [75, 25])))
            for g, s in zip(boxes.groups, boxes.samples, strict=True)
        }
        ranked = sorted(iqrs.values(), reverse=True)
        assert iqrs[item.answer] == ranked[0] and ranked[0] - ranked[1] >= 0.1 * ranked[0]
        asked += 1
    for panel, item in items_of(figures, "highest_median"):
        boxes = panel.data_as(BoxData)
        medians = {g: float(np.median(s)) for g, s in zip(boxes.groups, boxes.samples, strict=True)}
        assert max(medians, key=medians.__getitem__) == item.answer and item.level == 3
        asked += 1
    assert asked > 5


def test_descriptions_and_alt_text(figures: list[GeneratedFigure]) -> None:
    for figure in figures:
        rows = describe_record(figure.record)
        for panel in figure.record.panels:
            mine = {
                r["level"]: r for r in rows if r["scope"] == "panel" and r["panel"] == panel.index
            }
            groups = panel.data_as(BoxData).groups
            assert "box plot" in mine[1]["text"] and "box plot" in mine[1]["alt_text"].lower()
            assert all(f'"{g}"' in mine[1]["text"] for g in groups)
            assert mine[2]["text"].count("has median") == len(groups)
            assert len(mine[1]["alt_text"]) < 150
