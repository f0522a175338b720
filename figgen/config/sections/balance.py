"""The ``[balance]`` section of a config: which items of dominant answers a build keeps.

The default tables were measured on ``figgen build --n 200 --seed 0``;
:mod:`figgen.vqa.api.balance` says how a build uses them.
"""

from __future__ import annotations

from collections.abc import Mapping

from pydantic import Field

from figgen.config.sections.fields import Probability, Section

# fmt: off
KEEP: dict[str, dict[str, float]] = {
    "axis_scale": {"linear": 0.08},
    # each kind on its own (lines named by legend label apart), so what the words tell of a
    # panel gains nothing
    "error_bars/histogram": {"none": 0.1, "y only": 0.4},
    "error_bars/scatter": {"none": 0.13},
    "error_bars/line": {"none": 0.35, "y only": 0.89},
    "linearity/line-legend": {"nonlinear": 0.29},
    "linearity/line": {"nonlinear": 0.17},
    "linearity/scatter": {"nonlinear": 0.16},
    "symmetry": {"symmetric": 0.5},
    "n_clusters": {"1": 0.3},
    "n_modes": {"2": 0.6},
    "n_peaks": {"1": 0.5},
    "plot_types": {"1 kinds": 0.35, "4 kinds": 0.1},
    "titles": {"[]": 0.2},
}
"""Per family (or ``family/kind`` where the question's words give the panel's kind away), the
probability an item of an answer class is kept (classes not listed: 1)."""

SHARE_BOUNDS: dict[str, float] = {
    "axis_scale": 0.6,
    "error_bars": 0.36,
    "linearity": 0.6,
    "symmetry": 0.43,
    "n_clusters": 0.5,
    "n_modes": 0.6,
    "n_peaks": 0.5,
    "plot_types": 0.2,
    "titles": 0.1,
    "colormap": 0.2,
}
"""Per balanced family, the largest share any one answer class may have in the default build
of 200 figures (``colormap``: of P(answer | offered), which its fixed groups keep flat)."""
# fmt: on

KeepTable = Mapping[str, Mapping[str, float]]
"""Per family (or ``family/kind``), per answer class, the probability an item is kept."""


def _default_keep() -> dict[str, dict[str, float]]:
    return {name: dict(classes) for name, classes in KEEP.items()}


class BalanceConfig(Section):
    """The ``[balance]`` section: which items of dominant answers a build keeps.

    ``keep`` replaces :data:`KEEP` as a whole (keys ``family`` or ``family/kind``, then answer
    class: probability); ``share_bounds`` states the largest answer share each balanced family
    keeps on this config's figures (what the tests check a build against).
    """

    keep: dict[str, dict[str, Probability]] = Field(default_factory=_default_keep)
    share_bounds: dict[str, Probability] = Field(default_factory=lambda: dict(SHARE_BOUNDS))
