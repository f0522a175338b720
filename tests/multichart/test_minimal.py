"""Minimal generative sets on hand-built graphs with known answers, and by brute force."""

from __future__ import annotations

import itertools

import pytest

from figgen.multichart.graph import build_graph, spec_from_dict
from figgen.multichart.minimal import check_set, minimal_sets
from tests.multichart.graphs import comp, data, image, spec


def _graph(nodes, **extra):
    return build_graph(spec_from_dict(spec(nodes, **extra)))


def _sets(result):
    return {frozenset(result.selected)} | {frozenset(a) for a in result.alternatives}


def test_difference_has_three_minimal_sets():
    g = _graph(
        {"a": data(), "b": data(), "y": comp("difference", "a", "b"), "img": image("line", "y")}
    )
    result = minimal_sets(g)
    assert result.selected == ["a", "b"]
    assert _sets(result) == {frozenset("ab"), frozenset({"a", "y"}), frozenset({"b", "y"})}
    assert ["y", "img"] in result.classes  # a reversible chart of one node is equivalent to it


def test_lossy_operators_leave_one_minimal_set():
    g = _graph(
        {
            "d": data(),
            "s": comp("share", "d"),
            "m": comp("mean", "d"),
            "top": comp("argmax", "d"),
            "img": image("pie", "s"),
        }
    )
    result = minimal_sets(g)
    assert result.selected == ["d"] and result.alternatives == []


def test_shift_makes_an_equivalence_class():
    g = _graph({"d": data(), "late": comp("shift", "d", lag=2), "img": image("line", "late")})
    result = minimal_sets(g)
    assert result.selected == ["d"] and result.alternatives == []
    assert sorted(result.classes[g.classes["d"]]) == ["d", "img", "late"]


def test_sum_of_three_has_four_minimal_sets_and_the_chart_alone():
    g = _graph(
        {
            "a": data(),
            "b": data(),
            "c": data(),
            "t": comp("sum", "a", "b", "c"),
            "img": image("bar", "a", "b", "c", "t"),
        }
    )
    assert _sets(minimal_sets(g)) == {
        frozenset("abc"),
        frozenset("tbc"),
        frozenset("atc"),
        frozenset("abt"),
        frozenset({"img"}),  # a reversible chart of all four shows every value
    }


def test_partial_overlap_is_not_invertible():
    # change() drops the first year, so it cannot give back its input
    g = _graph({"a": data(), "d": comp("change", "a"), "img": image("line", "d")})
    assert minimal_sets(g).alternatives == []


def _brute_force(g):
    """Every complete and independent set of class representatives, by enumeration."""
    reps = [m[0] for m in g.members]
    found = set()
    for size in range(1, len(reps) + 1):
        for combo in itertools.combinations(reps, size):
            if set(g.order) <= g.closure(combo) and all(
                c not in g.closure([x for x in combo if x != c]) for c in combo
            ):
                found.add(frozenset(g.classes[c] for c in combo))
    return found


@pytest.mark.parametrize(
    "nodes",
    [
        {
            "a": data(),
            "b": data(),
            "c": data(),
            "y": comp("sum", "a", "b"),
            "z": comp("difference", "y", "c"),
            "r": comp("ratio", "z", "a"),
            "img": image("line", "z", "r"),
        },
        {
            "x": data(),
            "y": data(),
            "p": data(None),
            "q": data(None),
            "m": comp("mean", "x"),
            "s": comp("sum", "p", "q"),
            "late": comp("shift", "y", lag=1),
            "gap": comp("difference", "x", "y"),
            "img": image("table", "m", "s"),
            "img2": image("line", "late", "gap"),
        },
    ],
)
def test_all_minimal_sets_match_brute_force(nodes):
    g = _graph(nodes)
    result = minimal_sets(g)
    got = {frozenset(g.classes[n] for n in s) for s in [result.selected, *result.alternatives]}
    assert got == _brute_force(g)
    for members in [result.selected, *result.alternatives]:
        assert check_set(g, members).ok


def test_check_set_names_what_breaks():
    g = _graph({"a": data(), "b": data(), "y": comp("sum", "a", "b"), "img": image("line", "y")})
    assert check_set(g, ["a"]).underived == ["b", "y", "img"]
    redundant = check_set(g, ["a", "b", "y"])
    assert set(redundant.redundant) == {"a", "b", "y"} and not redundant.independent
    conflict = check_set(g, ["y", "img", "a"])
    assert ("y", "img") in conflict.conflicts and not conflict.conflict_free


def test_a_chosen_sample_is_the_selected_set():
    g = _graph(
        {"a": data(), "b": data(), "y": comp("difference", "a", "b"), "img": image("line", "y")},
        sample=["a", "y"],
    )
    assert minimal_sets(g, selected=["a", "y"]).selected == ["a", "y"]
