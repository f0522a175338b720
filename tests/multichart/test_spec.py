"""Graph specs: every structural problem is one line that names the node and the fix."""

from __future__ import annotations

import subprocess
import sys

import pytest

from figgen.errors import ConfigError
from figgen.multichart.graph import spec_from_dict
from figgen.multichart.scenarios import load_scenario, scenario_names
from tests.multichart.graphs import comp, data, image, spec


def _error(nodes, **extra) -> str:
    with pytest.raises(ConfigError) as info:
        spec_from_dict(spec(nodes, **extra))
    message = str(info.value)
    assert "\n" not in message
    return message


def test_a_cycle_is_named_as_its_path():
    message = _error(
        {
            "a": data(),
            "b": comp("sum", "a", "c"),
            "c": comp("difference", "b", "a"),
            "i": image("line", "c"),
        }
    )
    assert "cycle: b -> c -> b" in message


def test_an_unknown_operator_names_the_node_and_the_valid_ones():
    message = _error({"a": data(), "y": comp("power", "a"), "i": image("line", "y")})
    assert "node 'y': unknown operator 'power'" in message and "ratio" in message


@pytest.mark.parametrize(
    ("nodes", "sample", "expected"),
    [
        (
            {"a": {"type": "data", "index": "years"}, "i": image("line", "a")},
            None,
            "node 'a' is underdetermined",
        ),
        (
            {"a": data(), "y": {"type": "computation", "inputs": ["a"]}, "i": image("line", "a")},
            None,
            "node 'y' is underdetermined",
        ),
        (
            {"a": data(), "y": comp("difference", "a"), "i": image("line", "a")},
            None,
            "node 'y' (difference)",
        ),
        (
            {"a": data(), "b": data(), "y": comp("sum", "a", "b"), "i": image("line", "y")},
            ["a"],
            "node 'b' is underdetermined",
        ),
        (
            {"a": data(), "b": data(), "y": comp("sum", "a", "b"), "i": image("line", "y")},
            ["a", "b", "y"],
            "is overdetermined",
        ),
    ],
)
def test_underdetermined_and_overdetermined_nodes_are_named(nodes, sample, expected):
    extra = {"sample": sample} if sample else {}
    assert expected in _error(nodes, **extra)


@pytest.mark.parametrize(
    ("nodes", "expected"),
    [
        ({"a": data(), "i": image("line", "zz")}, "node 'i': input 'zz' is not a node"),
        ({"a": data(), "i": image("line", "a"), "j": image("table", "i")}, "input 'i' is an image"),
        ({"a": data(index="regions"), "i": image("line", "a")}, "index 'regions' is not defined"),
        ({"a": data(), "i": image("pie", "a", "a")}, "listed twice"),
        ({"a": data(), "b": data(None), "i": image("bar", "a", "b")}, "image 'i' (bar)"),
        ({"a": data(), "i": {**image("line", "a"), "colour": "red"}}, "unknown key 'colour'"),
        ({"a": data()}, "no image node"),
    ],
)
def test_other_structural_errors(nodes, expected):
    assert expected in _error(nodes)


def test_every_shipped_scenario_is_valid():
    assert len(scenario_names()) >= 5
    for name in scenario_names():
        assert load_scenario(name).nodes


def test_the_cli_reports_a_bad_spec_in_one_line(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(
        'name = "x"\nfamily = "t"\n[nodes.a]\ntype = "data"\nrange = [1, 2]\n'
        '[nodes.y]\ntype = "computation"\nop = "power"\ninputs = ["a"]\n'
        '[nodes.i]\ntype = "image"\nkind = "table"\ninputs = ["a"]\n'
    )
    done = subprocess.run(
        [sys.executable, "-m", "figgen", "multichart", "check", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "node 'y': unknown operator 'power'" in lines[0]
