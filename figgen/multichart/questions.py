"""Questions about a set: extract, compare and compute, answered from the node values.

Each template reads named node values (its ``targets``) and applies one small question-level
operation (``Ask.how``); ``answer_of`` computes the answer from any mapping of node values, so
the same function gives the truth (from the propagated data) and the check (from the values
read off one mode's images). Questions are spread over the nodes round-robin, so data and
computation nodes are asked about evenly, and never on near-ties or near-zero answers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from figgen.multichart.graph import Graph
from figgen.multichart.spec import Label
from figgen.multichart.values import Value, Vector, rounded
from figgen.words.wording import join

QuestionType = Literal["extract", "compare", "compute"]
How = Literal[
    "value", "label", "greater", "greater_than", "extreme", "change", "mean", "ratio", "sum"
]
LETTERS = ("A", "B", "C", "D")
MARGIN = 0.03
"""Compared values must differ by this share of the larger, so no comparison is a near-tie."""

EXTRA_HOPS: dict[How, int] = {
    "value": 0,
    "label": 0,
    "greater": 1,
    "greater_than": 1,
    "extreme": 1,
    "change": 1,
    "mean": 1,
    "ratio": 1,
    "sum": 1,
}
"""Computation steps the question itself adds to reading its targets."""


@dataclass(frozen=True)
class Target:
    node: str
    labels: tuple[Label, ...] = ()
    """The labels of a vector the question reads; empty: the whole node."""


@dataclass
class Ask:
    """One question, its truth and how to recompute it."""

    type: QuestionType
    how: How
    text: str
    targets: list[Target]
    answer: Any = None
    answer_type: Literal["number", "choice", "boolean"] = "number"
    options: list[str] | None = None
    """Option texts for multiple choice, in the order of ``LETTERS``."""
    option_values: list[Label] = field(default_factory=list)
    extreme: Literal["max", "min"] | None = None

    @property
    def extra_hops(self) -> int:
        return EXTRA_HOPS[self.how]


def answer_of(ask: Ask, values: dict[str, Value]) -> Any:
    """The answer from node values (truth, or values read off a mode's images)."""
    t = ask.targets
    first = values[t[0].node]
    if ask.how == "value":
        return first.at(t[0].labels[0]) if isinstance(first, Vector) else float(first)
    if ask.how == "label":
        return LETTERS[ask.option_values.index(first)]  # type: ignore[arg-type]
    if ask.how == "extreme":
        assert isinstance(first, Vector)
        pick = np.argmax(first.array()) if ask.extreme == "max" else np.argmin(first.array())
        return LETTERS[ask.option_values.index(first.labels[int(pick)])]
    if ask.how == "greater":
        assert isinstance(first, Vector)
        a, b = t[0].labels
        return bool(first.at(a) > first.at(b))
    if ask.how in ("greater_than", "ratio"):
        a_value, b_value = _at(values, t[0]), _at(values, t[1])
        return bool(a_value > b_value) if ask.how == "greater_than" else a_value / b_value
    assert isinstance(first, Vector)
    if ask.how == "change":
        a, b = t[0].labels
        return first.at(b) - first.at(a)
    if ask.how == "sum":
        return float(sum(first.at(v) for v in t[0].labels))
    return float(first.array().mean())  # mean


def _at(values: dict[str, Value], target: Target) -> float:
    value = values[target.node]
    return value.at(target.labels[0]) if isinstance(value, Vector) else float(value)


def describe(graph: Graph, name: str) -> str:
    """A node as a question names it: its label, a computation's definition, and its unit."""
    text = graph.spec.label(name)
    if graph.spec.nodes[name].type != "computation":
        return text
    definition = define(graph, name)
    return text if definition.casefold() in text.casefold() else f"{text} ({definition})"


def define(graph: Graph, name: str) -> str:
    """A computation node's definition in words, its labels named by their index."""
    node = graph.spec.nodes[name]
    inputs = [graph.spec.label(p) for p in node.inputs]
    if node.op in ("argmax", "argmin"):
        word = "largest" if node.op == "argmax" else "smallest"
        return f"the {_index_word(graph, node.inputs[0])} with the {word} {inputs[0]}"
    word = _index_word(graph, node.inputs[0])
    definition = graph.operator(name).describe(inputs, node)
    shown = graph.shapes[node.inputs[0]].labels
    if "all labels" in definition and len(shown) < len(_index_labels(graph, node.inputs[0])):
        # a distance leaves out its origin: the mean is over the other sites, so say which
        names = [str(v) for v in shown]
        definition = definition.replace("all labels", f"{word}s {join(names)}")
    return definition.replace("labels", f"{word}s").replace("label", word)


def state_relations(graph: Graph, ask: Ask, relations: list[str]) -> None:
    """Append to the question the definition of every computation its derivation uses that
    it does not already state (a chart of deliveries does not say they are the orders two
    years on, yet reading orders off it needs exactly that)."""
    for name in relations:
        definition = define(graph, name)
        if definition.casefold() not in ask.text.casefold():
            ask.text += f" Note: {graph.spec.label(name)} = {definition}."


def _unit(graph: Graph, name: str) -> str:
    unit = graph.spec.nodes[name].unit
    return f" in {unit}" if unit else ""


def _where(graph: Graph, name: str, label: Label) -> str:
    return f"{_index_word(graph, name)} {label}"


def _index_of(graph: Graph, name: str) -> str | None:
    node = graph.spec.nodes[name]
    while node.index is None and node.inputs:
        node = graph.spec.nodes[node.inputs[0]]
    return node.index


def _index_word(graph: Graph, name: str) -> str:
    index = _index_of(graph, name)
    if index is None:
        return "label"
    return graph.spec.index[index].title or index


def _index_labels(graph: Graph, name: str) -> tuple[Label, ...]:
    index = _index_of(graph, name)
    return () if index is None else tuple(graph.spec.index[index].labels)


def candidates(graph: Graph, values: dict[str, Value], rng: np.random.Generator) -> list[Ask]:
    """Every question the templates can ask of these values, in a seeded order."""
    out: list[Ask] = []
    unordered = graph.unordered
    vectors = [
        n for n in graph.values_nodes if isinstance(values[n], Vector) and n not in unordered
    ]
    for name in graph.values_nodes:
        value = values[name]
        desc = describe(graph, name)
        if isinstance(value, Vector) and name in unordered:
            out += _observation_questions(graph, name, value, desc)
        elif isinstance(value, Vector):
            out += _vector_questions(graph, name, value, desc, rng)
        elif isinstance(value, float):
            out.append(
                Ask("extract", "value", f"What is the {desc}{_unit(graph, name)}?", [Target(name)])
            )
        else:
            options = _options(rng, value, graph.shapes[name].labels)
            if options is not None:
                ask = Ask(
                    "extract",
                    "label",
                    f"Which {_index_word(graph, name)} is the {desc}?",
                    [Target(name)],
                    answer_type="choice",
                    options=[str(v) for v in options],
                    option_values=options,
                )
                out.append(ask)
    for i, a in enumerate(vectors):
        for b in vectors[i + 1 :]:
            out += _pair_questions(graph, a, b, values, rng)
    for ask in out:
        if ask.answer is None:
            ask.answer = rounded(answer_of(ask, values))
    return out


def _vector_questions(
    graph: Graph, name: str, value: Vector, desc: str, rng: np.random.Generator
) -> list[Ask]:
    out = []
    labels = value.labels
    arr = value.array()
    scale = float(np.max(np.abs(arr))) or 1.0
    unit = _unit(graph, name)
    t = labels[int(rng.integers(len(labels)))]
    if abs(value.at(t)) >= 0.05 * scale:
        out.append(
            Ask(
                "extract",
                "value",
                f"What is the {desc}{unit} for {_where(graph, name, t)}?",
                [Target(name, (t,))],
            )
        )
    a, b = sorted(rng.choice(len(labels), size=2, replace=False))
    la, lb = labels[int(a)], labels[int(b)]
    va, vb = value.at(la), value.at(lb)
    if _clear(va, vb):
        out.append(
            Ask(
                "compare",
                "greater",
                f"Is the {desc} for {_where(graph, name, la)} greater than for "
                f"{_where(graph, name, lb)}? Answer True or False.",
                [Target(name, (la, lb))],
                answer_type="boolean",
            )
        )
    if abs(vb - va) >= 0.05 * scale:
        out.append(
            Ask(
                "compute",
                "change",
                f"By how much does the {desc} change from {_where(graph, name, la)} to "
                f"{_where(graph, name, lb)}{unit}? Give the later minus the earlier value.",
                [Target(name, (la, lb))],
            )
        )
        out.append(
            Ask(
                "compute",
                "sum",
                f"What is the sum of the {desc} for {_where(graph, name, la)} and "
                f"{_where(graph, name, lb)}{unit}?",
                [Target(name, (la, lb))],
            )
        )
    # the mean of shares is 100 / count whatever the picture shows: not asked
    if abs(arr.mean()) >= 0.05 * scale and graph.spec.nodes[name].op != "share":
        out.append(
            Ask(
                "compute",
                "mean",
                f"What is the average of the {desc} over all {len(labels)} "
                f"{_index_word(graph, name)}s shown{unit}?",
                [Target(name)],
            )
        )
    extreme: Literal["max", "min"] = "max" if rng.random() < 0.5 else "min"
    # an argmax (argmin) node of this vector asks its highest (lowest) label already
    picked = {n.op for n in graph.spec.nodes.values() if n.inputs == [name]} & {"argmax", "argmin"}
    if f"arg{extreme}" in picked:
        extreme = "min" if extreme == "max" else "max"
    if f"arg{extreme}" in picked:
        return out
    order = np.sort(arr)
    top, runner = (order[-1], order[-2]) if extreme == "max" else (order[0], order[1])
    if abs(top - runner) >= MARGIN * max(float(np.ptp(arr)), 1e-9) * 3:
        pick = labels[int(np.argmax(arr) if extreme == "max" else np.argmin(arr))]
        options = _options(rng, pick, labels)
        if options is not None:
            word = "highest" if extreme == "max" else "lowest"
            out.append(
                Ask(
                    "compare",
                    "extreme",
                    f"For which {_index_word(graph, name)} is the {desc} {word}?",
                    [Target(name)],
                    answer_type="choice",
                    options=[str(v) for v in options],
                    option_values=options,
                    extreme=extreme,
                )
            )
    return out


def _observation_questions(graph: Graph, name: str, value: Vector, desc: str) -> list[Ask]:
    """Observations drawn as a histogram: the bars show their values but not which label holds
    which, so only the order-free mean is asked, unless a mean node of them asks it already
    (the spec's statistics nodes ask the rest)."""
    arr = value.array()
    has_mean = any(
        node.op == "mean" and node.inputs == [name] for node in graph.spec.nodes.values()
    )
    if has_mean or abs(arr.mean()) < 0.05 * (float(np.max(np.abs(arr))) or 1.0):
        return []
    return [
        Ask(
            "compute",
            "mean",
            f"What is the average of the {desc} over all {len(value.labels)} "
            f"{_index_word(graph, name)}s{_unit(graph, name)}?",
            [Target(name)],
        )
    ]


def _pair_questions(
    graph: Graph, a: str, b: str, values: dict[str, Value], rng: np.random.Generator
) -> list[Ask]:
    va, vb = values[a], values[b]
    assert isinstance(va, Vector) and isinstance(vb, Vector)
    shared = [v for v in va.labels if v in vb.labels]
    if not shared:
        return []
    t = shared[int(rng.integers(len(shared)))]
    x, y = va.at(t), vb.at(t)
    out = []
    da, db = describe(graph, a), describe(graph, b)
    targets = [Target(a, (t,)), Target(b, (t,))]
    same_unit = graph.spec.nodes[a].unit == graph.spec.nodes[b].unit
    if same_unit and _clear(x, y) and not _order_fixed(graph, a, b):
        out.append(
            Ask(
                "compare",
                "greater_than",
                f"For {_where(graph, a, t)}, is the {da} greater than the {db}? "
                "Answer True or False.",
                targets,
                answer_type="boolean",
            )
        )
    if y != 0 and abs(x) > 0 and 0.01 <= abs(x / y) <= 100:
        out.append(
            Ask(
                "compute",
                "ratio",
                f"For {_where(graph, a, t)}, what is the {da} divided by the {db}?",
                targets,
            )
        )
    return out


def _sign(graph: Graph, names: list[str]) -> int:
    """+1 (-1) when the sum of these nodes is positive (negative) whatever the sampled values
    (all data nodes with ranges of one strict sign), else 0."""
    signs = set()
    for name in names:
        node = graph.spec.nodes[name]
        if node.type != "data" or node.range is None:
            return 0
        low, high = node.range
        signs.add(1 if low > 0 else -1 if high < 0 else 0)
    return signs.pop() if len(signs) == 1 else 0


def _order_fixed(graph: Graph, a: str, b: str) -> bool:
    """Whether ``a > b`` follows from the spec alone (a question a reader answers blind): two
    data nodes of disjoint ranges, a node against a sum of it and others of one sign, or
    against itself minus something of one sign (a range's high end against its length)."""
    nodes = graph.spec.nodes
    first, second = nodes[a], nodes[b]
    if first.type == second.type == "data" and first.range and second.range:
        return first.range[1] < second.range[0] or second.range[1] < first.range[0]
    for one, other in ((a, b), (b, a)):
        node = nodes[other]
        if one not in node.inputs or len(node.inputs) < 2:
            continue
        rest = [p for p in node.inputs if p != one]
        if node.op == "sum" or (node.op == "difference" and node.inputs[0] == one):
            return _sign(graph, rest) != 0
    return False


def _clear(a: float, b: float) -> bool:
    return abs(a - b) >= MARGIN * max(abs(a), abs(b), 1e-9)


def _options(
    rng: np.random.Generator, answer: Any, labels: tuple[Label, ...]
) -> list[Label] | None:
    others = [v for v in labels if v != answer]
    if len(others) < 3:
        return None
    chosen = [others[int(i)] for i in rng.choice(len(others), size=3, replace=False)]
    options = [answer, *chosen]
    order = rng.permutation(4)
    return [options[int(i)] for i in order]


def choose_questions(asks: list[Ask], count: int, rng: np.random.Generator) -> list[Ask]:
    """Up to ``count`` questions, round-robin over the nodes they are about and over types."""
    by_node: dict[str, list[Ask]] = {}
    for ask in asks:
        by_node.setdefault(ask.targets[0].node, []).append(ask)
    nodes = list(by_node)
    rng.shuffle(nodes)
    chosen: list[Ask] = []
    turn = 0
    while len(chosen) < count and any(by_node.values()):
        node = nodes[turn % len(nodes)]
        group = by_node[node]
        if group:
            # the type asked least so far among this node's questions, so types stay balanced
            counts = {
                t: sum(a.type == t for a in chosen) for t in ("extract", "compare", "compute")
            }
            least = min(counts[a.type] for a in group)
            pool = [i for i, a in enumerate(group) if counts[a.type] == least]
            chosen.append(group.pop(pool[int(rng.integers(len(pool)))]))
        turn += 1
    return chosen
