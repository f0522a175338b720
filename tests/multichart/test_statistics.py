"""Summary-statistic operators against numpy, histogram and scatter image nodes: their spec
checks, minimal sets, reading back and evidence."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from figgen.errors import ConfigError
from figgen.multichart.graph import build_graph, spec_from_dict
from figgen.multichart.minimal import minimal_sets
from figgen.multichart.operators import OperatorError, operator_for
from figgen.multichart.records import value_from_json
from figgen.multichart.render import evidence, read_image
from figgen.multichart.spec import NodeSpec
from figgen.multichart.sufficiency import values_from_images
from figgen.multichart.values import Shape, Vector
from tests.multichart.conftest import set_images
from tests.multichart.graphs import comp, data, image, spec
from tests.multichart.independent import stored_sets

PEOPLE = {"people": {"labels": list(range(1, 13)), "title": "person"}}


def _apply(name: str, vector: Vector, **extra: float) -> object:
    node = NodeSpec(type="computation", op=name, inputs=["x"], **extra)
    op = operator_for(name, 1)
    shape = op.shape([Shape("vector", vector.labels)], node)
    return op.apply([vector], node, shape)


values_lists = st.lists(
    st.floats(min_value=-1e4, max_value=1e4, allow_nan=False), min_size=2, max_size=30
)


@settings(max_examples=80, deadline=None)
@given(values_lists, st.floats(min_value=0.01, max_value=0.99))
def test_the_five_statistics_match_numpy_on_the_same_values(raw, q):
    labels = tuple(range(len(raw)))
    vector = Vector(labels, tuple(float(v) for v in raw))
    arr = np.asarray(raw, dtype=float)
    assert _apply("std", vector) == pytest.approx(np.std(arr), rel=1e-9, abs=1e-9)
    assert _apply("median", vector) == pytest.approx(np.median(arr), rel=1e-12, abs=1e-12)
    assert _apply("quantile", vector, q=q) == pytest.approx(
        np.quantile(arr, q), rel=1e-12, abs=1e-9
    )
    assert _apply("iqr", vector) == pytest.approx(
        np.subtract(*np.percentile(arr, [75, 25])), rel=1e-9, abs=1e-9
    )
    assert _apply("argmax", vector) == labels[int(np.argmax(arr))]
    if arr.sum() > 1.0:
        share = _apply("share", vector)
        assert isinstance(share, Vector)
        assert share.values == pytest.approx(tuple(100 * arr / arr.sum()), rel=1e-9, abs=1e-9)


def test_hand_computed_statistics():
    v = Vector((1, 2, 3, 4), (2.0, 4.0, 4.0, 10.0))
    assert _apply("std", v) == pytest.approx(3.0)  # mean 5, squares 9+1+1+25 = 36, /4 = 9
    assert _apply("median", v) == 4.0
    assert _apply("quantile", v, q=0.25) == 3.5  # position 0.75 between 2 and 4
    assert _apply("quantile", v, q=0.75) == 5.5  # position 2.25 between 4 and 10
    assert _apply("iqr", v) == 2.0  # 5.5 - 3.5


def test_quantile_needs_q_and_q_is_stored_only_where_set():
    with pytest.raises(OperatorError, match="needs 'q' between 0 and 1"):
        operator_for("quantile", 1).shape(
            [Shape("vector", (1, 2))], NodeSpec(type="computation", op="quantile")
        )
    assert "q" not in NodeSpec(type="computation", op="mean").model_dump()
    assert NodeSpec(type="computation", op="quantile", q=0.5).model_dump()["q"] == 0.5


def _people(nodes):
    return spec(nodes, index=PEOPLE)


def _error(nodes) -> str:
    with pytest.raises(ConfigError) as info:
        spec_from_dict(_people(nodes))
    assert "\n" not in str(info.value)
    return str(info.value)


def _scores(**extra):
    return data("people", range=[0, 10], decimals=0, **extra)


@pytest.mark.parametrize(
    ("nodes", "expected"),
    [
        (
            {"s": data("people", range=[0, 100], decimals=0), "h": image("histogram", "s")},
            "'s' can take 101 values, one bar each; at most 30",
        ),
        (
            {"s": _scores(), "d": comp("share", "s"), "h": image("histogram", "d")},
            "(histogram) shows one data node with an index (its observations), not a computation",
        ),
        (
            {"s": _scores(), "t": comp("argmax", "s"), "h": image("histogram", "s")},
            "node 't': 's' is drawn as a histogram, which keeps no order",
        ),
        (
            {"s": _scores(), "h": image("histogram", "s"), "b": image("bar", "s")},
            "image 'b': 's' is drawn as a histogram",
        ),
        (
            {"s": data("people"), "c": data("people"), "i": image("scatter", "s", "c")},
            "(scatter) shows one vector over integer labels",
        ),
        (
            {"s": _scores(), "m": comp("quantile", "s"), "h": image("histogram", "s")},
            "needs 'q' between 0 and 1",
        ),
    ],
)
def test_histogram_and_scatter_problems_are_one_line(nodes, expected):
    assert expected in _error(nodes)


def test_statistics_are_lossy_and_a_histogram_is_its_nodes_class():
    g = build_graph(
        spec_from_dict(
            _people(
                {
                    "s": _scores(),
                    "sd": comp("std", "s"),
                    "med": comp("median", "s"),
                    "q1": comp("quantile", "s", q=0.25),
                    "h": image("histogram", "s"),
                }
            )
        )
    )
    result = minimal_sets(g)
    assert result.selected == ["s"] and result.alternatives == []
    assert sorted(result.classes[g.classes["s"]]) == ["h", "s"]
    assert g.unordered == {"s"}


def test_a_histogram_reads_back_its_values_and_points_at_its_filled_bars(stat_sets: Path):
    record = stored_sets(stat_sets)[0]
    graph, records = set_images(stat_sets, record)
    for chart, node in (("hist_a", "score_a"), ("hist_b", "score_b")):
        truth = value_from_json(record["values"][node])
        (shown,) = read_image(records[chart], graph, chart)
        assert isinstance(truth, Vector) and isinstance(shown, Vector)
        assert shown.labels == truth.labels and shown.values == tuple(sorted(truth.values))
        assert sum(records[chart].panels[0].stored_data["counts"]) == len(truth.values)
        bars = [e for e in records[chart].elements if e.kind == "bar" and e.value is not None]
        filled = [e.id for e in bars if e.value is not None and e.value[1] > 0]
        heights = {e.id: e.value for e in bars}
        ids = evidence(records[chart], graph, chart, 0, ())
        assert ids == filled and len(ids) == len(set(truth.values))
        for i in ids:  # each filled bar is one value, as tall as its number of observations
            centre, count = heights[i]
            assert count == sum(round(v) == round(centre) for v in truth.values)


def test_a_scatter_reads_back_each_label_and_points_at_its_point(stat_sets: Path):
    record = stored_sets(stat_sets)[0]
    graph, records = set_images(stat_sets, record)
    truth = value_from_json(record["values"]["practice"])
    (shown,) = read_image(records["chart_practice"], graph, "chart_practice")
    assert shown == truth
    (week,) = evidence(records["chart_practice"], graph, "chart_practice", 0, (3,))
    (point,) = [e for e in records["chart_practice"].elements if e.id == week]
    assert point.kind == "point" and point.value == [3.0, truth.at(3)]


def test_statistics_come_back_from_the_in_depth_charts(stat_sets: Path):
    record = stored_sets(stat_sets)[0]
    graph, records = set_images(stat_sets, record)
    assert record["modes"]["in-depth"] == ["hist_a", "hist_b", "chart_practice", "range_quiz"]
    got = values_from_images(graph, record["modes"]["in-depth"], records)
    scores_b = np.asarray(value_from_json(record["values"]["score_b"]).values)  # type: ignore[union-attr]
    assert got["std_b"] == pytest.approx(np.std(scores_b), rel=1e-9)
    assert got["iqr_b"] == pytest.approx(
        np.quantile(scores_b, 0.75) - np.quantile(scores_b, 0.25), rel=1e-9, abs=1e-9
    )
    asked = {q["targets"][0]["node"] for q in record["questions"]}
    assert {"std_a", "median_a", "q1_b", "q3_b", "top_week"} & asked
    for q in record["questions"]:  # observations drawn as histograms: order-free questions only
        if q["targets"][0]["node"] in ("score_a", "score_b"):
            assert q["how"] == "mean" and not q["targets"][0]["labels"]
