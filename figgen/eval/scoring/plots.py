"""The report's plots, drawn on Agg figures (no pyplot), each returned with its alt text."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from figgen.eval.scoring.scores import ScoredAnswer


@dataclass(frozen=True)
class Plot:
    """A PNG written to the report directory, with the alt text a screen reader speaks."""

    file: str
    title: str
    alt: str


def plot_figure(n_axes: int, *, width: float = 4.0, height: float = 3.4) -> tuple[Any, list[Any]]:
    """A report figure of ``n_axes`` axes, three to a row, on the Agg canvas (no pyplot)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    cols = min(n_axes, 3)
    rows = -(-n_axes // cols)
    fig = Figure(figsize=(width * cols, height * rows), dpi=110, layout="constrained")
    FigureCanvasAgg(fig)
    axes = [fig.add_subplot(rows, cols, i + 1) for i in range(n_axes)]
    return fig, axes


def save_plot(fig: Any, out_dir: Path, name: str) -> str:
    """Write ``fig`` as ``out_dir/name`` atomically; the name, for the report's link."""
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
    fig, (ax,) = plot_figure(1, width=5.0, height=4.2)
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
    file = save_plot(fig, out_dir, f"{family}_estimates.png")
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


def _nothing_scored(group: list[ScoredAnswer]) -> str:
    """Why a group has nothing to plot: how many answers were rejected or never came."""
    rejected = sum(1 for a in group if a.score is not None and a.score.rejected)
    missing = sum(1 for a in group if a.score is None)
    parts = [f"all {len(group)} answers rejected"] if rejected == len(group) else []
    if not parts:
        parts = [f"{rejected} rejected", f"{missing} without a reply"]
    return "no scored answers (" + ", ".join(parts) + ")"


def _explain_empty(ax: Any, family: str, scored: dict[str, list[ScoredAnswer]]) -> None:
    """Write into an axes with no data why it is empty, instead of leaving a blank panel."""
    lines = [
        f"{model}: {_nothing_scored(group)}"
        for model, answers in scored.items()
        if (group := [a for a in answers if a.item.family == family])
    ]
    ax.text(
        0.5,
        0.5,
        "\n".join(lines) or "no answers",
        ha="center",
        va="center",
        wrap=True,
        fontsize=8,
        transform=ax.transAxes,
    )
    ax.set_xticks([])
    ax.set_yticks([])


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
    fig, axes = plot_figure(len(families))
    sentences = []
    for ax, family in zip(axes, families, strict=True):
        drawn = False
        for i, (model, answers) in enumerate(scored.items()):
            group = [a for a in answers if a.item.family == family]
            xs, ys = _by_panels(group, value)
            if xs:
                drawn = True
                ax.plot(xs, ys, "o-", color=f"C{i}", label=model, ms=4)
                sentences.append(
                    f"{family}, {model}: {_fmt(ys[0])} at {xs[0]} panels, "
                    f"{_fmt(ys[-1])} at {xs[-1]} panels"
                )
            elif group:
                sentences.append(f"{family}, {model}: {_nothing_scored(group)}")
        if not drawn:
            _explain_empty(ax, family, scored)
        ax.set_title(family.replace("_", " "), fontsize=10)
        ax.set_xlabel("panels in figure")
        ax.set_ylabel(ylabel)
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    save_plot(fig, out_dir, file)
    alt = (
        f"Line plots of {what} against the number of panels, one axes per question family "
        f"({', '.join(families)}), one line per model. " + "; ".join(sentences) + "."
    )
    return Plot(file, f"{what[0].upper()}{what[1:]} by panel count", alt)


MetricPlot = Callable[[list[str], dict[str, list[ScoredAnswer]], Path], Plot | None]
"""A metric's plot: drawn from the scored answers of the families (sorted names) that its
metrics score; None when there is nothing to draw."""


def panel_count_plot(
    *, file: str, ylabel: str, value: Callable[[ScoredAnswer], float | None], what: str
) -> MetricPlot:
    """A metric's plot of the mean of ``value`` by panel count (:func:`per_panel_plot`)."""

    def plot(
        families: list[str], scored: dict[str, list[ScoredAnswer]], out_dir: Path
    ) -> Plot | None:
        return per_panel_plot(
            families, scored, out_dir, file=file, ylabel=ylabel, value=value, what=what
        )

    return plot


cer_plot = panel_count_plot(
    file="cer_by_panel_count.png",
    ylabel="mean CER",
    value=lambda a: a.score.value if a.scored and a.score else None,
    what="mean character error rate",
)
"""Mean CER by panel count, one axes per text family."""

axis_error_plot = panel_count_plot(
    file="axis_error_by_panel_count.png",
    ylabel="mean |error| / axis span",
    value=lambda a: abs(a.score.value) if a.score and a.score.value is not None else None,
    what="mean error as a share of the axis span",
)
"""Mean |error| as a share of the axis span by panel count, one axes per length family."""


SSMAPE_PLOT_LIMIT = 0.5
"""Histograms span [-0.5, 0.5]; larger errors are gathered in the end bins."""


def ssmape_bins(width: float = 0.02, limit: float = SSMAPE_PLOT_LIMIT) -> Any:
    """Bin edges at odd multiples of ``width / 2``, so every bin is centred on a multiple of
    ``width``: 0 (exact) sits in the middle of a bin and a 10% error (sSMAPE 0.095 above,
    -0.105 below) lands whole in the bins centred on 0.1 and -0.1."""
    n = round(limit / width)
    return (np.arange(-n, n + 2) - 0.5) * width


def ssmape_plot(
    families: list[str], scored: dict[str, list[ScoredAnswer]], out_dir: Path
) -> Plot | None:
    """Histograms of sSMAPE per plot kind, one colour per model.

    Like the paper's figure, only mean-value families are drawn when there are any.
    """
    chosen = {f for f in families if "mean" in f} or set(families)

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
    from matplotlib.ticker import MaxNLocator

    fig, axes = plot_figure(len(kinds), width=3.6)
    bins = ssmape_bins()
    sentences = []
    for ax, kind in zip(axes, kinds, strict=True):
        for i, (model, answers) in enumerate(scored.items()):
            values = values_of(answers, kind)
            if values:
                clipped = np.clip(values, -SSMAPE_PLOT_LIMIT, SSMAPE_PLOT_LIMIT)
                ax.hist(clipped, bins=bins, histtype="step", color=f"C{i}", label=model)
                sentences.append(
                    f"{kind}, {model}: mean |sSMAPE| {_fmt(float(np.mean(np.abs(values))))}, "
                    f"bias {_fmt(float(np.mean(values)))}, median "
                    f"{_fmt(float(np.median(values)))} over {len(values)} answers"
                )
        ax.axvline(0, color="0.5", lw=0.8)
        ax.set_title(kind, fontsize=10)
        ax.set_xlabel("sSMAPE (end bins hold |sSMAPE| > 0.5)")
        ax.set_ylabel("answers")
        ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        ax.set_xlim(bins[0], bins[-1])
        if ax.get_legend_handles_labels()[0]:
            ax.legend(fontsize=7)
    file = save_plot(fig, out_dir, "ssmape_by_kind.png")
    alt = (
        "Histograms of signed SMAPE (negative too low, positive too high; 0 is exact) "
        f"for {', '.join(sorted(chosen))} questions, one axes per plot kind, one outline per "
        "model, in bins 0.02 wide centred on 0, ±0.02, ..., so an error of 10% shows as a "
        "peak at ±0.1; answers beyond ±0.5 are gathered in the end bins. "
        + "; ".join(sentences)
        + "."
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
    fig, (ax,) = plot_figure(1, width=5.0, height=4.0)
    models = list(metrics)
    markers = {"1": "o", "2": "s", "3": "^"}
    for model, level, cost, accuracy in points:
        ax.scatter(
            cost, accuracy, color=f"C{models.index(model)}", marker=markers.get(level, "D"), s=40
        )
    # a key instead of a label per point: models that cost the same sit on one spot
    from matplotlib.lines import Line2D

    key = [Line2D([], [], ls="", marker="o", color=f"C{i}", label=m) for i, m in enumerate(models)]
    levels = sorted({level for _, level, _, _ in points})
    key += [Line2D([], [], ls="", marker=markers.get(lv, "D"), color="0.4", label=f"level {lv}")
            for lv in levels]  # fmt: skip
    ax.legend(handles=key, fontsize=7, loc="best")
    # the axis starts at zero; free (local, offline) models would otherwise get a -0.04..0.04 span
    dearest = max(cost for _, _, cost, _ in points)
    if dearest > 0:
        ax.set_xlim(-0.03 * dearest, 1.3 * dearest)
        ax.set_xlabel("cost (USD)")
    else:
        ax.set_xlim(-1, 1)
        ax.set_xticks([0])
        ax.set_xlabel("cost (USD; every model here was free)")
    ax.set_ylabel("accuracy")
    ax.set_ylim(-0.05, 1.05)
    file = save_plot(fig, out_dir, "cost_vs_accuracy.png")
    alt = (
        "Scatter of accuracy against cost in USD, one point per model and description level "
        "(circle level 1, square level 2, triangle level 3). "
        + "; ".join(f"{m} level {lv}: {_fmt(a)} at ${c:.4f}" for m, lv, c, a in points)
        + "."
    )
    return Plot(file, "Cost against accuracy per level", alt)
