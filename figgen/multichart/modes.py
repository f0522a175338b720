"""The two modes' image sets: in-depth (a minimal generative set of images) and extended.

In-depth: the spec's charts, compensated with a table for each part of the minimal generative
set they do not reveal, then reduced until every chart is needed (the images alone form a
minimal generative set of the values). Extended context: every chart plus one for each
computation node not yet drawn, so intermediate results are visible too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from figgen.multichart.graph import Graph, build_graph
from figgen.multichart.minimal import MinimalSetResult, minimal_sets
from figgen.multichart.spec import GraphSpec, NodeSpec

Mode = Literal["extended", "in-depth"]
MODES: tuple[Mode, ...] = ("extended", "in-depth")


@dataclass
class SetPlan:
    """A spec grown by its compensating and extended-context charts, and each mode's images."""

    spec: GraphSpec
    graph: Graph
    minimal: MinimalSetResult
    modes: dict[Mode, list[str]]
    compensated: list[str]
    """Charts added because the spec's own charts could not answer everything."""
    visualised: list[str]
    """Charts added for the extended context (one per computation node without one)."""


def plan_set(spec: GraphSpec) -> SetPlan:
    graph = build_graph(spec)
    minimal = minimal_sets(graph, selected=spec.sample)
    nodes = dict(spec.nodes)
    compensated: list[str] = []
    while True:
        covered = graph.closure(graph.images, render=False)
        missing = [name for name in minimal.selected if name not in covered]
        if not missing:
            break
        name = f"table_{missing[0]}"
        nodes[name] = NodeSpec(
            type="image", kind="table", inputs=[missing[0]], title=spec.label(missing[0])
        )
        compensated.append(name)
        graph = build_graph(spec.model_copy(update={"nodes": nodes}))
    in_depth = _reduce(graph, graph.images)
    visualised: list[str] = []
    shown = {read.node for image in graph.images for read in graph.shown[image]}
    scalars: list[str] = []
    for name in graph.values_nodes:
        if graph.node_type(name) != "computation" or name in shown:
            continue
        shape = graph.shapes[name]
        if shape.kind != "vector":
            scalars.append(name)
            continue
        kind = "line" if shape.numeric_labels else "bar"
        image = f"chart_{name}"
        nodes[image] = NodeSpec(type="image", kind=kind, inputs=[name], title=spec.label(name))
        visualised.append(image)
    if scalars:
        nodes["table_derived"] = NodeSpec(
            type="image", kind="table", inputs=scalars, title="Derived quantities"
        )
        visualised.append("table_derived")
    full = spec.model_copy(update={"nodes": nodes})
    graph = build_graph(full)
    extended = [name for name in graph.images if name not in visualised] + visualised
    return SetPlan(
        full,
        graph,
        minimal,
        {"extended": extended, "in-depth": in_depth},
        compensated,
        visualised,
    )


def covers(graph: Graph, images: list[str]) -> bool:
    """Whether the values read off ``images`` determine every value node."""
    have = graph.closure(images, render=False)
    return all(name in have for name in graph.values_nodes)


def _reduce(graph: Graph, images: list[str]) -> list[str]:
    """Drop charts while the rest still determine every value: charts of derived values go
    first, later charts before earlier ones."""
    keep = list(images)

    def derived_only(image: str) -> bool:
        return all(graph.node_type(p) == "computation" for p in graph.spec.nodes[image].inputs)

    for image in sorted(images, key=lambda i: (not derived_only(i), -images.index(i))):
        rest = [i for i in keep if i != image]
        if covers(graph, rest):
            keep = rest
    return keep
