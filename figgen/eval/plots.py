"""The report's plots, drawn on Agg figures (no pyplot), each returned with its alt text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from figgen.eval.aggregate import ScoredAnswer


@dataclass(frozen=True)
class Plot:
    """A PNG written to the report directory, with the alt text a screen reader speaks."""

    file: str
    title: str
    alt: str


def _figure(n_axes: int, *, width: float = 4.0, height: float = 3.4) -> tuple[Any, list[Any]]:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    cols = min(n_axes, 3)
    rows = -(-n_axes // cols)
    fig = Figure(figsize=(width * cols, height * rows), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    axes = [fig.add_subplot(rows, cols, i + 1) for i in range(n_axes)]
    return fig, axes


def _save(fig: Any, out_dir: Path, name: str) -> str:
    path = out_dir / name
    tmp = path.with_suffix(".tmp.png")
    fig.savefig(tmp, format="png")
    tmp.replace(path)
    return name


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3g}"


def count_plot(family: str, metrics: dict[str, dict[str, Any]], out_dir: Path) -> Plot | None:
    """Estimated vs true count with the containment region, one colour per model."""
    models = {
        m: v["count_distributions"][family]
        for m, v in metrics.items()
        if family in v.get("count_distributions", {})
    }
    if not models:
        return None
    fig, (ax,) = _figure(1, width=5.0, height=4.2)
    rng = np.random.default_rng(0)
    top = 1.0
    sentences = []
    for i, (model, dist) in enumerate(models.items()):
        color = f"C{i}"
        truth, estimate = np.array(dist["truth"]), np.array(dist["estimate"])
        ax.scatter(
            truth + rng.uniform(-0.15, 0.15, truth.size),
            estimate,
            s=10,
            alpha=0.5,
            color=color,
            label=model,
        )
        keys = sorted(dist["region"], key=float)
        xs = [float(k) for k in keys]
        ax.plot(xs, [dist["region"][k][0] for k in keys], "--", color=color, lw=1)
        ax.plot(xs, [dist["region"][k][1] for k in keys], "--", color=color, lw=1)
        top = max(top, float(truth.max()), float(estimate.max()))
        exact = float(np.mean(truth == estimate))
        sentences.append(f"{model}: {exact:.0%} of {truth.size} estimates exact")
    ax.plot([0, top], [0, top], color="0.5", lw=0.8)
    ax.set_xlabel(f"true {family.replace('_', ' ')}")
    ax.set_ylabel("estimate")
    ax.legend(fontsize=7)
    level = int(100 * next(iter(models.values()))["region_level"])
    file = _save(fig, out_dir, f"{family}_estimates.png")
    alt = (
        f"Scatter of estimated against true {family.replace('_', ' ')}, one colour per model, "
        f"with dashed lines bounding the central {level}% of estimates at each true value and "
        f"a grey diagonal where estimate equals truth. " + "; ".join(sentences) + "."
    )
    return Plot(file, f"Estimated vs true {family.replace('_', ' ')}", alt)


def _by_panels(
    answers: list[ScoredAnswer], value: Callable[[ScoredAnswer], float | None]
) -> tuple[list[int], list[float]]:
    groups: dict[int, list[float]] = {}
    for answer in answers:
        v = value(answer)
        if answer.n_panels is not None and v is not None:
            groups.setdefault(answer.n_panels, []).append(v)
    xs = sorted(groups)
    return xs, [float(np.mean(groups[x])) for x in xs]


def per_panel_plot(
    families: list[str],
    scored: dict[str, list[ScoredAnswer]],
    out_dir: Path,
    *,
    file: str,
    ylabel: str,
    value: Callable[[ScoredAnswer], float | None],
    what: str,
) -> Plot | None:
    """A mean per panel count for each family (one axes each), one line per model."""
    if not families:
        return None
    fig, axes = _figure(len(families))
    sentences = []
    for ax, family in zip(axes, families, strict=True):
        for i, (model, answers) in enumerate(scored.items()):
            xs, ys = _by_panels([a for a in answers if a.item.family == family], value)
            if xs:
                ax.plot(xs, ys, "o-", color=f"C{i}", label=model, ms=4)
                sentences.append(
                    f"{family}, {model}: {_fmt(ys[0])} at {xs[0]} panels, "
                    f"{_fmt(ys[-1])} at {xs[-1]} panels"
                )
        ax.set_title(family.replace("_", " "), fontsize=10)
        ax.set_xlabel("panels in figure")
        ax.set_ylabel(ylabel)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    _save(fig, out_dir, file)
    alt = (
        f"Line plots of {what} against the number of panels, one axes per question family "
        f"({', '.join(families)}), one line per model. " + "; ".join(sentences) + "."
    )
    return Plot(file, f"{what[0].upper()}{what[1:]} by panel count", alt)


def ssmape_plot(scored: dict[str, list[ScoredAnswer]], out_dir: Path) -> Plot | None:
    """Histograms of sSMAPE per plot kind, one colour per model.

    Like the paper's figure, only mean-value families are drawn when there are any.
    """
    families = {
        a.item.family for answers in scored.values() for a in answers if a.item.metric == "ssmape"
    }
    chosen = {f for f in families if "mean" in f} or families

    def values_of(answers: list[ScoredAnswer], kind: str) -> list[float]:
        return [
            a.score.value
            for a in answers
            if a.kind == kind
            and a.item.family in chosen
            and a.score is not None
            and a.scored
            and a.score.value is not None
        ]

    kinds = sorted(
        {
            a.kind
            for answers in scored.values()
            for a in answers
            if a.item.family in chosen and a.scored
        }
    )
    if not kinds:
        return None
    fig, axes = _figure(len(kinds), width=3.6)
    bins = np.linspace(-2, 2, 41)
    sentences = []
    for ax, kind in zip(axes, kinds, strict=True):
        for i, (model, answers) in enumerate(scored.items()):
            values = values_of(answers, kind)
            if values:
                ax.hist(values, bins=bins, histtype="step", color=f"C{i}", label=model)
                sentences.append(
                    f"{kind}, {model}: median {_fmt(float(np.median(values)))} "
                    f"over {len(values)} answers"
                )
        ax.axvline(0, color="0.5", lw=0.8)
        ax.set_title(kind, fontsize=10)
        ax.set_xlabel("sSMAPE")
        ax.set_xlim(-2, 2)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    file = _save(fig, out_dir, "ssmape_by_kind.png")
    alt = (
        "Histograms of signed SMAPE (from -2, far too low, to +2, far too high; 0 is exact) "
        f"for {', '.join(sorted(chosen))} questions, one axes per plot kind, one outline per "
        "model. " + "; ".join(sentences) + "."
    )
    return Plot(file, "sSMAPE distributions by plot kind", alt)


def cost_accuracy_plot(metrics: dict[str, dict[str, Any]], out_dir: Path) -> Plot | None:
    """Accuracy against cost for each model, one marker per description level."""
    points = [
        (model, level, entry["cost_usd"], entry["accuracy"])
        for model, values in metrics.items()
        for level, entry in values["by_level"].items()
        if entry["accuracy"] is not None
    ]
    if not points:
        return None
    fig, (ax,) = _figure(1, width=5.0, height=4.0)
    models = list(metrics)
    markers = {"1": "o", "2": "s", "3": "^"}
    for model, level, cost, accuracy in points:
        ax.scatter(
            cost, accuracy, color=f"C{models.index(model)}", marker=markers.get(level, "D"), s=40
        )
        ax.annotate(
            f"{model} L{level}",
            (cost, accuracy),
            fontsize=6,
            xytext=(3, 3),
            textcoords="offset points",
        )
    ax.set_xlabel("cost (USD)")
    ax.set_ylabel("accuracy")
    ax.set_ylim(-0.05, 1.05)
    file = _save(fig, out_dir, "cost_vs_accuracy.png")
    alt = (
        "Scatter of accuracy against cost in USD, one point per model and description level "
        "(circle level 1, square level 2, triangle level 3). "
        + "; ".join(f"{m} level {lv}: {_fmt(a)} at ${c:.4f}" for m, lv, c, a in points)
        + "."
    )
    return Plot(file, "Cost against accuracy per level", alt)
