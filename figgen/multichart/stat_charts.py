"""Histogram and scatter image nodes: what each draws, how a reader reads it back, its evidence.

A histogram shows the observations of one data vector: one bar per value the node can take
(its range on the grid of its decimals), as tall as the number of observations with that
value, so every bar is one exact value and the bars give the values back exactly, but not
which label holds which (``Graph.unordered``). A scatter plot shows one vector over integer
labels, a point per label at x = the label, y = the value, so it reads back like a line chart.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from figgen.multichart.graph import Graph, histogram_bins
from figgen.multichart.spec import Label
from figgen.multichart.values import Value, Vector
from figgen.spec import Kind

MARK_COLOR = "#1f77b4"
EDGE_COLOR = "#222222"


@dataclass(frozen=True)
class Drawing:
    """The kind-specific part of a chart's one panel."""

    kind: Kind
    data: dict[str, Any]
    style: dict[str, Any]
    xlabel: str | None
    ylabel: str | None


def _vector(values: dict[str, Value], name: str) -> Vector:
    value = values[name]
    assert isinstance(value, Vector)
    return value


def _index_word(graph: Graph, name: str) -> str:
    index = graph.spec.nodes[name].index
    return (graph.spec.index[index].title or index) if index else "label"


def histogram_panel(graph: Graph, image: str, values: dict[str, Value]) -> Drawing:
    (name,) = graph.spec.nodes[image].inputs
    node = graph.spec.nodes[name]
    assert node.range is not None
    observed = _vector(values, name)
    bins = histogram_bins(node.range, node.decimals)
    half = 10.0**-node.decimals / 2
    edges = [round(b - half, node.decimals + 1) for b in bins] + [
        round(bins[-1] + half, node.decimals + 1)
    ]
    on_grid = [round(v, node.decimals) for v in observed.values]
    counts = [sum(v == b for v in on_grid) for b in bins]
    # sampled values stay in the node's range, so each falls on one bar (checked, not assumed:
    # a lost observation would change every statistic read off the bars)
    assert sum(counts) == len(on_grid), f"{name}: values outside the bins of its range"
    unit = f" ({node.unit})" if node.unit else ""
    return Drawing(
        "histogram",
        {
            "samples": list(observed.values),
            "bin_edges": edges,
            "counts": counts,
            "orientation": "vertical",
        },
        {
            "color": MARK_COLOR,
            "edgecolor": EDGE_COLOR,
            "edgewidth": 0.8,
            "grid": True,
            # a tick per value and per count where the labels fit (the locator thins them
            # otherwise, to steps of 2 or 5): bars and heights read as whole numbers
            "x_nbins": len(bins) + 1,
            "y_nbins": max(counts) + 1,
        },
        f"{graph.spec.label(name)}{unit}",
        f"number of {_index_word(graph, name)}s",
    )


def scatter_panel(graph: Graph, image: str, values: dict[str, Value]) -> Drawing:
    (name,) = graph.spec.nodes[image].inputs
    shown = _vector(values, name)
    return Drawing(
        "scatter",
        {"x": [float(v) for v in shown.labels], "y": list(shown.values), "c": None},
        {
            "colormap": None,
            "colorbar": None,
            "colorbar_label": None,
            "color": MARK_COLOR,
            "marker": "o",
            "size": 30.0,
            "edgecolor": "black",
            "edgewidth": 0.5,
            "grid": True,
            "x_nbins": len(shown.labels),
        },
        _index_word(graph, name),
        graph.spec.nodes[name].unit,
    )


def read_histogram(record: dict[str, Any], graph: Graph, image: str) -> list[Value]:
    """The observations as the bars give them: each bar's value as often as it is tall, in
    ascending order over the node's labels (which label holds which is not shown)."""
    (name,) = graph.spec.nodes[image].inputs
    data = record["panels"][0]["data"]
    edges, counts = data["bin_edges"], data["counts"]
    digits = graph.spec.nodes[name].decimals
    shown = [
        round((edges[i] + edges[i + 1]) / 2, digits)
        for i, count in enumerate(counts)
        for _ in range(int(count))
    ]
    return [Vector(graph.shapes[name].labels, tuple(float(v) for v in shown))]


def read_scatter(record: dict[str, Any], graph: Graph, image: str) -> list[Value]:
    """Each point's value at its label, the label being its x position."""
    data = record["panels"][0]["data"]
    return [Vector(tuple(int(x) for x in data["x"]), tuple(float(y) for y in data["y"]))]


def histogram_marks(element: dict[str, Any], wanted: set[int]) -> bool:
    """Every filled bar: the value of any one label may be in any of them."""
    return element["kind"] == "bar" and not element.get("empty") and element["value"][1] > 0


def scatter_marks(element: dict[str, Any], wanted: set[int]) -> bool:
    return element["kind"] == "point" and element.get("item") in wanted


@dataclass(frozen=True)
class StatChart:
    panel: Callable[[Graph, str, dict[str, Value]], Drawing]
    read: Callable[[dict[str, Any], Graph, str], list[Value]]
    marks: Callable[[dict[str, Any], set[int]], bool]
    """Whether an element shows one of the wanted items (label positions) of the input."""


STAT_CHARTS: dict[str, StatChart] = {
    "histogram": StatChart(histogram_panel, read_histogram, histogram_marks),
    "scatter": StatChart(scatter_panel, read_scatter, scatter_marks),
    # Box plots and range plots (LongChart's other StatAnalysis charts) join here once
    # figgen/kinds draws them (helper branch f28-box): a box plot of observation vectors reads
    # back their quartiles and whiskers, not their values, so it would give rules to the
    # statistics nodes (median, quantile) rather than to its inputs.
}


def evidence(
    record: dict[str, Any], chart: StatChart, labels: tuple[Label, ...], shown: tuple[Label, ...]
) -> list[int]:
    """Ids of the elements showing ``labels`` (all if empty) of a chart's one input."""
    wanted = {shown.index(v) for v in labels if v in shown} if labels else set(range(len(shown)))
    return [int(e["id"]) for e in record["elements"] if chart.marks(e, wanted)]
