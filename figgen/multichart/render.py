"""Image nodes as figgen figures: a one-panel spec per chart, rendered with figgen's kinds.

Each chart goes through ``figgen.render.render`` (layout repair, boxes for every element) and
becomes an ordinary figgen record, plus ``multichart`` facts: which node each series, bar, wedge
or column shows. ``read_image`` takes the values back from a record as a reader sees them
(table cells and pie labels as printed, chart marks at their drawn values); ``evidence`` finds
the elements that show given labels of one input.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import numpy as np

from figgen.build.figure import render_to_record
from figgen.config.load import FigureConfig
from figgen.kinds import multichart_kind
from figgen.multichart.graph import Graph
from figgen.multichart.spec import Label
from figgen.multichart.values import Value, Vector
from figgen.schema.longchart import Chart, ChartInput, ChartPanel
from figgen.schema.record import Record
from figgen.schema.spec import FigureSpec, FigureStyle, FontSizes, LayoutSpec, PanelSpec

PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#17becf")
STYLES = ("default", "ggplot", "bmh", "seaborn-v0_8-whitegrid")
DERIVED_DECIMALS = 2
"""Printed decimals of computed values in tables and pies."""


@dataclass
class RenderedImage:
    record: Record
    png: bytes
    stored: str
    """The record as its JSON file holds it."""


def decimals(graph: Graph, name: str) -> int:
    node = graph.spec.nodes[name]
    return node.decimals if node.type == "data" else DERIVED_DECIMALS


def _named(graph: Graph, name: str) -> str:
    unit = graph.spec.nodes[name].unit
    label = graph.spec.label(name)
    return f"{label} ({unit})" if unit and graph.shapes[name].kind != "label" else label


def chart_for(graph: Graph, image: str, values: dict[str, Value] | None = None) -> Chart:
    """What image node ``image`` shows, as its plot kind reads it; without ``values`` only the
    inputs' names and shapes (enough to read the values back from its record)."""
    node = graph.spec.nodes[image]
    assert node.kind is not None
    inputs = tuple(_input(graph, name, (values or {}).get(name)) for name in node.inputs)
    title, unit = _index_title(graph, node.inputs), _unit(graph, node.inputs)
    return Chart(node.kind, inputs, title, unit, PALETTE)


def _input(graph: Graph, name: str, value: Value | None) -> ChartInput:
    shape = graph.shapes[name]
    label, heading, places = graph.spec.label(name), _named(graph, name), decimals(graph, name)
    if isinstance(value, Vector):
        return ChartInput(label, heading, shape.kind, value.labels, value.values, None, places)
    return ChartInput(label, heading, shape.kind, shape.labels, (), value, places)


def panel_for(graph: Graph, image: str, values: dict[str, Value]) -> tuple[PanelSpec, ChartPanel]:
    """The one panel that draws ``image`` from its inputs' values, and the figure it wants."""
    chart = chart_for(graph, image, values)
    kind = multichart_kind(chart.chart)
    drawn = kind.multichart_panel(chart)
    node = graph.spec.nodes[image]
    panel = PanelSpec(
        index=0,
        row=0,
        col=0,
        kind=kind.name,
        distribution="random",
        params={"multichart": {"image": image, "inputs": list(node.inputs)}},
        data=drawn.data,
        title=node.title or graph.spec.label(image),
        xlabel=drawn.xlabel,
        ylabel=drawn.ylabel,
        style=drawn.style,
    )
    return panel, drawn


def value_refusal(graph: Graph, values: dict[str, Value]) -> str | None:
    """Why an image cannot draw these values as it reads them (a range's low end above its
    high end), or None."""
    for image in graph.images:
        chart = chart_for(graph, image, values)
        refusal = multichart_kind(chart.chart).multichart_value_refusal(chart)
        if refusal is not None:
            return f"image '{image}': {refusal}"
    return None


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
    panel, drawn = panel_for(graph, image, values)
    width, height = drawn.size_in
    style = FigureStyle(
        mpl_style=str(rng.choice(STYLES)) if drawn.style_sheet else "default",
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
    drawn = render_to_record(spec, cfg or FigureConfig(), image_file=image_file)
    stored = json.dumps(drawn.record.to_dict(), separators=(",", ":"))
    return RenderedImage(drawn.record, drawn.png, stored)


def read_image(record: Record, graph: Graph, image: str) -> list[Value]:
    """The values of the image's inputs as its record shows them (printed text where printed)."""
    chart = chart_for(graph, image)
    shown = multichart_kind(chart.chart).multichart_read(record, chart)
    out: list[Value] = []
    for read in graph.shown[image]:
        value = shown[read.series]
        if read.statistic is not None:  # one of the statistics the chart shows of its input
            assert isinstance(value, tuple)
            out.append(float(value[read.statistic]))
        elif isinstance(value, tuple):
            out.append(Vector(chart.inputs[read.series].labels, value))
        else:
            out.append(value)
    return out


def evidence(
    record: Record, graph: Graph, image: str, position: int, labels: tuple[Label, ...]
) -> list[int]:
    """Ids of the elements showing ``labels`` of what reading the image gives at ``position``
    (``graph.shown[image]``: an input, all its labels if empty, or a statistic of one)."""
    node = graph.spec.nodes[image]
    read = graph.shown[image][position]
    shape = graph.shapes[node.inputs[read.series]]
    wanted = (
        {read.statistic}
        if read.statistic is not None
        else {shape.labels.index(v) for v in labels if v in shape.labels}
        if shape.kind == "vector" and labels
        else set(range(len(shape.labels)))
        if shape.kind == "vector"
        else {read.series}
    )
    series = read.series if shape.kind == "vector" else 0
    kind = multichart_kind(node.kind or "")
    return [e.id for e in record.elements if kind.shows_input(e, series, wanted)]
