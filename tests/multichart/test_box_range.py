"""Box plots and range plots in multi-chart sets: their spec checks, what they show, reading
back, evidence, and the statanalysis questions that read them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from figgen.errors import ConfigError
from figgen.kinds import multichart_kind
from figgen.multichart.graph import build_graph, spec_from_dict
from figgen.multichart.minimal import minimal_sets
from figgen.multichart.records import value_from_json
from figgen.multichart.render import evidence, read_image
from figgen.multichart.values import Vector
from figgen.schema.longchart import Chart, ChartInput
from tests.multichart.conftest import set_images
from tests.multichart.graphs import comp, data, image, spec
from tests.multichart.independent import stored_sets

INDEX = {
    "people": {"labels": list(range(1, 10)), "title": "person"},
    "many": {"labels": list(range(1, 11)), "title": "person"},
    "weeks": {"labels": [1, 2, 3, 4], "title": "week"},
}


def _error(nodes) -> str:
    with pytest.raises(ConfigError) as info:
        spec_from_dict(spec(nodes, index=INDEX))
    assert "\n" not in str(info.value)
    return str(info.value)


@pytest.mark.parametrize(
    ("nodes", "expected"),
    [
        (
            {"s": data("many", range=[0, 9], decimals=0), "b": image("box", "s")},
            "shows vectors of 4k + 1 values",
        ),
        (
            {"s": data("people", range=[0, 100], decimals=0), "b": image("box", "s")},
            "'s' can take 101 values, one tick each; at most 30",
        ),
        (
            {
                "s": data("people", range=[0, 9], decimals=0),
                "t": data("people", range=[0, 9], decimals=0),
                "d": comp("difference", "s", "t"),
                "b": image("box", "d"),
            },
            "shows data nodes (their observations), not the computation 'd'",
        ),
        (
            {
                "a": data("weeks"),
                "b": data("weeks"),
                "c": data("weeks"),
                "r": image("range", "a", "b", "c"),
            },
            "(range) shows two vectors over the same labels",
        ),
    ],
)
def test_box_and_range_problems_are_one_line(nodes, expected):
    assert expected in _error(nodes)


def test_a_box_gives_back_its_statistics_not_its_input():
    g = build_graph(
        spec_from_dict(
            spec(
                {
                    "s": data("people", range=[0, 9], decimals=0),
                    "med": comp("median", "s"),
                    "q1": comp("quantile", "s", q=0.25),
                    "q9": comp("quantile", "s", q=0.9),
                    "spread": comp("iqr", "s"),
                    "b": image("box", "s"),
                    "t": image("table", "s"),
                },
                index=INDEX,
            )
        )
    )
    assert [read.node for read in g.shown["b"]] == ["med", "q1", "spread"]  # not the 0.9
    assert g.closure(["b"], render=False) == {"b", "med", "q1", "spread"}
    # not reversible: the box is its own class, and the data must come from the table
    assert g.classes["b"] != g.classes["s"]
    assert minimal_sets(g).selected == ["s"]


def test_a_range_is_reversible_and_refuses_a_low_end_above_its_high_end():
    nodes = {"a": data("weeks"), "b": data("weeks"), "r": image("range", "a", "b")}
    g = build_graph(spec_from_dict(spec(nodes, index=INDEX)))
    assert g.closure(["r"], render=False) == {"r", "a", "b"}
    kind = multichart_kind("range")

    def chart(low: tuple[float, ...], high: tuple[float, ...]) -> Chart:
        labels = (1, 2, 3)
        inputs = tuple(
            ChartInput(name, name, "vector", labels, values)
            for name, values in (("low", low), ("high", high))
        )
        return Chart("range", inputs, "week", None, ("#000000",))

    assert kind.multichart_value_refusal(chart((1.0, 2.0, 3.0), (2.0, 3.0, 4.0))) is None
    refusal = kind.multichart_value_refusal(chart((1.0, 5.0, 3.0), (2.0, 3.0, 4.0)))
    assert refusal == "'low' must lie below 'high' at every label"


def test_the_box_shows_numpys_quartiles_each_one_of_the_scores(stat_sets: Path):
    for record in stored_sets(stat_sets):
        graph, records = set_images(stat_sets, record)
        got = dict(
            zip(
                [read.node for read in graph.shown["box_scores"]],
                read_image(records["box_scores"], graph, "box_scores"),
                strict=True,
            )
        )
        a = np.asarray(value_from_json(record["values"]["score_a"]).values)  # type: ignore[union-attr]
        b = np.asarray(value_from_json(record["values"]["score_b"]).values)  # type: ignore[union-attr]
        assert got == {
            "median_a": np.median(a),
            "median_b": np.median(b),
            "q1_b": np.percentile(b, 25),
            "q3_b": np.percentile(b, 75),
            "iqr_b": np.percentile(b, 75) - np.percentile(b, 25),
        }
        for name in ("median_a", "median_b", "q1_b", "q3_b"):  # 29 scores: on the grid
            assert got[name] in set(a) | set(b) and got[name] == round(got[name])
        elements = {e.id: e for e in records["box_scores"].elements}
        for position, read in enumerate(graph.shown["box_scores"]):
            ids = evidence(records["box_scores"], graph, "box_scores", position, ())
            kinds = {(elements[i].kind, elements[i].series) for i in ids}
            want = "median_line" if read.node.startswith("median") else "box"
            assert kinds == {(want, read.series)}


def test_the_range_gives_back_both_ends_and_points_at_one_bar(stat_sets: Path):
    for record in stored_sets(stat_sets):
        graph, records = set_images(stat_sets, record)
        low, high = read_image(records["range_quiz"], graph, "range_quiz")
        assert low == value_from_json(record["values"]["quiz_low"])
        assert high == value_from_json(record["values"]["quiz_high"])
        assert isinstance(low, Vector) and isinstance(high, Vector)
        assert all(a < b for a, b in zip(low.values, high.values, strict=True))
        for position in (0, 1):
            (bar,) = evidence(records["range_quiz"], graph, "range_quiz", position, (3,))
            (element,) = [e for e in records["range_quiz"].elements if e.id == bar]
            assert element.kind == "range_bar" and element.item == 2
            assert element.value is not None and element.value[1:] == [low.at(3), high.at(3)]


def test_statanalysis_reads_quartiles_off_the_box_in_extended_context(stat_sets: Path):
    read_off_box = 0
    for record in stored_sets(stat_sets):
        assert "box_scores" in record["modes"]["extended"]
        assert "range_quiz" in record["modes"]["in-depth"]  # the only chart of the quiz ends
        for q in record["questions"]:
            node = q["targets"][0]["node"]
            ext = q["modes"]["extended"]
            if node in ("median_a", "median_b", "q1_b", "q3_b", "iqr_b"):
                assert ext == {**ext, "hops": 0, "images": ["box_scores"]}
                read_off_box += 1
    assert read_off_box


def test_no_blind_answerable_question_is_asked(stat_sets: Path):
    """The mean of shares (100 / count), a highest label an argmax node asks already, and
    comparisons the spec decides (a week's lowest quiz score against its highest, the highest
    against the range it bounds) are not asked."""
    for record in stored_sets(stat_sets):
        nodes = record["spec"]["nodes"]
        for q in record["questions"]:
            targets = [t["node"] for t in q["targets"]]
            if q["how"] == "mean":
                assert nodes[targets[0]].get("op") != "share", q["text"]
            if q["how"] == "extreme":
                argnode = {n["op"] for n in nodes.values() if n.get("inputs") == targets[:1]} & {
                    "argmax",
                    "argmin",
                }
                assert f"arg{q['extreme']}" not in argnode, q["text"]
            if q["how"] == "greater_than":
                assert set(targets) not in ({"quiz_low", "quiz_high"}, {"quiz_high", "quiz_range"})
