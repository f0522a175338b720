"""Backward propagation from a question to a mode's images: hops, nodes, images, evidence.

``trace`` follows the fewest-step derivation of each target back to the charts it reads;
``verify_mode`` re-derives every answer from the values the mode's image records show (table
cells and pie labels as printed) and reports the questions those images cannot answer
within tolerance. A set with such a question is not emitted as is: the question is dropped.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from figgen.multichart.graph import Graph, Rule
from figgen.multichart.propagate import Underdetermined, propagate
from figgen.multichart.questions import Ask, Target, answer_of
from figgen.multichart.render import evidence, read_image
from figgen.multichart.spec import Label
from figgen.multichart.values import Value
from figgen.schema.elements import BBox
from figgen.schema.record import Record

TOLERANCE = 0.001
"""Largest relative gap between the truth and the answer recomputed from printed values (the
scoring tolerance is 1%, so rounding in tables can never decide an answer)."""


@dataclass(frozen=True)
class Read:
    image: str
    position: int
    labels: tuple[Label, ...]


@dataclass
class ModeFacts:
    """What one question needs in one mode."""

    hops: int
    nodes: list[str]
    images: list[str]
    reads: list[Read] = field(default_factory=list)
    steps: list[Rule] = field(default_factory=list)
    """The computations and inverses on the derivation, each once."""

    @property
    def relations(self) -> list[str]:
        """The computation nodes whose definitions the derivation uses."""
        used = [r.premises[0] if r.step == "invert" else r.conclusion for r in self.steps]
        return list(dict.fromkeys(used))


def _premise_labels(graph: Graph, rule: Rule, labels: tuple[Label, ...]) -> list[tuple[Label, ...]]:
    if not labels:
        return [() for _ in rule.premises]
    if rule.step == "compute":
        node = graph.spec.nodes[rule.conclusion]
        op = graph.operator(rule.conclusion)
        return [op.input_labels(labels, k, node) for k in range(len(rule.premises))]
    if rule.step == "invert":
        computed = graph.spec.nodes[rule.premises[0]]
        if computed.op == "shift":
            return [tuple(int(v) + (computed.lag or 0) for v in labels)]
        return [labels for _ in rule.premises]
    return [labels]


def trace(
    graph: Graph, best: dict[str, Rule | None], target: Target
) -> tuple[set[str], list[Read], list[Rule]]:
    """The nodes on the target's derivation, the chart reads at its leaves and its steps."""
    nodes: set[str] = set()
    reads: list[Read] = []
    steps: list[Rule] = []

    def walk(name: str, labels: tuple[Label, ...]) -> None:
        nodes.add(name)
        rule = best[name]
        if rule is None:
            return
        if rule.hops and rule not in steps:
            steps.append(rule)
        if rule.step == "read":
            image = rule.premises[0]
            reads.append(Read(image, graph.read_position(image, name), labels))
            return
        for premise, sub in zip(rule.premises, _premise_labels(graph, rule, labels), strict=True):
            walk(premise, sub)

    walk(target.node, target.labels)
    return nodes, reads, steps


def mode_facts(graph: Graph, images: list[str], ask: Ask) -> ModeFacts:
    best = graph.derivations(images)
    missing = [t.node for t in ask.targets if t.node not in best]
    if missing:
        raise Underdetermined(f"node '{missing[0]}' is not derivable from images {images}")
    nodes: set[str] = set()
    reads: list[Read] = []
    steps: list[Rule] = []
    for target in ask.targets:
        found, leaf_reads, used = trace(graph, best, target)
        nodes |= found
        reads += leaf_reads
        steps += [rule for rule in used if rule not in steps]
    # a step shared by two targets (orders, and orders minus deliveries) is taken once
    return ModeFacts(
        hops=len(steps) + ask.extra_hops,
        nodes=[n for n in graph.order if n in nodes and graph.node_type(n) != "image"],
        images=[i for i in images if any(r.image == i for r in reads)],
        reads=reads,
        steps=steps,
    )


def evidence_boxes(
    graph: Graph, facts: ModeFacts, records: dict[str, Record]
) -> dict[str, list[BBox]]:
    """Per image, the boxes of the marks and texts that show what the question reads."""
    out: dict[str, list[BBox]] = {}
    for read in facts.reads:
        record = records[read.image]
        ids = evidence(record, graph, read.image, read.position, read.labels)
        boxes = out.setdefault(read.image, [])
        for element in record.elements:
            if element.id in ids and element.bbox not in boxes:
                boxes.append(element.bbox)
    return out


def values_from_images(
    graph: Graph, images: list[str], records: dict[str, Record]
) -> dict[str, Value]:
    """Every value node derivable from what the images show, propagated from those values."""
    shown = {image: read_image(records[image], graph, image) for image in images}
    reachable = graph.derivations(images)
    wanted = [n for n in graph.values_nodes if n in reachable]
    return propagate(graph, {}, wanted=wanted, images=shown)


def agrees(truth: Any, got: Any) -> bool:
    if isinstance(truth, bool | str):
        return bool(truth == got)
    return abs(float(got) - float(truth)) <= TOLERANCE * abs(float(truth)) + 1e-12


def verify_mode(
    graph: Graph, images: list[str], records: dict[str, Record], asks: list[Ask]
) -> list[int]:
    """Indices of the questions the mode's images do not answer correctly."""
    values = values_from_images(graph, images, records)
    bad = []
    for i, ask in enumerate(asks):
        try:
            got = answer_of(ask, values)
        except (KeyError, ZeroDivisionError, ValueError):
            bad.append(i)
            continue
        if not agrees(ask.answer, got):
            bad.append(i)
    return bad
