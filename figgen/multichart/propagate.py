"""Propagation: every node's value from the values of a generating set, through the rules.

The same evaluator serves data synthesis (from the sampled minimal set to every node) and the
backward sufficiency check (from the values read off a mode's images to every question's
nodes): a node is computed forward from its inputs, or recovered by an operator's inverse.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from figgen.multichart.graph import Graph, Rule
from figgen.multichart.values import Value, rounded


class Underdetermined(ValueError):
    """A node no derivation reaches from the known nodes."""


def propagate(
    graph: Graph,
    known: Mapping[str, Value],
    *,
    wanted: list[str] | None = None,
    images: Mapping[str, list[Value]] | None = None,
) -> dict[str, Value]:
    """Values of ``wanted`` (default: every value node) from ``known`` node values.

    ``images`` maps an image node to the values read off it, one per input, so a mode's
    images alone can stand in for the nodes they show.
    """
    images = images or {}
    best = graph.derivations([*known, *images])
    values: dict[str, Value] = dict(known)

    def value(name: str) -> Value:
        if name in values:
            return values[name]
        rule = best.get(name)
        if rule is None:
            raise Underdetermined(f"node '{name}' cannot be derived from {sorted(best)}")
        values[name] = rounded(_apply(graph, rule, value, images))
        return values[name]

    for name in wanted if wanted is not None else graph.values_nodes:
        value(name)
    return values


def _apply(
    graph: Graph, rule: Rule, get: Callable[[str], Value], images: Mapping[str, list[Value]]
) -> Value:
    """The conclusion of ``rule``; ``get`` gives a premise's value (computed on demand)."""
    name = rule.conclusion
    if rule.step == "read":
        (image,) = rule.premises
        return images[image][graph.read_position(image, name)]
    if rule.step == "compute":
        node = graph.spec.nodes[name]
        op = graph.operator(name)
        return op.apply([get(p) for p in node.inputs], node, graph.shapes[name])
    # invert: the rule's first premise is the computed node, the rest its other inputs
    computed = rule.premises[0]
    node = graph.spec.nodes[computed]
    op = graph.operator(computed)
    target = rule.target
    assert target is not None and hasattr(op, "invert")
    others = [get(p) for i, p in enumerate(node.inputs) if i != target]
    return op.invert(get(computed), others, target, len(node.inputs), graph.shapes[name])
