"""The latent dependency graph: shapes, derivation rules, equivalence classes and closure.

Every edge of appendix C becomes derivation rules ("knowing these nodes fixes that one"):

- a computation ``y = f(p1..pk)`` gives ``{p1..pk} -> y``, and, where ``f`` can be undone,
  ``{y} + the other inputs -> pi`` (an inverse);
- a chart of ``p1..pk`` gives ``{p1..pk} -> image`` and, when the chart is reversible (every
  input can be read back), ``image -> pi``;
- a bidirected edge (a one-to-one map: a time shift, a reversible chart of a single node) makes
  its ends information-equivalent; the equivalence classes are the connected components of the
  bidirected edges.

The closure of a set of nodes is everything these rules derive from it; the minimal generative
sets of ``figgen.multichart.minimal`` and the sufficiency of a mode's images both rest on it.
"""

from __future__ import annotations

import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import ValidationError

from figgen.errors import ConfigError
from figgen.multichart.operators import (
    OPERATORS,
    ORDER_FREE,
    Operator,
    OperatorError,
    operator_for,
)
from figgen.multichart.spec import GraphSpec, one_line
from figgen.multichart.values import Shape

Step = Literal["compute", "invert", "render", "read"]
HOP_COST: dict[Step, int] = {"compute": 1, "invert": 1, "render": 0, "read": 0}
"""Computation steps a rule costs: reading a chart is not a hop, every computation is."""


@dataclass(frozen=True)
class Rule:
    premises: tuple[str, ...]
    conclusion: str
    step: Step
    target: int | None = None
    """For ``invert``: the position of the recovered input among the node's inputs."""

    @property
    def hops(self) -> int:
        return HOP_COST[self.step]


@dataclass(frozen=True)
class Shown:
    """A node an image gives back: one of its inputs, or a statistic of one (a box's median)."""

    node: str
    series: int
    """The position of the input it is, or of the input it summarises."""
    statistic: int | None = None
    """For a statistic: its position in the chart kind's ``multichart_statistics``."""


@dataclass
class Graph:
    spec: GraphSpec
    shapes: dict[str, Shape]
    order: list[str]
    """Nodes in topological order (inputs before the nodes that use them)."""
    rules: list[Rule]
    bidirected: list[tuple[str, str]]
    classes: dict[str, int] = field(default_factory=dict)
    members: list[list[str]] = field(default_factory=list)
    shown: dict[str, list[Shown]] = field(default_factory=dict)
    """Per image, the nodes reading it gives, in the order ``read_image`` returns them."""

    @property
    def unordered(self) -> set[str]:
        """Vectors drawn by a chart that keeps no order (a histogram): a reader gets their
        values, not which label has which, so they are only asked about, and only feed,
        statistics that ignore the order."""
        from figgen.kinds import multichart_kind

        return {
            self.spec.nodes[image].inputs[0]
            for image in self.images
            if not multichart_kind(self.spec.nodes[image].kind or "").multichart_ordered
        }

    def read_position(self, image: str, name: str) -> int:
        """Where node ``name`` is among what reading ``image`` gives (``shown[image]``)."""
        return [read.node for read in self.shown[image]].index(name)

    def node_type(self, name: str) -> str:
        return self.spec.nodes[name].type

    def operator(self, name: str) -> Operator:
        node = self.spec.nodes[name]
        assert node.op is not None
        return operator_for(node.op, len(node.inputs))

    @property
    def values_nodes(self) -> list[str]:
        """Data and computation nodes: everything that holds a value."""
        return [n for n in self.order if self.node_type(n) != "image"]

    @property
    def images(self) -> list[str]:
        return [n for n in self.spec.nodes if self.node_type(n) == "image"]

    def closure(self, known: Iterable[str], *, render: bool = True) -> set[str]:
        """Every node the rules derive from ``known`` (rendering other images only if asked)."""
        have = set(known)
        changed = True
        while changed:
            changed = False
            for rule in self.rules:
                if rule.conclusion in have or (rule.step == "render" and not render):
                    continue
                if all(p in have for p in rule.premises):
                    have.add(rule.conclusion)
                    changed = True
        return have

    def derivations(self, known: Iterable[str]) -> dict[str, Rule | None]:
        """For every derivable node, the rule of a derivation with the fewest computation steps.

        Known nodes map to None. Costs add over premises (Knuth's superior-function variant of
        Dijkstra, run to a fixed point; graphs are small). Other images are never rendered.
        """
        cost: dict[str, int] = {name: 0 for name in known}
        best: dict[str, Rule | None] = {name: None for name in known}
        changed = True
        while changed:
            changed = False
            for rule in self.rules:
                if rule.step == "render" or not all(p in cost for p in rule.premises):
                    continue
                total = rule.hops + sum(cost[p] for p in rule.premises)
                if total < cost.get(rule.conclusion, 1 << 30):
                    cost[rule.conclusion] = total
                    best[rule.conclusion] = rule
                    changed = True
        return best


def validate_graph(spec: GraphSpec, *, source: str = "graph spec") -> Graph:
    """Check a spec's structure and build its graph, or raise a one-line ConfigError."""
    try:
        return _build(spec)
    except _SpecProblem as exc:
        raise ConfigError(f"{source}: {exc}") from None


build_graph = validate_graph


class _SpecProblem(Exception):
    pass


def _build(spec: GraphSpec) -> Graph:
    nodes = spec.nodes
    for name, node in nodes.items():
        for parent in node.inputs:
            if parent not in nodes:
                raise _SpecProblem(
                    f"node '{name}': input '{parent}' is not a node; define [nodes.{parent}]"
                )
            if nodes[parent].type == "image":
                raise _SpecProblem(f"node '{name}': input '{parent}' is an image; use its inputs")
        if len(set(node.inputs)) != len(node.inputs):
            raise _SpecProblem(f"node '{name}': an input is listed twice")
        _check_node(spec, name)
    order = _topological(spec)
    shapes: dict[str, Shape] = {}
    rules: list[Rule] = []
    bidirected: list[tuple[str, str]] = []
    shown: dict[str, list[Shown]] = {}
    for name in order:
        node = nodes[name]
        if node.type == "data":
            shapes[name] = (
                Shape("vector", tuple(spec.index[node.index].labels))
                if node.index
                else Shape("scalar")
            )
        elif node.type == "computation":
            assert node.op is not None
            op = operator_for(node.op, len(node.inputs))
            inputs = [shapes[p] for p in node.inputs]
            try:
                shapes[name] = op.shape(inputs, node)
            except OperatorError as exc:
                raise _SpecProblem(f"node '{name}' ({node.op}): {exc}") from None
            rules.append(Rule(tuple(node.inputs), name, "compute"))
            for pos, parent in enumerate(node.inputs):
                if op.invertible(inputs, shapes[name], pos):
                    others = [p for p in node.inputs if p != parent]
                    rules.append(Rule((name, *others), parent, "invert", pos))
            if node.op == "shift":
                bidirected.append((node.inputs[0], name))
        else:
            _check_chart(spec, name, [shapes[p] for p in node.inputs])
            rules.append(Rule(tuple(node.inputs), name, "render"))
            shown[name] = _shown(spec, name)
            if node.reversible is not False:
                rules += [Rule((name,), read.node, "read") for read in shown[name]]
                if len(node.inputs) == 1 and not _summarises(spec, name):
                    bidirected.append((node.inputs[0], name))
    graph = Graph(spec, shapes, order, rules, bidirected, shown=shown)
    _check_unordered(graph)
    _check_observations(graph)
    _classes(graph)
    if not graph.images:
        raise _SpecProblem('the graph has no image node; add one with type = "image"')
    if spec.sample is not None:
        _check_sample(graph, spec.sample)
    return graph


def _check_node(spec: GraphSpec, name: str) -> None:
    node = spec.nodes[name]
    if node.type == "data":
        if node.inputs:
            raise _SpecProblem(f"node '{name}': a data node has no inputs; make it a computation")
        if node.range is None:
            raise _SpecProblem(
                f"node '{name}' is underdetermined: a data node needs range = [low, high]"
            )
        if node.index is not None and node.index not in spec.index:
            raise _SpecProblem(f"node '{name}': index '{node.index}' is not defined in [index]")
    elif node.type == "computation":
        if node.op is None:
            raise _SpecProblem(f"node '{name}' is underdetermined: a computation needs an op")
        if node.op not in OPERATORS:
            raise _SpecProblem(
                f"node '{name}': unknown operator '{node.op}'; use one of {', '.join(OPERATORS)}"
            )
        if not node.inputs:
            raise _SpecProblem(f"node '{name}' is underdetermined: {node.op} has no inputs")
    else:
        from figgen.kinds import multichart_kinds

        charts = list(multichart_kinds())
        if node.kind not in charts:
            known = f"{', '.join(charts[:-1])} or {charts[-1]}"
            got = "" if node.kind is None else f", not '{node.kind}'"
            raise _SpecProblem(f"node '{name}': an image needs kind = {known}{got}")
        if not node.inputs:
            raise _SpecProblem(f"node '{name}': an image needs inputs (the nodes it shows)")


def _check_chart(spec: GraphSpec, name: str, inputs: list[Shape]) -> None:
    from figgen.kinds import multichart_kind

    chart = spec.nodes[name].kind or ""
    refusal = multichart_kind(chart).multichart_refusal(chart, inputs)
    if refusal is not None:
        raise _SpecProblem(f"image '{name}' ({chart}) {refusal}")


def _shown(spec: GraphSpec, image: str) -> list[Shown]:
    """What reading image ``image`` gives: its inputs, or for a chart that shows statistics of
    its inputs (a box plot), the spec's computation nodes that are those statistics."""
    from figgen.kinds import multichart_kind

    node = spec.nodes[image]
    statistics = multichart_kind(node.kind or "").multichart_statistics
    if not statistics:
        return [Shown(parent, k) for k, parent in enumerate(node.inputs)]
    return [
        Shown(name, k, i)
        for k, parent in enumerate(node.inputs)
        for i, summary in enumerate(statistics)
        for name, user in spec.nodes.items()
        if user.type == "computation"
        and user.inputs == [parent]
        and summary.matches(user.op, user.q)
    ]


MAX_VALUE_BARS = 30
"""A chart of observations draws one bar per value its data node can take; more are too thin."""


def _check_unordered(graph: Graph) -> None:
    """Observations in a chart that keeps no order: one data node whose values fall on few
    enough grid values to read each exactly, shown only so and feeding only order-free
    statistics."""
    from figgen.kinds import multichart_kind

    spec = graph.spec

    def ordered(image: str) -> bool:
        return multichart_kind(spec.nodes[image].kind or "").multichart_ordered

    for name in sorted(graph.unordered):
        node = spec.nodes[name]
        image = next(i for i in graph.images if name in spec.nodes[i].inputs and not ordered(i))
        chart = spec.nodes[image].kind
        if node.type != "data":
            raise _SpecProblem(
                f"image '{image}' ({chart}) shows one data node with an index (its "
                "observations), not a computation"
            )
        _check_grid(graph, image, name, "bar")
        for other, user in spec.nodes.items():
            if name not in user.inputs:
                continue
            if user.type == "image" and ordered(other) and not _summarises(spec, other):
                raise _SpecProblem(
                    f"image '{other}': '{name}' is drawn as a {chart}, which keeps no order of "
                    "its values; show it only so"
                )
            if user.type == "computation" and (
                user.op not in ORDER_FREE or (user.op == "mean" and len(user.inputs) > 1)
            ):
                raise _SpecProblem(
                    f"node '{other}': '{name}' is drawn as a {chart}, which keeps no order of "
                    f"its values; use one of {', '.join(sorted(ORDER_FREE))} of it alone"
                )


def _summarises(spec: GraphSpec, image: str) -> bool:
    """Whether the image shows statistics of its inputs (a box plot), not the inputs."""
    from figgen.kinds import multichart_kind

    return bool(multichart_kind(spec.nodes[image].kind or "").multichart_statistics)


def _check_grid(graph: Graph, image: str, name: str, mark: str) -> None:
    """Observations read exactly off a chart: few enough grid values for one mark each."""
    from figgen.kinds.histogram import value_grid

    node = graph.spec.nodes[name]
    assert node.range is not None
    grid = value_grid(*node.range, node.decimals)
    if len(grid) > MAX_VALUE_BARS:
        raise _SpecProblem(
            f"image '{image}' ({graph.spec.nodes[image].kind}): '{name}' can take {len(grid)} "
            f"values, one {mark} each; at most {MAX_VALUE_BARS}: narrow its range or lower "
            "its decimals"
        )


def _check_observations(graph: Graph) -> None:
    """A chart of statistics (a box plot) draws data nodes' observations on a value axis with
    a tick per value, so that each statistic it shows is one of the values, read exactly."""
    for image in graph.images:
        if not _summarises(graph.spec, image):
            continue
        for name in graph.spec.nodes[image].inputs:
            if graph.spec.nodes[name].type != "data":
                raise _SpecProblem(
                    f"image '{image}' ({graph.spec.nodes[image].kind}) shows data nodes (their "
                    f"observations), not the computation '{name}'"
                )
            _check_grid(graph, image, name, "tick")


def _topological(spec: GraphSpec) -> list[str]:
    """Inputs first; a cycle is reported as the path that closes it."""
    state: dict[str, int] = {}
    order: list[str] = []
    path: list[str] = []

    def visit(name: str) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            cycle = path[path.index(name) :] + [name]
            raise _SpecProblem(
                f"the graph has a cycle: {' -> '.join(cycle)}; remove one of these inputs"
            )
        state[name] = 1
        path.append(name)
        for parent in spec.nodes[name].inputs:
            visit(parent)
        path.pop()
        state[name] = 2
        order.append(name)

    for name in spec.nodes:
        visit(name)
    return order


def _classes(graph: Graph) -> None:
    parent = {name: name for name in graph.order}

    def find(name: str) -> str:
        while parent[name] != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for a, b in graph.bidirected:
        parent[find(a)] = find(b)
    roots: dict[str, int] = {}
    for name in graph.spec.nodes:  # spec order: class ids and member lists are stable
        root = find(name)
        if root not in roots:
            roots[root] = len(graph.members)
            graph.members.append([])
        graph.classes[name] = roots[root]
        graph.members[roots[root]].append(name)


def _check_sample(graph: Graph, sample: list[str]) -> None:
    for name in sample:
        if name not in graph.spec.nodes or graph.node_type(name) == "image":
            raise _SpecProblem(f"sample: '{name}' is not a data or computation node")
    have = graph.closure(sample)
    for name in graph.order:
        if name not in have:
            raise _SpecProblem(
                f"node '{name}' is underdetermined: it cannot be derived from the sampled "
                f"nodes {', '.join(sample)}; add it or a node it depends on to sample"
            )
    for name in sample:
        if name in graph.closure([s for s in sample if s != name]):
            raise _SpecProblem(
                f"node '{name}' is overdetermined: the other sampled nodes already fix it; "
                "remove it from sample"
            )


def spec_from_dict(values: dict[str, Any], *, source: str = "graph spec") -> GraphSpec:
    """Validate a parsed spec: its field types, then its graph's structure."""
    try:
        spec = GraphSpec.model_validate(values)
    except ValidationError as exc:
        raise ConfigError(f"{source}: {one_line(exc)}") from None
    validate_graph(spec, source=source)
    return spec


def load_spec(path: str | Path) -> GraphSpec:
    """Read and validate a TOML graph spec."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read graph spec {path}: {exc.strerror}") from None
    try:
        values = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    return spec_from_dict(values, source=str(path))
