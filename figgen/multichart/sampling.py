"""Values for the sampled nodes from figgen's samplers, under each node's trend requirement.

A vector is a relation drawn by ``figgen.sample.distributions.relation`` (linear for rising or
falling trends, a Gaussian mixture for a peak or a dip, any of the three otherwise), mapped
affinely into the node's range and rounded to its decimals; the requirement is then checked on
the rounded values and the draw repeated until it holds. Scalars are uniform in their range.
An optional ``propose`` hook (e.g. an LLM following the spec's requirements) may supply values
instead; it is off by default and its values face the same checks.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from figgen.config.sections.shared import DistributionConfig
from figgen.errors import FiggenError
from figgen.multichart.spec import GraphSpec, NodeSpec, Trend
from figgen.multichart.values import Shape, Value, Vector
from figgen.sample import distributions as dist

Proposer = Callable[[GraphSpec, str, Shape, np.random.Generator], Value | None]
DRAWS = 50

_DISTRIBUTION: dict[Trend, tuple[str, ...]] = {
    "increasing": ("linear",),
    "decreasing": ("linear",),
    "peak": ("gmm",),
    "dip": ("gmm",),
    "any": ("linear", "gmm", "random"),
}


def meets_trend(values: np.ndarray, trend: Trend) -> bool:
    """Whether a series visibly follows its requirement."""
    if trend == "any" or len(values) < 3:
        return True
    span = float(np.ptp(values))
    if span == 0:
        return False
    if trend in ("increasing", "decreasing"):
        ranks = np.argsort(np.argsort(values))
        rho = float(np.corrcoef(ranks, np.arange(len(values)))[0, 1])
        return rho >= 0.8 if trend == "increasing" else rho <= -0.8
    top = int(np.argmax(values) if trend == "peak" else np.argmin(values))
    if top in (0, len(values) - 1):
        return False
    extreme = values[top]
    return bool(min(abs(extreme - values[0]), abs(extreme - values[-1])) >= 0.2 * span)


def sample_node(
    rng: np.random.Generator, node: NodeSpec, shape: Shape, cfg: DistributionConfig
) -> Value:
    """One node's values, drawn until its trend requirement holds."""
    assert node.range is not None
    low, high = node.range
    if shape.kind == "scalar":
        return round(float(rng.uniform(low, high)), node.decimals)
    n = len(shape.labels)
    x = np.arange(n, dtype=float)
    for _ in range(DRAWS):
        distribution = str(rng.choice(_DISTRIBUTION[node.trend]))
        y, _params = dist.relation(rng, cfg, distribution, x, xlog=False)
        y = _fit(rng, y, low, high, node.trend)
        y = np.round(y, node.decimals)
        if meets_trend(y, node.trend):
            return Vector(shape.labels, tuple(float(v) for v in y))
    raise FiggenError(
        f"node values could not meet trend '{node.trend}' in {DRAWS} draws; widen its range"
    )


def _fit(
    rng: np.random.Generator, y: np.ndarray, low: float, high: float, trend: Trend
) -> np.ndarray:
    """Affine map of a draw into [low, high], covering 50-100% of the range; rising/falling
    trends get the orientation they ask for."""
    span = float(np.ptp(y)) or 1.0
    unit = (y - y.min()) / span
    if trend in ("increasing", "decreasing"):
        rising = float(np.polyfit(np.arange(len(y)), unit, 1)[0]) > 0
        if rising != (trend == "increasing"):
            unit = 1.0 - unit
    width = (high - low) * float(rng.uniform(0.5, 1.0))
    start = low + float(rng.uniform(0.0, (high - low) - width))
    values: np.ndarray = start + unit * width
    return values


def valid_values(spec: GraphSpec, values: dict[str, Value]) -> str | None:
    """Why propagated values are unusable (not finite, a data node out of range), or None."""
    for name, value in values.items():
        numbers = value.values if isinstance(value, Vector) else (value,)
        if any(isinstance(v, float) and not np.isfinite(v) for v in numbers):
            return f"node '{name}' is not finite"
        node = spec.nodes[name]
        if node.type == "data" and node.range is not None:
            low, high = node.range
            if any(isinstance(v, float) and not low <= v <= high for v in numbers):
                return f"node '{name}' leaves its range"
    return None
