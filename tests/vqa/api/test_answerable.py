"""Each answerability rule, on small records where what the picture hides is known by hand."""

from __future__ import annotations

import copy
import re
from typing import Any

import numpy as np
import pytest

from benchmarks.audit_answerable import drawn_peaks as traced_peaks
from figgen.schema.record import Record
from figgen.vqa import QAItem, questions_for_record
from figgen.vqa.api.answerable import VERTEX_GAP_SHARE
from figgen.vqa.api.context import NEAR_ZERO_SHARE, FigureContext
from figgen.vqa.api.families import MEAN_Y
from figgen.vqa.api.reading.contour_trends import innermost_regions
from figgen.vqa.questions.family_table import series_families
from tests.vqa.records import histogram_panel, line_panel, make_record

SERIES_FAMILIES = series_families()


def asked(items: list[QAItem], colour: str) -> set[str]:
    return {i.family for i in items if f"the {colour} line" in i.question}


def _legend_over_first_vertex(record: dict[str, Any]) -> None:
    """A legend over the bottom-left corner of the only panel: where the blue line starts.

    The panel box is [0, 0, 180, 130]; lines span it less matplotlib's 5% margins, so the blue
    line's first point (x = 0, the lowest y of the panel) sits near pixel (8, 124).
    """
    record["elements"].append({"id": 900, "kind": "legend", "panel": 0, "bbox": [0, 112, 24, 130]})


def test_a_line_with_a_vertex_under_the_legend_gets_no_value_or_shape_questions() -> None:
    record = make_record([line_panel(np.random.default_rng(0))], 1, 1)
    before = questions_for_record(copy.deepcopy(record))
    _legend_over_first_vertex(record)
    after = questions_for_record(record)
    assert SERIES_FAMILIES & asked(before, "blue") and not SERIES_FAMILIES & asked(after, "blue")
    assert asked(after, "orange") == asked(before, "orange") != set()


def _with_markers(record: dict[str, Any], occluded_by: list[str]) -> dict[str, Any]:
    """Marker elements measured by the renderer; the blue line's first one mostly covered."""
    panel = record["panels"][0]
    panel["style"].update(marker="o", markersize=4.0)
    for s, _ in enumerate(panel["data"]["series"]):
        for i in range(11):
            hidden = s == 0 and i == 0
            record["elements"].append(
                {
                    "id": 1000 + 20 * s + i,
                    "kind": "marker",
                    "panel": 0,
                    "bbox": [10 + 15 * i, 20 + 40 * s, 14 + 15 * i, 24 + 40 * s],
                    "series": s,
                    "item": i,
                    "visible": not hidden or occluded_by == ["marks"],
                    "visible_fraction": 0.2 if hidden else 1.0,
                    "occluded_by": occluded_by if hidden else [],
                }
            )
    return record


@pytest.mark.parametrize("occluder", ["legend", "frame"])
def test_the_renderers_visibility_fields_hide_a_series(occluder: str) -> None:
    record = _with_markers(make_record([line_panel(np.random.default_rng(0))], 1, 1), [occluder])
    items = questions_for_record(record)
    assert not SERIES_FAMILIES & asked(items, "blue") and SERIES_FAMILIES & asked(items, "orange")


def test_marks_covered_only_by_other_marks_still_count_as_shown() -> None:
    record = _with_markers(make_record([line_panel(np.random.default_rng(0))], 1, 1), ["marks"])
    assert {"mean_y", "linearity"} <= asked(questions_for_record(record), "blue")


def test_value_at_x_skips_vertices_crowded_in_pixels() -> None:
    panel = line_panel(np.random.default_rng(0), n_series=1)
    series = panel["data"]["series"][0]
    xs = np.linspace(0, 10, 11)
    xs[6] = 5.04  # 0.4% of the x span from the middle vertex: the line jumps there
    series["x"] = xs.tolist()
    items = questions_for_record(make_record([panel], 1, 1))
    (item,) = [i for i in items if i.family == "value_at_x"]
    quoted = float(re.search(r"x = (\S+)\?", item.question).group(1))  # type: ignore[union-attr]
    k = int(np.argmin(np.abs(xs - quoted)))
    assert k not in (5, 6) and item.answer == pytest.approx(series["y"][k], rel=1e-4)
    # the asked vertex stands apart on the drawn plot area (180 px wide, 5% margins)
    pixels = 180 * (0.05 + 0.9 * (xs - xs.min()) / np.ptp(xs))
    assert np.delete(np.abs(pixels - pixels[k]), k).min() >= VERTEX_GAP_SHARE * 180


def _hist_items(panel: dict[str, Any]) -> list[QAItem]:
    return [i for i in questions_for_record(make_record([panel], 1, 1)) if i.family == "hist_mean"]


def test_hist_mean_only_where_the_bars_give_the_sample_mean() -> None:
    rng = np.random.default_rng(1)
    plain = histogram_panel(rng, means=(0.0, 8.0))
    (item,) = _hist_items(plain)
    assert item.answer == pytest.approx(np.mean(plain["data"]["samples"]), rel=1e-4)
    assert _hist_items(histogram_panel(rng, bins=2)) == []  # two bars cannot locate the mean
    centred = histogram_panel(rng, means=(-4.0, 4.0))  # mean ~0 of a span ~16: near zero
    assert abs(np.mean(centred["data"]["samples"])) < NEAR_ZERO_SHARE * 16
    assert _hist_items(centred) == []


def test_hist_mean_is_withheld_where_the_binned_mean_misses() -> None:
    rng = np.random.default_rng(2)
    samples = np.concatenate([rng.exponential(1.0, 3000), [40.0]]) + 10
    counts, edges = np.histogram(samples, bins=4)
    binned = np.sum((edges[:-1] + edges[1:]) / 2 * counts) / counts.sum()
    assert abs(2 * (binned - samples.mean()) / (binned + samples.mean())) > 0.025
    panel = histogram_panel(rng)
    panel["data"].update(samples=samples.tolist(), counts=counts.tolist(), bin_edges=edges.tolist())
    assert _hist_items(panel) == []


def test_relative_metrics_must_be_asked_with_the_axis_span() -> None:
    record = make_record([line_panel(np.random.default_rng(0))], 1, 1)
    ctx = FigureContext(Record.from_dict(record))
    panel = ctx.record.panels[0]
    with pytest.raises(ValueError, match="span"):
        ctx.ask(MEAN_Y, panel, 1.0, what="the points")
    ctx.ask(MEAN_Y, panel, 0.5, span=10.0, what="the points")
    ctx.ask(MEAN_Y, panel, 0.5, span=10.0, scale="log", what="the points")
    assert len(ctx.items) == 1  # 0.5 of a span of 10 is near zero on a linear axis only


def test_no_relative_metric_item_has_a_truth_near_zero() -> None:
    rng = np.random.default_rng(4)
    panels = [line_panel(rng), line_panel(rng, distribution="random"), histogram_panel(rng)]
    record = make_record(panels, 1, 3)
    for item in questions_for_record(record):
        if item.metric not in ("ssmape", "relaxed_5pct"):
            continue
        data = record["panels"][item.panel]["data"]
        if "series" in data and item.family != "x_range":
            values = [v for s in data["series"] for v in s["y"]]
        elif "series" in data:
            values = [v for s in data["series"] for v in s["x"]]
        elif item.family == "max_count":
            values = [0, *data["counts"]]
        else:
            values = data["bin_edges"]
        truths = item.answer if isinstance(item.answer, list) else [item.answer]
        assert min(abs(t) for t in truths) >= NEAR_ZERO_SHARE * np.ptp(values) * 0.999


def _bumps(shape: tuple[int, int], centres: list[tuple[float, float]]) -> np.ndarray:
    u, v = np.meshgrid(np.linspace(0, 1, shape[1]), np.linspace(0, 1, shape[0]))
    return np.asarray(
        sum(np.exp(-0.5 * (((u - cx) / 0.08) ** 2 + ((v - cy) / 0.08) ** 2)) for cx, cy in centres)
    )


def test_drawn_peaks_agree_with_the_contours_matplotlib_traces() -> None:
    rng = np.random.default_rng(0)
    for trial in range(40):
        rows, cols = rng.integers(20, 45, 2)
        field = _bumps((rows, cols), [tuple(rng.uniform(0.1, 0.9, 2)) for _ in range(3)])
        field = field + rng.normal(0, 0.02 * trial / 10, field.shape)
        levels = np.linspace(field.min(), field.max(), int(rng.integers(3, 10)) + 2)[1:-1]
        panel = {
            "data": {
                "x": np.linspace(0, 1, cols).tolist(),
                "y": np.linspace(0, 1, rows).tolist(),
                "z": field.tolist(),
                "levels": levels.tolist(),
            }
        }
        assert innermost_regions(field, levels) == traced_peaks(panel), trial


def _contour_record(noise: float) -> dict[str, Any]:
    rng = np.random.default_rng(3)
    centres = [(0.25, 0.3), (0.75, 0.7)]
    field = 100 * _bumps((40, 40), centres)
    field = field + rng.normal(0, noise * 100, field.shape)
    axis = np.linspace(0, 5, 40).tolist()
    panel = {
        "kind": "contour",
        "distribution": "gmm",
        "params": {
            "centres_unit": [list(c) for c in centres],
            "widths_unit": [[0.08, 0.08]] * 2,
            "amplitudes": [100.0, 100.0],
        },
        "data": {
            "x": axis,
            "y": axis,
            "z": field.tolist(),
            "levels": np.linspace(field.min(), field.max(), 9)[1:-1].tolist(),
        },
        "style": {"contour_style": "lines", "colormap": "viridis", "colorbar": "right"},
    }
    return make_record([panel], 1, 1)


def test_n_peaks_is_decided_on_the_field_as_drawn() -> None:
    def peaks(record: dict[str, Any]) -> list[Any]:
        return [i.answer for i in questions_for_record(record) if i.family == "n_peaks"]

    assert peaks(_contour_record(0.0)) == [2]
    noisy = _contour_record(0.08)  # noise draws extra innermost loops around each bump
    panel = noisy["panels"][0]
    assert traced_peaks(panel) > 2
    assert peaks(noisy) == []
