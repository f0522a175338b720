"""Minimal generative sets (appendix C.4): complete, independent and conflict-free node sets.

Derivation rules are functional dependencies between information-equivalence classes, so the
minimal generative sets are exactly the candidate keys of that dependency system: complete
means the closure is everything, independent means no member is in the closure of the others
(for a complete set that is the same as having no removable member), and conflict-free follows
from independence (two members of one class, or a member and a descendant it fixes, would make
one derivable from the other) and is checked on its own terms too. All keys are enumerated
with Lucchesi and Osborn's algorithm (1978): from any key ``K`` and rule ``X -> a``, the set
``X + (K - a)`` is complete and reduces to a key; repeating from every new key finds them all.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from figgen.multichart.graph import Graph

MAX_ALTERNATIVES = 64

_PREFERENCE = {"data": 0, "computation": 1, "image": 2}


@dataclass(frozen=True)
class MinimalSetResult:
    """The selected minimal generative set and the admissible alternatives (node names).

    Each member stands for its equivalence class; ``classes`` lists every class's members.
    """

    selected: list[str]
    alternatives: list[list[str]]
    classes: list[list[str]]
    truncated: bool = False


@dataclass
class SetCheck:
    """Which of the three properties a node set has, and the nodes that break them."""

    underived: list[str] = field(default_factory=list)
    redundant: list[str] = field(default_factory=list)
    conflicts: list[tuple[str, str]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        return not self.underived

    @property
    def independent(self) -> bool:
        return not self.redundant

    @property
    def conflict_free(self) -> bool:
        return not self.conflicts

    @property
    def ok(self) -> bool:
        return self.complete and self.independent and self.conflict_free


def check_set(graph: Graph, members: Iterable[str]) -> SetCheck:
    """Test completeness, independence and conflict-freeness of ``members`` directly."""
    chosen = list(members)
    check = SetCheck()
    have = graph.closure(chosen)
    check.underived = [name for name in graph.order if name not in have]
    check.redundant = [
        name for name in chosen if name in graph.closure([m for m in chosen if m != name])
    ]
    for i, a in enumerate(chosen):
        for b in chosen[i + 1 :]:
            if graph.classes[a] == graph.classes[b]:
                check.conflicts.append((a, b))
    for a in chosen:
        fixed = graph.closure([a])  # what ``a`` alone determines
        for b in chosen:
            if a != b and b in fixed and graph.classes[a] != graph.classes[b]:
                check.conflicts.append((a, b))
    return check


def minimal_sets(graph: Graph, *, selected: Sequence[str] | None = None) -> MinimalSetResult:
    """All minimal generative sets; the selected one is ``selected`` or the most data-like."""
    n_classes = len(graph.members)
    everything = frozenset(range(n_classes))
    rules = _class_rules(graph)

    def closure(start: Iterable[int]) -> frozenset[int]:
        have = set(start)
        changed = True
        while changed:
            changed = False
            for premises, conclusion in rules:
                if conclusion not in have and premises <= have:
                    have.add(conclusion)
                    changed = True
        return frozenset(have)

    rank = {c: _class_rank(graph, c) for c in range(n_classes)}

    def reduce(start: frozenset[int]) -> frozenset[int]:
        key = set(start)
        for c in sorted(start, key=lambda c: rank[c], reverse=True):  # least preferred first
            if closure(key - {c}) == everything:
                key.discard(c)
        return frozenset(key)

    first = reduce(everything)
    keys = [first]
    truncated = False
    i = 0
    while i < len(keys):
        key = keys[i]
        i += 1
        for premises, conclusion in rules:
            candidate = premises | (key - {conclusion})
            if any(k <= candidate for k in keys):
                continue
            if len(keys) > MAX_ALTERNATIVES:
                truncated = True
                break
            keys.append(reduce(candidate))
    if selected is not None:
        chosen = frozenset(graph.classes[name] for name in selected)
    else:
        chosen = min(keys, key=lambda k: (sorted(rank[c] for c in k), len(k)))
    names = _names(graph, chosen, prefer=selected)
    alternatives = [_names(graph, k) for k in sorted(keys, key=lambda k: sorted(k)) if k != chosen]
    return MinimalSetResult(
        selected=names,
        alternatives=alternatives,
        classes=[list(m) for m in graph.members],
        truncated=truncated,
    )


def _class_rules(graph: Graph) -> list[tuple[frozenset[int], int]]:
    out: set[tuple[frozenset[int], int]] = set()
    for rule in graph.rules:
        premises = frozenset(graph.classes[p] for p in rule.premises)
        conclusion = graph.classes[rule.conclusion]
        if conclusion not in premises:
            out.add((premises, conclusion))
    return sorted(out, key=lambda r: (sorted(r[0]), r[1]))


def _representative(graph: Graph, members: list[str]) -> str:
    return min(members, key=lambda n: _PREFERENCE[graph.node_type(n)])


def _class_rank(graph: Graph, c: int) -> tuple[int, int]:
    rep = _representative(graph, graph.members[c])
    return (_PREFERENCE[graph.node_type(rep)], list(graph.spec.nodes).index(rep))


def _names(graph: Graph, key: frozenset[int], prefer: Sequence[str] | None = None) -> list[str]:
    chosen = set(prefer or ())
    names = []
    for c in sorted(key, key=lambda c: _class_rank(graph, c)):
        members = graph.members[c]
        picked = [m for m in members if m in chosen]
        names.append(picked[0] if picked else _representative(graph, members))
    return names
