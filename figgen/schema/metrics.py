"""Every metric's name and tolerance class, declared once where the question side reads them.

The question side asks a family scored relative to its truth only of truths away from zero,
and gives a family scored against the axis span that span; it reads which is which here
(:func:`tolerance`). ``figgen.eval.scoring`` attaches each metric's scoring to its declaration
(``MetricSpec(declared=...)`` in ``METRICS``), and a test checks that the two name the same
metrics.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from figgen._util.registry import Registry

Tolerance = Literal["exact", "relative", "axis_span", "edit_distance", "absolute"]
"""How far an answer may be from its truth and still count as correct:

- ``exact``: not at all (the same value, or the same set);
- ``relative``: a share of the truth, so a truth near zero allows no reading error;
- ``axis_span``: a share of the span of the values drawn along the answer's axis, which each
  item carries;
- ``edit_distance``: scored by the character edits from the truth (text);
- ``absolute``: a fixed distance in the answer's own units (no built-in metric)."""


@dataclass(frozen=True)
class MetricDecl:
    """One metric as the question side knows it."""

    name: str
    tolerance: Tolerance


METRIC_DECLS: Registry[MetricDecl] = Registry("metric")
"""Every declared metric by name, in the order of the report's sections."""


def declare_metric(name: str, tolerance: Tolerance) -> MetricDecl:
    """Declare the metric ``name``; a taken name is an error."""
    return METRIC_DECLS.add(name, MetricDecl(name, tolerance))


def tolerance(metric: str) -> Tolerance:
    """The tolerance class of ``metric``; an undeclared one is a one-line FiggenError."""
    return METRIC_DECLS.get_or_fail(metric).tolerance


EXACT = declare_metric("exact", "exact")
EXACT_SET = declare_metric("exact_set", "exact")
RELAXED_5PCT = declare_metric("relaxed_5pct", "relative")
RELATIVE_1PCT = declare_metric("relative_1pct", "relative")
CER = declare_metric("cer", "edit_distance")
CER_LIST = declare_metric("cer_list", "edit_distance")
SSMAPE = declare_metric("ssmape", "relative")
AXIS_2PCT = declare_metric("axis_2pct", "axis_span")
