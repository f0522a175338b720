"""Histograms: 10-10000 samples in 1-100 bins, vertical or horizontal, optional count errors.

``data`` holds ``samples, bin_edges, counts, orientation`` (and ``errors`` when drawn); the bars
are drawn from the stored edges and counts, so what is drawn is exactly what is stored.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase

from figgen.kinds.base import Drawn, KindHooks, Mark, Sampled, random_color, register
from figgen.kinds.marks import centres, errorbar_marks
from figgen.sample import distributions as dist
from figgen.sample.rng import integer, sig, uniform
from figgen.sample.text import Vocabulary
from figgen.sections import IntRange, Probability, Section
from figgen.spec import FigureStyle, PanelSpec, Scale

if TYPE_CHECKING:
    from figgen.config import FigureConfig


class HistogramConfig(Section):
    samples: IntRange = (10, 10000)
    bins: IntRange = (1, 100)
    horizontal_p: Probability = 0.25
    yerr_p: Probability = 0.25


class HistogramKind(KindHooks):
    name = "histogram"
    config = HistogramConfig
    noun = "histogram"

    def sample(
        self,
        rng: np.random.Generator,
        cfg: FigureConfig,
        distribution: str,
        *,
        dark: bool,
        vocab: Vocabulary,
    ) -> Sampled:
        hc = cfg.section(self.name, HistogramConfig)
        n = int(round(np.exp(rng.uniform(np.log(hc.samples[0]), np.log(hc.samples[1])))))
        bins = integer(rng, hc.bins)
        samples, params = dist.samples_1d(rng, cfg.distributions, distribution, n, log=False)
        samples = np.asarray(sig(samples))
        counts, edges = np.histogram(samples, bins=bins)
        edges = np.asarray(sig(edges, 8))
        # Re-count on the rounded edges so counts match the stored edges exactly.
        counts, _ = np.histogram(samples, bins=edges)
        horizontal = bool(rng.random() < hc.horizontal_p)
        count_log = bool(rng.random() < cfg.style.log_y_p) and bool(counts.min() > 0)
        errors = bool(rng.random() < hc.yerr_p)
        data = {
            "samples": samples.tolist(),
            "bin_edges": edges.tolist(),
            "counts": counts.astype(int).tolist(),
            "orientation": "horizontal" if horizontal else "vertical",
            "errors": sig(np.sqrt(counts)) if errors else None,
        }
        style = {
            "color": random_color(rng, dark=dark),
            "edgecolor": random_color(rng, dark=dark) if rng.random() < 0.5 else None,
            "edgewidth": round(uniform(rng, (0.3, 1.5)), 2),
            "grid": bool(rng.random() < cfg.style.grid_p),
        }
        scale: Scale = "log" if count_log else "linear"
        return Sampled(
            params=params,
            data=data,
            style=style,
            xscale=scale if horizontal else "linear",
            yscale="linear" if horizontal else scale,
        )

    def draw(self, ax: Axes, panel: PanelSpec, style: FigureStyle) -> Drawn:
        st, d = panel.style, panel.data
        edges, counts = np.asarray(d["bin_edges"]), np.asarray(d["counts"], dtype=float)
        left, width = edges[:-1], np.diff(edges)
        horizontal = d["orientation"] == "horizontal"
        edge_kw = (
            {"edgecolor": st["edgecolor"], "linewidth": st["edgewidth"]}
            if st["edgecolor"]
            else {"linewidth": 0}
        )
        if horizontal:
            ax.barh(left, counts, height=width, align="edge", color=st["color"], **edge_kw)
        else:
            ax.bar(left, counts, width=width, align="edge", color=st["color"], **edge_kw)
        mids = (edges[:-1] + edges[1:]) / 2
        if d["errors"] is not None:
            err_kw: dict[str, Any] = {
                "fmt": "none",
                "ecolor": "0.2" if not style.dark else "0.85",
                "elinewidth": 0.8,
                "capsize": 2,
            }
            if horizontal:
                ax.errorbar(counts, mids, xerr=d["errors"], **err_kw)
            else:
                ax.errorbar(mids, counts, yerr=d["errors"], **err_kw)
        ax.grid(st["grid"])
        dpi = ax.figure.dpi

        def probe(renderer: RendererBase) -> list[Mark]:
            pad = (st["edgewidth"] if st["edgecolor"] else 0.0) * dpi / 72 / 2
            log_counts = (ax.get_xscale() if horizontal else ax.get_yscale()) == "log"
            base = (ax.get_xlim() if horizontal else ax.get_ylim())[0] if log_counts else 0.0
            if horizontal:
                lo, hi = (
                    centres(ax, np.full_like(left, base), left),
                    centres(ax, counts, left + width),
                )
            else:
                lo, hi = (
                    centres(ax, left, np.full_like(left, base)),
                    centres(ax, left + width, counts),
                )
            marks = []
            for i in range(len(counts)):
                x0, x1 = sorted((lo[i, 0], hi[i, 0]))
                y0, y1 = sorted((lo[i, 1], hi[i, 1]))
                marks.append(
                    Mark(
                        "bar",
                        (x0 - pad, y0 - pad, x1 + pad, y1 + pad),
                        value=[float(mids[i]), float(counts[i])],
                        item=i,
                    )
                )
            if d["errors"] is not None:
                axis = "x" if horizontal else "y"
                px, py = (counts, mids) if horizontal else (mids, counts)
                marks += errorbar_marks(
                    ax, px, py, np.asarray(d["errors"]), axis=axis, half_px=max(2 * dpi / 72, 1.0)
                )
            return marks

        return Drawn(probes=[probe])


register(HistogramKind())
