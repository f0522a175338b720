"""The three data-generating distributions (linear, Gaussian mixture, random), numpy only.

Each function returns the numbers to draw and the parameters that generated them; the
parameters are what Level 3 ground truth is derived from.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from figgen.sample.rng import integer, uniform

if TYPE_CHECKING:
    from figgen.config.sections.shared import DistributionConfig


def x_grid(rng: np.random.Generator, cfg: DistributionConfig, n: int, *, log: bool) -> np.ndarray:
    """Sorted x positions; on a log axis they are spread evenly in log10."""
    if log:
        lo = uniform(rng, (-2.0, 2.0))
        return np.sort(10.0 ** rng.uniform(lo, lo + uniform(rng, (1.0, 4.0)), n))
    span = float(np.exp(rng.uniform(np.log(cfg.x_span[0]), np.log(cfg.x_span[1]))))
    start = uniform(rng, (-span, span))
    return np.sort(rng.uniform(start, start + span, n))


def _noisy(rng: np.random.Generator, clean: np.ndarray, noise: float) -> np.ndarray:
    scale = float(np.ptp(clean)) or max(abs(float(np.mean(clean))), 1.0)
    return clean + rng.normal(0.0, noise * scale, clean.shape)


def relation(
    rng: np.random.Generator,
    cfg: DistributionConfig,
    distribution: str,
    x: np.ndarray,
    *,
    xlog: bool,
) -> tuple[np.ndarray, dict[str, Any]]:
    """y as a function of x (lines and scatter). On a log x axis the relation is in log10(x)."""
    u = np.log10(x) if xlog else x
    noise = uniform(rng, cfg.noise)
    if distribution == "linear":
        slope, intercept = uniform(rng, cfg.slope), uniform(rng, cfg.intercept)
        clean = slope * u + intercept
        params = {"slope": slope, "intercept": intercept, "noise": noise, "in_log10_x": xlog}
    elif distribution == "gmm":
        k = integer(rng, (1, 4))
        lo, hi = float(u.min()), float(u.max())
        width = (hi - lo) or 1.0
        means = rng.uniform(lo, hi, k)
        stds = rng.uniform(0.05, 0.3, k) * width
        amps = rng.uniform(0.3, 1.0, k) * uniform(rng, (1.0, 100.0)) * rng.choice([-1, 1])
        offset = uniform(rng, cfg.intercept)
        clean = offset + sum(
            a * np.exp(-0.5 * ((u - m) / s) ** 2) for a, m, s in zip(amps, means, stds, strict=True)
        )
        params = {
            "components": k,
            "means": means.tolist(),
            "stds": stds.tolist(),
            "amplitudes": amps.tolist(),
            "offset": offset,
            "noise": noise,
            "in_log10_x": xlog,
        }
    else:
        level, spread = uniform(rng, cfg.intercept), uniform(rng, (1.0, 100.0))
        clean = rng.uniform(level - spread, level + spread, x.shape)
        params = {"low": level - spread, "high": level + spread, "noise": noise}
    return _noisy(rng, clean, noise), params


def samples_1d(
    rng: np.random.Generator,
    cfg: DistributionConfig,
    distribution: str,
    n: int,
    *,
    log: bool,
) -> tuple[np.ndarray, dict[str, Any]]:
    """Samples for a histogram: ramp density (skewed), Gaussian mixture, or uniform."""
    span = float(np.exp(rng.uniform(np.log(cfg.x_span[0]), np.log(cfg.x_span[1]))))
    lo = 0.0 if log else uniform(rng, (-span, span))
    noise = uniform(rng, cfg.noise)
    if distribution == "linear":
        rising = bool(rng.random() < 0.5)
        u = np.sqrt(rng.random(n))  # density proportional to u on [0, 1]
        u = u if rising else 1.0 - u
        values = lo + span * u
        params = {"density": "ramp", "rising": rising, "low": lo, "high": lo + span, "noise": noise}
    elif distribution == "gmm":
        k = integer(rng, cfg.gmm_clusters)
        means = rng.uniform(lo, lo + span, k)
        stds = rng.uniform(0.02, 0.15, k) * span
        weights = rng.dirichlet(np.ones(k))
        comp = rng.choice(k, size=n, p=weights)
        values = rng.normal(means[comp], stds[comp])
        params = {
            "components": k,
            "means": means.tolist(),
            "stds": stds.tolist(),
            "weights": weights.tolist(),
            "noise": noise,
        }
    else:
        values = rng.uniform(lo, lo + span, n)
        params = {"density": "uniform", "low": lo, "high": lo + span, "noise": noise}
    jitter = rng.normal(0.0, noise * 0.05 * span, n)
    values = values + jitter
    if log:
        # Spread over decades: the log of the value follows the sampled shape.
        values = 10.0 ** (values / span * uniform(rng, (1.0, 4.0)) + uniform(rng, (-1.0, 2.0)))
        params["in_log10"] = True
    return values, params


def clusters_2d(
    rng: np.random.Generator,
    n: int,
    k: int,
    box: tuple[float, float, float, float],
) -> tuple[np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
    """n points from k Gaussian clusters in ``box`` = (x0, x1, y0, y1); returns x, y, labels."""
    x0, x1, y0, y1 = box
    centres = np.column_stack([rng.uniform(x0, x1, k), rng.uniform(y0, y1, k)])
    scale = np.array([x1 - x0, y1 - y0])
    stds = rng.uniform(0.03, 0.12, (k, 2)) * scale
    rho = rng.uniform(-0.6, 0.6, k)
    weights = rng.dirichlet(np.ones(k) * 2.0)
    labels = rng.choice(k, size=n, p=weights)
    z = rng.standard_normal((n, 2))
    zx = z[:, 0]
    zy = rho[labels] * z[:, 0] + np.sqrt(1 - rho[labels] ** 2) * z[:, 1]
    x = centres[labels, 0] + stds[labels, 0] * zx
    y = centres[labels, 1] + stds[labels, 1] * zy
    params = {
        "components": k,
        "centres": centres.tolist(),
        "stds": stds.tolist(),
        "correlations": rho.tolist(),
        "weights": weights.tolist(),
    }
    return x, y, labels, params


def to_log_axis(rng: np.random.Generator, values: np.ndarray) -> np.ndarray:
    """Map values affinely onto 1-4 decades and exponentiate, for a log-scaled axis.

    The shape seen on the log axis is the shape of the original values.
    """
    lo, hi = float(values.min()), float(values.max())
    unit = (values - lo) / ((hi - lo) or 1.0)
    return 10.0 ** (unit * uniform(rng, (1.0, 4.0)) + uniform(rng, (-2.0, 2.0)))
