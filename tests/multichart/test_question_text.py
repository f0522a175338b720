"""Question wording and hop counts: what a question states must be enough, with the mode's
images, to answer it, and its hops are the distinct computation steps it takes."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from figgen.config.load import FigureConfig
from figgen.multichart.build import build_set
from figgen.multichart.modes import plan_set
from figgen.multichart.questions import Ask, Target
from figgen.multichart.records import SetRecord
from figgen.multichart.scenarios import load_scenario
from figgen.multichart.sufficiency import mode_facts
from figgen.multichart.values import Vector
from tests.multichart.independent import stored_sets


@pytest.fixture(scope="module")
def timeshift_set(tmp_path_factory: pytest.TempPathFactory) -> SetRecord:
    """Set 4 of seed 11, where the audit found orders asked of the deliveries chart alone."""
    out = tmp_path_factory.mktemp("timeshift")
    (out / "images").mkdir()
    spec = load_scenario("timeshift")
    return build_set(spec, seed=11, index=4, out=out, cfg=FigureConfig())


def test_a_question_read_through_a_shift_states_the_lag(timeshift_set: SetRecord):
    nodes = timeshift_set.spec.nodes
    shifts = {name: node for name, node in nodes.items() if node.op == "shift"}
    crossing = 0
    for q in timeshift_set.questions:
        for mode, facts in q.modes.items():
            for name, node in shifts.items():
                if {name, node.inputs[0]} <= set(facts.nodes):
                    # the derivation crosses the shift: the reader must be told the lag
                    crossing += 1
                    assert f"{node.lag} years later" in q.ask.text, (mode, q.ask.text)
    assert crossing  # the set does ask orders of the deliveries chart


def test_hops_count_each_computation_step_once():
    plan = plan_set(load_scenario("timeshift"))
    ask = Ask(
        "compare",
        "greater_than",
        "For year 2020, is the aircraft orders greater than the orders minus deliveries?",
        [Target("orders", (2020,)), Target("backlog_change", (2020,))],
        answer_type="boolean",
    )
    facts = mode_facts(plan.graph, ["chart_deliveries", "chart_price"], ask)
    # by hand: orders = deliveries two years on (1), orders minus deliveries (2), compare (3)
    assert facts.hops == 3


def test_the_geometry_mean_is_worded_as_what_it_averages(tmp_path: Path):
    (tmp_path / "images").mkdir()
    record = build_set(load_scenario("geometry"), seed=0, index=2, out=tmp_path, cfg=FigureConfig())
    x, y = (record.values[n] for n in ("x", "y"))
    assert isinstance(x, Vector) and isinstance(y, Vector)
    sites = list(zip(x.values, y.values, strict=True))
    a = sites[x.labels.index("A")]
    others = [p for label, p in zip(x.labels, sites, strict=True) if label != "A"]
    mean_others = sum(math.dist(a, p) for p in others) / len(others)
    asked = [q.ask for q in record.questions if q.ask.targets[0].node == "mean_dist"]
    assert asked
    for q in asked:
        # the label says "the other sites"; the definition must not say "all sites"
        assert "over all sites" not in q.text and "sites B, C, D, E and F" in q.text
        if q.how == "value":
            assert q.answer == pytest.approx(mean_others, rel=1e-3)


def test_the_supply_chain_takes_eight_hops_in_depth():
    plan = plan_set(load_scenario("supply"))
    ask = Ask("compare", "greater", "?", [Target("margin_change", (2020, 2021))])
    facts = mode_facts(plan.graph, plan.modes["in-depth"], ask)
    # by hand: metal, parts, sold, revenue, profit, margin, its change, then the comparison
    assert facts.hops == 8
    assert mode_facts(plan.graph, plan.modes["extended"], ask).hops == 1  # its chart is shown


def test_shipped_scenarios_span_three_to_eighteen_images_and_hops_stay_within_eight(built: Path):
    sizes = [len(s["modes"]["extended"]) for s in stored_sets(built)]
    assert min(sizes) == 3 and max(sizes) == 18
    hops = [
        q["modes"][m]["hops"]
        for s in stored_sets(built)
        for q in s["questions"]
        for m in q["modes"]
    ]
    assert max(hops) <= 8 and 7 in hops
