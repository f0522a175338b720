"""Line plots: 2-3 series of 10-11 points, optional markers and x/y error bars.

``data.series[i]`` holds ``x, y, xerr, yerr, color, label``; ``params.series[i]`` the generating
parameters of that series (see ``figgen.sample.distributions.relation``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase

from figgen.kinds.base import (
    LEGEND_LOCATIONS,
    Drawn,
    KindHooks,
    Mark,
    Sampled,
    random_color,
    register,
)
from figgen.kinds.marks import centres, errorbar_marks, point_marks
from figgen.sample import distributions as dist
from figgen.sample.rng import integer, sig, uniform
from figgen.sample.text import Vocabulary
from figgen.sections import IntRange, Probability, Range, Section
from figgen.spec import FigureStyle, PanelSpec

if TYPE_CHECKING:
    from figgen.config import FigureConfig

MARKERS = ("o", "s", "^", "v", "D", "*", "p", "h", "<", ">", "x", "+", "d")
LINESTYLES = ("-", "-", "-", "--", "-.", ":")


class LineConfig(Section):
    series: IntRange = (2, 3)
    points: IntRange = (10, 11)
    marker_p: Probability = 0.5
    xerr_p: Probability = 0.25
    yerr_p: Probability = 0.25
    linewidth: Range = (0.8, 3.0)


class LineKind(KindHooks):
    name = "line"
    config = LineConfig
    noun = "line plot"

    def sample(
        self,
        rng: np.random.Generator,
        cfg: FigureConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        lc = cfg.section(self.name, LineConfig)
        xlog = bool(rng.random() < cfg.style.log_x_p)
        ylog = bool(rng.random() < cfg.style.log_y_p)
        n_series, n_points = integer(rng, lc.series), integer(rng, lc.points)
        marker = str(rng.choice(MARKERS)) if rng.random() < lc.marker_p else None
        has_xerr, has_yerr = rng.random() < lc.xerr_p, rng.random() < lc.yerr_p
        x = dist.x_grid(rng, cfg.distributions, n_points, log=xlog)
        series, params = [], []
        for _ in range(n_series):
            y, p = dist.relation(rng, cfg.distributions, distribution, x, xlog=xlog)
            if ylog:
                y = dist.to_log_axis(rng, y)
                p["log_y_mapped"] = True
            xerr = _errors(rng, x, log=xlog) if has_xerr else None
            yerr = _errors(rng, y, log=ylog) if has_yerr else None
            series.append(
                {
                    "x": sig(x),
                    "y": sig(y),
                    "xerr": sig(xerr) if xerr is not None else None,
                    "yerr": sig(yerr) if yerr is not None else None,
                    "color": random_color(rng, dark=dark),
                    "label": vocab.words[int(rng.integers(len(vocab.words)))],
                    "linestyle": str(rng.choice(LINESTYLES)),
                }
            )
            params.append(p)
        style = {
            "marker": marker,
            "markersize": round(uniform(rng, (3.0, 8.0)), 1),
            "linewidth": round(uniform(rng, lc.linewidth), 2),
            "capsize": round(uniform(rng, (0.0, 4.0)), 1),
            "legend": bool(rng.random() < cfg.style.legend_p),
            "legend_loc": str(rng.choice(LEGEND_LOCATIONS)),
            "grid": bool(rng.random() < cfg.style.grid_p),
        }
        return Sampled(
            params={"series": params},
            data={"series": series},
            style=style,
            xscale="log" if xlog else "linear",
            yscale="log" if ylog else "linear",
        )

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        st = panel.style
        dpi = ax.figure.dpi
        for s in panel.data["series"]:
            ax.errorbar(
                s["x"],
                s["y"],
                xerr=s["xerr"],
                yerr=s["yerr"],
                color=s["color"],
                marker=st["marker"] or "",
                markersize=st["markersize"],
                linewidth=st["linewidth"],
                linestyle=s["linestyle"],
                capsize=st["capsize"],
                elinewidth=max(0.6, st["linewidth"] * 0.6),
                label=s["label"],
            )
        if st["legend"]:
            ax.legend(loc=st["legend_loc"], fontsize=style.sizes.legend)
        ax.grid(st["grid"])

        def probe(renderer: RendererBase) -> list[Mark]:
            lw_half = max(st["linewidth"] * dpi / 72 / 2, 1.0)
            mark_half = st["markersize"] * dpi / 72 / 2
            cap_half = max(st["capsize"] * dpi / 72, lw_half)
            marks: list[Mark] = []
            for i, s in enumerate(panel.data["series"]):
                x, y = np.asarray(s["x"]), np.asarray(s["y"])
                xy = centres(ax, x, y)
                lo, hi = xy.min(axis=0), xy.max(axis=0)
                marks.append(
                    Mark(
                        "line",
                        (lo[0] - lw_half, lo[1] - lw_half, hi[0] + lw_half, hi[1] + lw_half),
                        series=i,
                    )
                )
                if st["marker"]:  # without a symbol a point may fall in a dash gap: no mark
                    marks += point_marks("marker", xy, mark_half, np.column_stack([x, y]), series=i)
                marks += errorbar_marks(ax, x, y, s["yerr"], axis="y", half_px=cap_half, series=i)
                marks += errorbar_marks(ax, x, y, s["xerr"], axis="x", half_px=cap_half, series=i)
            return marks

        return Drawn(probes=[probe])


def _errors(rng: np.random.Generator, values: np.ndarray, *, log: bool) -> np.ndarray:
    """Positive error sizes; on a log axis kept below the value so bars stay drawable."""
    if log:
        return np.abs(values) * rng.uniform(0.05, 0.5, values.shape)
    scale = float(np.ptp(values)) or max(abs(float(np.mean(values))), 1.0)
    return scale * rng.uniform(0.02, 0.12, values.shape)


register(LineKind())
