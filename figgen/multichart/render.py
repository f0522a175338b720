"""Image nodes as figgen figures: a one-panel spec per chart, rendered with figgen's kinds.

Each chart goes through ``figgen.render.render`` (layout repair, boxes for every element) and
becomes an ordinary figgen record, plus ``multichart`` facts: which node each series, bar, wedge
or column shows. ``read_image`` takes the values back from a record as a reader sees them
(table cells and pie labels as printed, chart marks at their drawn values); ``evidence`` finds
the elements that show given labels of one input.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from figgen import __version__
from figgen.config import FigureConfig
from figgen.multichart.graph import Graph
from figgen.multichart.spec import Label
from figgen.multichart.stat_charts import STAT_CHARTS
from figgen.multichart.stat_charts import evidence as stat_evidence
from figgen.multichart.values import Value, Vector
from figgen.record import make_record
from figgen.render import render
from figgen.spec import FigureSpec, FigureStyle, FontSizes, LayoutSpec, PanelSpec

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf")
STYLES = ("default", "ggplot", "bmh", "seaborn-v0_8-whitegrid")
DERIVED_DECIMALS = 2
"""Printed decimals of computed values in tables and pies."""


@dataclass
class RenderedImage:
    record: dict[str, Any]
    png: bytes


def decimals(graph: Graph, name: str) -> int:
    node = graph.spec.nodes[name]
    return node.decimals if node.type == "data" else DERIVED_DECIMALS


def _named(graph: Graph, name: str) -> str:
    unit = graph.spec.nodes[name].unit
    label = graph.spec.label(name)
    return f"{label} ({unit})" if unit and graph.shapes[name].kind != "label" else label


def panel_for(graph: Graph, image: str, values: dict[str, Value]) -> PanelSpec:
    """The one panel that draws ``image`` from its inputs' values."""
    node = graph.spec.nodes[image]
    assert node.kind is not None
    if node.kind in STAT_CHARTS:
        return _stat_panel(graph, image, values)
    inputs = node.inputs
    shapes = [graph.shapes[p] for p in inputs]
    index = _index_title(graph, inputs)
    kind: str = node.kind
    xlabel: str | None = index
    ylabel = _unit(graph, inputs)
    if node.kind == "line":
        data: dict[str, Any] = {
            "series": [
                {
                    "x": list(values[p].labels),  # type: ignore[union-attr]
                    "y": list(values[p].values),  # type: ignore[union-attr]
                    "xerr": None,
                    "yerr": None,
                    "color": PALETTE[i % len(PALETTE)],
                    "label": graph.spec.label(p),
                    "linestyle": "-",
                }
                for i, p in enumerate(inputs)
            ]
        }
        style = {
            "marker": "o",
            "markersize": 5.0,
            "linewidth": 1.8,
            "capsize": 0.0,
            "legend": len(inputs) > 1,
            "legend_loc": "best",
            "grid": True,
            "x_nbins": len(shapes[0].labels),
        }
    elif node.kind in ("bar", "stacked_bar"):
        kind = "bar"
        if shapes[0].kind == "vector":
            categories = [str(v) for v in shapes[0].labels]
            series = [
                {
                    "label": graph.spec.label(p) if len(inputs) > 1 else None,
                    "color": PALETTE[i % len(PALETTE)],
                    "values": list(values[p].values),  # type: ignore[union-attr]
                }
                for i, p in enumerate(inputs)
            ]
        else:
            categories = [graph.spec.label(p) for p in inputs]
            series = [{"label": None, "color": PALETTE[0], "values": [values[p] for p in inputs]}]
            xlabel = None
        mode = (
            "stacked"
            if node.kind == "stacked_bar"
            else ("grouped" if len(series) > 1 else "single")
        )
        data = {"categories": categories, "series": series, "mode": mode, "orientation": "vertical"}
        style = {"width": 0.8, "edgecolor": None, "edgewidth": 0.5, "grid": True}
    elif node.kind == "pie":
        (p,) = inputs
        vector = values[p]
        assert isinstance(vector, Vector)
        data = {
            "labels": [str(v) for v in vector.labels],
            "values": list(vector.values),
            "colors": [PALETTE[i % len(PALETTE)] for i in range(len(vector.labels))],
            "decimals": decimals(graph, p),
        }
        style, xlabel, ylabel = {}, None, None
    else:
        data = _table(graph, inputs, values)
        style, xlabel, ylabel = {}, None, None
    return PanelSpec(
        index=0,
        row=0,
        col=0,
        kind=kind,  # type: ignore[arg-type]
        distribution="random",
        params={"multichart": {"image": image, "inputs": list(inputs)}},
        data=data,
        title=node.title or graph.spec.label(image),
        xlabel=xlabel,
        ylabel=ylabel,
        style=style,
    )


def _stat_panel(graph: Graph, image: str, values: dict[str, Value]) -> PanelSpec:
    """A histogram or scatter plot (``figgen.multichart.stat_charts``)."""
    node = graph.spec.nodes[image]
    drawing = STAT_CHARTS[str(node.kind)].panel(graph, image, values)
    return PanelSpec(
        index=0,
        row=0,
        col=0,
        kind=drawing.kind,
        distribution="random",
        params={"multichart": {"image": image, "inputs": list(node.inputs)}},
        data=drawing.data,
        title=node.title or graph.spec.label(image),
        xlabel=drawing.xlabel,
        ylabel=drawing.ylabel,
        style=drawing.style,
    )


def _table(graph: Graph, inputs: list[str], values: dict[str, Value]) -> dict[str, Any]:
    first = graph.shapes[inputs[0]]
    if first.kind == "vector":
        rows = [str(v) for v in first.labels]
        columns = [_named(graph, p) for p in inputs]
        cells = [[values[p].at(label) for p in inputs] for label in first.labels]  # type: ignore[union-attr]
        return {
            "row_header": _index_title(graph, inputs) or "",
            "rows": rows,
            "columns": columns,
            "cells": cells,
            "decimals": [decimals(graph, p) for p in inputs],
        }
    return {
        "row_header": "quantity",
        "rows": [_named(graph, p) for p in inputs],
        "columns": ["value"],
        "cells": [
            [str(values[p]) if graph.shapes[p].kind == "label" else values[p]] for p in inputs
        ],
        "decimals": [DERIVED_DECIMALS],
    }


def _index_title(graph: Graph, inputs: list[str]) -> str | None:
    shape = graph.shapes[inputs[0]]
    if shape.kind != "vector":
        return None
    for name in inputs:
        index = graph.spec.nodes[name].index
        if index:
            return graph.spec.index[index].title or index
    for title_index in graph.spec.index.values():
        if set(shape.labels) <= set(title_index.labels) or shape.numeric_labels:
            return title_index.title
    return None


def _unit(graph: Graph, inputs: list[str]) -> str | None:
    units = {graph.spec.nodes[p].unit for p in inputs}
    return units.pop() if len(units) == 1 else None


def figure_spec(
    graph: Graph, image: str, values: dict[str, Value], *, seed: int, index: int, file_id: str
) -> FigureSpec:
    """A readable one-panel figure: size by kind, a style and dpi drawn from the set's seed."""
    rng = np.random.default_rng(np.random.SeedSequence([seed, index, 7]))
    panel = panel_for(graph, image, values)
    rows = len(panel.data.get("rows", []))
    width, height = {
        "table": (6.0, 0.5 + 0.32 * (rows + 1)),
        "pie": (5.5, 4.5),
    }.get(panel.kind, (6.4, 4.0))
    style = FigureStyle(
        mpl_style=str(rng.choice(STYLES)) if panel.kind not in ("table", "pie") else "default",
        font_family="DejaVu Sans",
        mathtext_fontset="dejavusans",
        dark=False,
        sizes=FontSizes(title=12.0, label=10.0, tick=9.0, colorbar=9.0, legend=8.5),
    )
    layout = LayoutSpec(n_panels=1, rows=1, cols=1, arrangement="horizontal")
    dpi = int(rng.choice([100, 120]))
    return FigureSpec(file_id, seed, index, width, height, dpi, layout, style, [panel])


def render_image(
    graph: Graph,
    image: str,
    values: dict[str, Value],
    *,
    seed: int,
    index: int,
    file_id: str,
    image_file: str,
    cfg: FigureConfig | None = None,
) -> RenderedImage:
    spec = figure_spec(graph, image, values, seed=seed, index=index, file_id=file_id)
    rendered = render(spec, cfg or FigureConfig())
    record = make_record(
        rendered.spec,
        elements=rendered.elements,
        width=rendered.width,
        height=rendered.height,
        repair=rendered.repair,
        generator_version=__version__,
        image_file=image_file,
    )
    return RenderedImage(record, rendered.png)


_NUMBER = re.compile(r"[-+]?\d[\d,]*\.?\d*")


def _printed(text: str) -> float:
    match = _NUMBER.findall(text.replace("\u2212", "-"))
    return float(match[-1].replace(",", ""))


def read_image(record: dict[str, Any], graph: Graph, image: str) -> list[Value]:
    """The values of the image's inputs as its record shows them (printed text where printed)."""
    panel = record["panels"][0]
    data = panel["data"]
    inputs = graph.spec.nodes[image].inputs
    shapes = [graph.shapes[p] for p in inputs]
    kind = graph.spec.nodes[image].kind
    if kind in STAT_CHARTS:
        return STAT_CHARTS[kind].read(record, graph, image)
    if kind == "line":
        return [
            Vector(tuple(int(x) for x in s["x"]), tuple(float(y) for y in s["y"]))
            for s in data["series"]
        ]
    if kind in ("bar", "stacked_bar"):
        if shapes[0].kind == "vector":
            return [
                Vector(shapes[i].labels, tuple(float(v) for v in s["values"]))
                for i, s in enumerate(data["series"])
            ]
        return [float(v) for v in data["series"][0]["values"]]
    texts = {
        (e.get("series"), e.get("item")): e["text"]
        for e in record["elements"]
        if e["kind"] in ("table_cell", "wedge_label")
    }
    if kind == "pie":
        labels = shapes[0].labels
        return [Vector(labels, tuple(_printed(texts[(None, i)]) for i in range(len(labels))))]
    if shapes[0].kind == "vector":
        labels = shapes[0].labels
        return [
            Vector(labels, tuple(_printed(texts[(j, i)]) for i in range(len(labels))))
            for j in range(len(inputs))
        ]
    out: list[Value] = []
    for i, shape in enumerate(shapes):
        text = texts[(0, i)]
        out.append(_label_of(text, shape.labels) if shape.kind == "label" else _printed(text))
    return out


def _label_of(text: str, labels: tuple[Label, ...]) -> Label:
    for label in labels:
        if str(label) == text:
            return label
    raise ValueError(f"table cell {text!r} is none of {labels}")


def evidence(
    record: dict[str, Any], graph: Graph, image: str, position: int, labels: tuple[Label, ...]
) -> list[int]:
    """Ids of the elements showing ``labels`` of input ``position`` (all labels if empty)."""
    node = graph.spec.nodes[image]
    shape = graph.shapes[node.inputs[position]]
    if node.kind in STAT_CHARTS:
        return stat_evidence(record, STAT_CHARTS[node.kind], labels, shape.labels)
    wanted = (
        {shape.labels.index(v) for v in labels if v in shape.labels}
        if shape.kind == "vector" and labels
        else set(range(len(shape.labels)))
        if shape.kind == "vector"
        else {position}
    )
    out = []
    for e in record["elements"]:
        kind = e["kind"]
        if node.kind == "line" and kind == "marker" and e.get("series") == position:
            hit = e.get("item") in wanted
        elif node.kind in ("bar", "stacked_bar") and kind == "bar":
            series = position if shape.kind == "vector" else 0
            item_set = wanted if shape.kind == "vector" else {position}
            hit = e.get("series") == series and e.get("item") in item_set
        elif node.kind == "pie" and kind in ("wedge", "wedge_label"):
            hit = e.get("item") in wanted
        elif node.kind == "table" and kind == "table_cell":
            column = position if shape.kind == "vector" else 0
            rows = wanted if shape.kind == "vector" else {position}
            hit = e.get("series") == column and e.get("item") in rows
        else:
            hit = False
        if hit:
            out.append(int(e["id"]))
    return out
