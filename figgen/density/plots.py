"""The density report's plots (Agg, no pyplot), each with its alt text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from figgen.eval.scoring.plots import Plot, plot_figure, save_plot

_NAMES = {"mae": "MAE", "rmse": "RMSE"}


def _charts(k: int) -> str:
    return f"{k} chart" if k == 1 else f"{k} charts"


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def error_by_density(table: dict[str, dict[int, dict[str, Any]]], out: Path) -> Plot | None:
    """Normalised MAE and RMSE against the number of charts, one line per model (Fig. 2)."""
    if not table:
        return None
    fig, axes = plot_figure(2)
    sentences = []
    for ax, metric in zip(axes, ("mae", "rmse"), strict=True):
        for i, (model, by_density) in enumerate(table.items()):
            ks = [k for k in sorted(by_density) if by_density[k][metric] is not None]
            ys = [by_density[k][metric] for k in ks]
            if ks:
                ax.plot(ks, ys, "o-", color=f"C{i}", label=model, ms=4)
                sentences.append(
                    f"{model} {_NAMES[metric]} {_fmt(ys[0])} at {_charts(ks[0])}, "
                    f"{_fmt(ys[-1])} at {ks[-1]}"
                )
        ax.set_xlabel("charts in the image")
        # ticks at the densities measured only: no "1.5 charts"
        ax.set_xticks(sorted({k for by_density in table.values() for k in by_density}))
        ax.set_ylabel(f"normalised {_NAMES[metric]} (0-100)")
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    file = save_plot(fig, out, "error_by_density.png")
    alt = (
        "Two line plots of normalised reconstruction error (MAE left, RMSE right; lower is "
        "better) against the number of charts shown together, one line per model. "
        + "; ".join(sentences)
        + "."
    )
    return Plot(file, "Reconstruction error by density", alt)


def coverage_and_error(table: dict[str, dict[int, dict[str, Any]]], out: Path) -> Plot | None:
    """Point coverage against MAE, one trajectory per model through the densities (Fig. 3)."""
    if not table:
        return None
    fig, (ax,) = plot_figure(1, width=5.0, height=4.2)
    sentences = []
    for i, (model, by_density) in enumerate(table.items()):
        ks = [
            k
            for k in sorted(by_density)
            if by_density[k]["mae"] is not None and by_density[k]["point_coverage"] is not None
        ]
        xs = [by_density[k]["point_coverage"] for k in ks]
        ys = [by_density[k]["mae"] for k in ks]
        if not ks:
            continue
        ax.plot(xs, ys, "o-", color=f"C{i}", label=model, ms=4)
        for k, x, y in zip(ks, xs, ys, strict=True):
            ax.annotate(str(k), (x, y), fontsize=7, xytext=(3, 3), textcoords="offset points")
        sentences.append(
            f"{model} from coverage {_fmt(xs[0])} and MAE {_fmt(ys[0])} at {_charts(ks[0])} to "
            f"{_fmt(xs[-1])} and {_fmt(ys[-1])} at {ks[-1]}"
        )
    ax.set_xlabel("point coverage")
    ax.set_ylabel("normalised MAE")
    if ax.get_legend_handles_labels()[0]:
        ax.legend(fontsize=7)
    file = save_plot(fig, out, "coverage_and_error.png")
    alt = (
        "Scatter of point coverage (x, higher is better) against normalised MAE (y, lower is "
        "better); each model's points are joined in density order and labelled with the "
        "number of charts. " + "; ".join(sentences) + "."
    )
    return Plot(file, "Completeness and fidelity trade-off", alt)


def paired_plot(
    paired: dict[str, dict[str, Any]], metric: str, low: int, high: int, out: Path
) -> Plot | None:
    """The same charts' error at ``low`` vs ``high`` with the diagonal, and the distribution of
    the per-chart change (Fig. 4 for MAE, Fig. S1 for RMSE)."""
    if not any(p["n"] for p in paired.values()):
        return None
    name = _NAMES[metric]
    fig, (scatter, hist) = plot_figure(2)
    top = 1.0
    sentences = []
    deltas_all = []
    for i, (model, p) in enumerate(paired.items()):
        if not p["n"]:
            continue
        scatter.scatter(p["low"], p["high"], s=12, alpha=0.6, color=f"C{i}", label=model)
        top = max(top, *p["low"], *p["high"])
        deltas = np.array(p["high"]) - np.array(p["low"])
        deltas_all.append((model, i, deltas))
        sentences.append(
            f"{model}: {p['n']} charts, {p['share_higher']:.0%} above the diagonal, "
            f"median change {_fmt(p['median_delta'])}"
        )
    scatter.plot([0, top], [0, top], color="0.5", lw=0.8)
    scatter.set_xlabel(f"{name} with {low} chart{'s' if low > 1 else ''}")
    scatter.set_ylabel(f"{name} with {high} charts")
    scatter.legend(fontsize=7)
    every = np.concatenate([d for _, _, d in deltas_all])
    bins = np.linspace(float(every.min()) - 1e-9, float(every.max()) + 1e-9, 21)
    for model, i, deltas in deltas_all:
        hist.hist(deltas, bins=bins, histtype="step", color=f"C{i}", label=model)
    hist.axvline(0, color="0.5", lw=0.8)
    hist.set_xlabel(f"change in {name} ({high} minus {low} charts)")
    hist.set_ylabel("charts")
    file = save_plot(fig, out, f"paired_{metric}.png")
    alt = (
        f"Left: scatter of each source chart's {name} when shown alone or with few charts "
        f"({low}) against its {name} among {high} charts, one colour per model, with a grey "
        "diagonal; points above it got worse with density. Right: histograms of the per-chart "
        "change, with a grey line at zero. " + "; ".join(sentences) + "."
    )
    return Plot(file, f"Paired per-chart {name}: {low} vs {high} charts", alt)
