"""Operators against plain numpy, inverses that give their input back, and sampling trends."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from figgen.config.sections.shared import DistributionConfig
from figgen.multichart.operators import OperatorError, operator_for
from figgen.multichart.sampling import meets_trend, sample_node
from figgen.multichart.spec import NodeSpec
from figgen.multichart.values import Shape, Vector

YEARS = (2019, 2020, 2021, 2022)
NODE = NodeSpec(type="computation", op="sum", inputs=["a", "b"])


def _v(values, labels=YEARS) -> Vector:
    return Vector(tuple(labels), tuple(float(x) for x in values))


def _apply(name, *inputs, node=NODE):
    op = operator_for(name, len(inputs))
    shapes = [
        Shape("vector", v.labels) if isinstance(v, Vector) else Shape("scalar") for v in inputs
    ]
    shape = op.shape(shapes, node)
    return op, shape, op.apply(list(inputs), node, shape)


def test_elementwise_operators_match_numpy_on_shared_labels():
    a = _v([1, 2, 3, 4])
    b = _v([10, 20, 30, 40, 50], (2018, 2019, 2020, 2021, 2022))
    _, shape, out = _apply("sum", a, b)
    assert shape.labels == YEARS
    assert out.values == (21.0, 32.0, 43.0, 54.0)  # b shifted by one label, aligned by label
    assert _apply("difference", a, _v([1, 1, 1, 1]))[2].values == (0.0, 1.0, 2.0, 3.0)
    assert _apply("ratio", _v([2, 4, 6, 8]), _v([2, 2, 3, 4]))[2].values == (1.0, 2.0, 2.0, 2.0)
    assert _apply("product", a, a)[2].values == (1.0, 4.0, 9.0, 16.0)
    assert _apply("mean", a, _v([3, 4, 5, 6]))[2].values == (2.0, 3.0, 4.0, 5.0)
    assert _apply("sum", 2.0, 3.5)[2] == 5.5


def test_reductions_and_lossy_operators():
    a = _v([3, 9, 1, 7])
    assert _apply("mean", a)[2] == pytest.approx(5.0)
    assert _apply("argmax", a)[2] == 2020 and _apply("argmin", a)[2] == 2021
    assert _apply("share", a)[2].values == pytest.approx(tuple(100 * np.array([3, 9, 1, 7]) / 20))
    change = _apply("change", a)[2]
    assert change.labels == YEARS[1:] and change.values == (6.0, -8.0, 6.0)
    late = NodeSpec(type="computation", op="shift", lag=2, inputs=["a"])
    shifted = _apply("shift", a, node=late)[2]
    assert shifted.labels == (2021, 2022, 2023, 2024) and shifted.values == a.values
    sites = ("A", "B", "C")
    node = NodeSpec(type="computation", op="distance", origin="A", inputs=["x", "y"])
    d = _apply("distance", _v([0, 3, 0], sites), _v([0, 4, 2], sites), node=node)[2]
    assert d.labels == ("B", "C") and d.values == (5.0, 2.0)


def test_shape_errors_say_what_is_wrong():
    with pytest.raises(OperatorError, match="needs 2 inputs"):
        operator_for("difference", 1).shape([Shape("vector", YEARS)], NODE)
    with pytest.raises(OperatorError, match="not a mix"):
        operator_for("sum", 2).shape([Shape("vector", YEARS), Shape("scalar")], NODE)
    with pytest.raises(OperatorError, match="integer labels"):
        operator_for("shift", 1).shape([Shape("vector", ("a", "b"))], NODE)
    with pytest.raises(OperatorError, match="share no index label"):
        operator_for("sum", 2).shape([Shape("vector", (1, 2)), Shape("vector", (3, 4))], NODE)


finite = st.floats(min_value=1.0, max_value=1e4, allow_nan=False)


@settings(max_examples=60, deadline=None)
@given(
    st.sampled_from(["sum", "difference", "product", "ratio", "mean"]),
    st.lists(st.tuples(finite, finite, finite), min_size=2, max_size=2),
    st.integers(0, 1),
)
def test_every_inverse_gives_its_input_back(name, rows, target):
    a = _v([r[0] for r in rows], (1, 2))
    b = _v([r[1] for r in rows], (1, 2))
    c = _v([r[2] for r in rows], (1, 2))
    inputs = [a, b] if name in ("difference", "ratio") else [a, b, c]
    op, shape, out = _apply(name, *inputs)
    assert op.invertible([Shape("vector", (1, 2))] * len(inputs), shape, target)
    others = [v for i, v in enumerate(inputs) if i != target]
    back = op.invert(out, others, target, len(inputs), Shape("vector", (1, 2)))
    assert back.values == pytest.approx(inputs[target].values, rel=1e-9)


def test_a_partial_overlap_is_not_invertible():
    op = operator_for("sum", 2)
    shapes = [Shape("vector", (1, 2, 3)), Shape("vector", (2, 3, 4))]
    out = op.shape(shapes, NODE)
    assert not op.invertible(shapes, out, 0)


@pytest.mark.parametrize("trend", ["increasing", "decreasing", "peak", "dip", "any"])
def test_sampled_values_meet_their_trend_and_range(trend):
    node = NodeSpec(type="data", index="t", range=(10.0, 50.0), trend=trend, decimals=1)
    shape = Shape("vector", tuple(range(8)))
    for seed in range(20):
        value = sample_node(np.random.default_rng(seed), node, shape, DistributionConfig())
        arr = value.array()
        assert meets_trend(arr, trend) and arr.min() >= 10.0 and arr.max() <= 50.0
        assert np.allclose(arr, np.round(arr, 1))
    again = sample_node(np.random.default_rng(0), node, shape, DistributionConfig())
    assert again == sample_node(np.random.default_rng(0), node, shape, DistributionConfig())


def test_trend_check_on_hand_made_series():
    assert meets_trend(np.array([1.0, 2, 3, 5, 4, 6]), "increasing")
    assert not meets_trend(np.array([1.0, 5, 2, 6, 1, 3]), "increasing")
    assert meets_trend(np.array([1.0, 4, 9, 5, 2]), "peak")
    assert not meets_trend(np.array([9.0, 4, 3, 2, 1]), "peak")
    assert meets_trend(np.array([9.0, 4, 1, 5, 8]), "dip")


def test_a_proposer_hook_supplies_values_that_meet_their_trend(tmp_path):
    from figgen.multichart.build import sample_values
    from figgen.multichart.modes import plan_set
    from figgen.multichart.scenarios import load_scenario

    plan = plan_set(load_scenario("dense"))
    asked = []

    def propose(spec, name, shape, rng):
        asked.append(name)
        if name == "p1":  # increasing, in range: accepted
            return Vector(shape.labels, tuple(20.0 + i for i in range(len(shape.labels))))
        if name == "p3":  # must decrease: a rising proposal is refused and sampled instead
            return Vector(shape.labels, tuple(11.0 + i for i in range(len(shape.labels))))
        return None

    from figgen.config.load import FigureConfig

    values = sample_values(plan, np.random.default_rng(0), FigureConfig(), propose=propose)
    assert values["p1"].values[:3] == (20.0, 21.0, 22.0)
    assert meets_trend(values["p3"].array(), "decreasing")
    assert set(plan.minimal.selected) <= set(asked)
