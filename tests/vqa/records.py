"""Small hand-written records that follow the schema in shared/DESIGN.md."""

from __future__ import annotations

from dataclasses import MISSING, fields
from typing import Any

import numpy as np

import figgen.kinds  # noqa: F401  (registers the kinds' data classes)
from figgen.schema.panel import PANEL_DATA, PanelRecord
from figgen.schema.qa_item import QAItem
from figgen.schema.record import Record


def line_panel(
    rng: np.random.Generator,
    *,
    distribution: str = "linear",
    n_series: int = 2,
    colors: tuple[str, ...] = ("#1f77b4", "#ff7f0e", "#2ca02c"),
    yerr: bool = False,
    legend: bool = False,
) -> dict[str, Any]:
    series = []
    params = []
    for s in range(n_series):
        x = np.linspace(0, 10, 11)
        if distribution == "linear":
            slope, intercept = (2.0, 10.0) if s % 2 == 0 else (-1.5, 50.0)
            y = slope * x + intercept + rng.normal(0, 0.3, x.size)
            params.append({"slope": slope, "intercept": intercept, "noise": 0.3})
        elif distribution == "gmm":
            y = 10 * np.exp(-0.5 * ((x - 5) / 1.2) ** 2) + rng.normal(0, 0.1, x.size)
            params.append({"means": [5.0], "stds": [1.2], "weights": [1.0]})
        else:
            y = rng.uniform(0, 10, x.size)
            params.append({"noise": 1.0})
        series.append(
            {
                "x": x.round(4).tolist(),
                "y": y.round(4).tolist(),
                "xerr": None,
                "yerr": [0.5] * x.size if yerr else None,
                "color": colors[s],
                "label": f"series {s}",
            }
        )
    return {
        "kind": "line",
        "distribution": distribution,
        "params": {"series": params},
        "data": {"series": series},
        "style": {"legend": legend, "colormap": None},
    }


def scatter_panel(
    rng: np.random.Generator,
    *,
    distribution: str = "linear",
    n: int = 60,
    centres: list[list[float]] | None = None,
    colormap: str | None = "viridis",
) -> dict[str, Any]:
    if distribution == "linear":
        x = rng.uniform(0, 10, n)
        y = 3.0 * x + 1.0 + rng.normal(0, 0.5, n)
        params: dict[str, Any] = {"slope": 3.0, "intercept": 1.0, "noise": 0.5}
    elif distribution == "gmm":
        centres = centres or [[0.0, 0.0], [10.0, 10.0], [0.0, 10.0]]
        parts = [rng.normal(c, 0.5, (n // len(centres), 2)) for c in centres]
        xy = np.concatenate(parts)
        x, y = xy[:, 0], xy[:, 1]
        params = {"centres": centres, "stds": [[0.5, 0.5]] * len(centres)}
    else:
        x, y = rng.uniform(0, 10, n), rng.uniform(0, 10, n)
        params = {}
    c = y.round(4).tolist() if colormap else None
    return {
        "kind": "scatter",
        "distribution": distribution,
        "params": params,
        "data": {
            "x": x.round(4).tolist(),
            "y": y.round(4).tolist(),
            "c": c,
            "xerr": None,
            "yerr": None,
        },
        "style": {"colormap": colormap, "colorbar": "right" if colormap else None},
    }


def histogram_panel(
    rng: np.random.Generator,
    *,
    distribution: str = "gmm",
    n: int = 2000,
    bins: int = 30,
    means: tuple[float, ...] = (0.0, 8.0),
    slope: float = 1.0,
    orientation: str = "vertical",
) -> dict[str, Any]:
    if distribution == "gmm":
        samples = np.concatenate([rng.normal(m, 1.0, n // len(means)) for m in means])
        params: dict[str, Any] = {
            "means": list(means),
            "stds": [1.0] * len(means),
            "weights": [1 / len(means)] * len(means),
        }
    elif distribution == "linear":
        u = rng.uniform(0, 1, n)
        samples = 10 * np.sqrt(u) if slope > 0 else 10 * (1 - np.sqrt(u))
        params = {"density": "ramp", "rising": slope > 0, "low": 0.0, "high": 10.0}
    else:
        samples = rng.uniform(0, 10, n)
        params = {"density": "uniform", "low": 0.0, "high": 10.0}
    counts, edges = np.histogram(samples, bins=bins)
    return {
        "kind": "histogram",
        "distribution": distribution,
        "params": params,
        "data": {
            "samples": samples.round(5).tolist(),
            "bin_edges": edges.tolist(),
            "counts": counts.tolist(),
            "orientation": orientation,
        },
        "style": {"colormap": None},
    }


def contour_panel(
    rng: np.random.Generator,
    *,
    style: str = "both",
    colormap: str = "plasma",
    colorbar: str | None = "right",
) -> dict[str, Any]:
    x = np.linspace(-3, 3, 40)
    y = np.linspace(-2, 4, 30)
    xx, yy = np.meshgrid(x, y)
    z = np.exp(-0.5 * (xx**2 + (yy - 1) ** 2))
    return {
        "kind": "contour",
        "distribution": "gmm",
        "params": {"centres_unit": [[0.5, 0.5]]},
        "data": {
            "x": x.tolist(),
            "y": y.tolist(),
            "z": z.tolist(),
            "levels": np.linspace(0.1, 0.9, 5).tolist(),
        },
        "style": {"contour_style": style, "colormap": colormap, "colorbar": colorbar},
    }


def make_record(
    panels: list[dict[str, Any]],
    rows: int,
    cols: int,
    *,
    index: int = 0,
    titles: bool = True,
    dark: bool = False,
) -> dict[str, Any]:
    """A record whose panels fill a rows x cols grid in reading order, with tick elements."""
    elements: list[dict[str, Any]] = [
        {"id": 0, "kind": "figure", "panel": None, "bbox": [0, 0, 800, 600]}
    ]
    out = []
    for i, panel in enumerate(panels):
        row, col = divmod(i, cols)
        panel = dict(
            panel,
            index=i,
            row=row,
            col=col,
            title=f"Panel {i} $\\alpha_{i}$" if titles and i % 2 == 0 else None,
            xlabel=f"x label {i}",
            ylabel=None if i % 3 == 2 else f"y label {i}",
            xscale="linear",
            yscale="linear",
        )
        out.append(panel)
        base = len(elements)
        elements.append(
            {
                "id": base,
                "kind": "panel",
                "panel": i,
                "bbox": [col * 200, row * 150, col * 200 + 180, row * 150 + 130],
            }
        )
        for k, text in enumerate(["0", "5", "10"]):
            elements.append(
                {
                    "id": base + 1 + k,
                    "kind": "xtick_label",
                    "panel": i,
                    "bbox": [
                        col * 200 + 60 * k,
                        row * 150 + 131,
                        col * 200 + 60 * k + 10,
                        row * 150 + 140,
                    ],
                    "text": text,
                    "axis": "x",
                }
            )
        for k, text in enumerate(["\u22122", "$\\mathdefault{10^{1}}$"]):
            elements.append(
                {
                    "id": base + 4 + k,
                    "kind": "ytick_label",
                    "panel": i,
                    "bbox": [
                        col * 200,
                        row * 150 + 100 - 50 * k,
                        col * 200 + 10,
                        row * 150 + 110 - 50 * k,
                    ],
                    "text": text,
                    "axis": "y",
                }
            )
    return {
        "id": f"fig-{index:06d}",
        "seed": 1,
        "index": index,
        "image": {"file": f"figures/fig-{index:06d}.png", "width": 800, "height": 600, "dpi": 100},
        "layout": {
            "n_panels": len(panels),
            "rows": rows,
            "cols": cols,
            "arrangement": "grid"
            if rows > 1 and cols > 1
            else "horizontal"
            if rows == 1
            else "vertical",
        },
        "style": {"dark": dark},
        "panels": out,
        "elements": elements,
        "repair": {"attempts": 0, "actions": []},
    }


def mixed_record(seed: int = 0, index: int = 0) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    panels = [
        line_panel(rng),
        scatter_panel(rng),
        histogram_panel(rng),
        contour_panel(rng),
        scatter_panel(rng, distribution="gmm"),
        histogram_panel(rng, distribution="linear", slope=1.0),
    ]
    return make_record(panels, 2, 3, index=index)


def composed_records(config: Any, seed: int, n: int) -> list[Record]:
    """Records of figures 0..n-1 of a build, from their specs alone (no rendering, no boxes)."""
    from figgen.build.sampling import sample_figure
    from figgen.schema.record import make_record

    return [
        make_record(
            sample_figure(config, seed, i),
            elements=[],
            width=0,
            height=0,
            repair={},
            generator_version="test",
            image_file="unrendered.png",
        )
        for i in range(n)
    ]


def typed(panel: dict[str, Any]) -> PanelRecord:
    """A panel dict as tests write it (often partial) read the way the library reads a stored
    panel: missing panel fields take neutral values, missing data lists are empty."""
    full = {
        **{"index": 0, "row": 0, "col": 0, "distribution": "random", "params": {}},
        **{"title": None, "xlabel": None, "ylabel": None, "style": {}},
        **{"xscale": "linear", "yscale": "linear"},
        **panel,
    }
    data = full.get("data", {})
    required = [
        f.name
        for f in fields(PANEL_DATA[full["kind"]])
        if f.default is MISSING and f.default_factory is MISSING
    ]
    full["data"] = {**{name: [] for name in required}, **data}
    return PanelRecord.from_dict(full)


def family(items: list[QAItem], name: str) -> list[QAItem]:
    """The items of family ``name``."""
    return [item for item in items if item.family == name]
