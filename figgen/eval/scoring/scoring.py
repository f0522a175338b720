"""The metric registry, and scoring one parsed answer by its item's metric.

A metric is declared once, with its tolerance class, in :mod:`figgen.schema.metrics` (where
the question side reads it), and scored by one :class:`MetricSpec` in :data:`METRICS` attached
to that declaration: how an answer is measured, when it counts as correct, the columns its
families get in ``metrics.json`` (and in the inspect scorer's family metrics), the report
section that lists them and the plot drawn of them. Scoring, aggregation, the report, the
plots and the inspect scorer read the spec and never the metric's name, so a new metric is one
declaration and one :func:`register_metric` call (the built-in ones are at the end of this
module)."""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from figgen._util.registry import Registry
from figgen.errors import FiggenError
from figgen.eval.scoring.metrics import (
    RELAXED_TOLERANCE,
    cer,
    cer_list,
    exact_match,
    exact_set_match,
    relaxed_match,
    ssmape,
)
from figgen.eval.scoring.parse import ParsedAnswer
from figgen.eval.scoring.plots import MetricPlot, axis_error_plot, cer_plot, ssmape_plot
from figgen.eval.scoring.scores import Score
from figgen.schema.metrics import (
    AXIS_2PCT,
    CER,
    CER_LIST,
    EXACT,
    EXACT_SET,
    METRIC_DECLS,
    RELATIVE_1PCT,
    RELAXED_5PCT,
    SSMAPE,
    MetricDecl,
    Tolerance,
)
from figgen.schema.qa_item import Metric, QAItem

__all__ = [
    "AXIS_TOLERANCE",
    "METRICS",
    "SSMAPE_CORRECT",
    "Column",
    "MetricSpec",
    "MetricTable",
    "Score",
    "metrics_sharing",
    "register_metric",
    "score_answer",
    "score_value",
]

SSMAPE_CORRECT = 0.05
"""An sSMAPE answer counts as correct (for accuracy tables) when |sSMAPE| <= this."""

AXIS_TOLERANCE = 0.02
"""An ``axis_2pct`` answer (a length read as the difference of two axis readings) counts as
correct when it is within this share of the axis span (``QAItem.axis_span``: the span of the
values drawn along the axis) of the truth: a careful reader places each end within 1% of the
span (the reading error the near-zero rule of :mod:`figgen.vqa.api.context` allows), and the two
errors add up to at most 2%."""


@dataclass(frozen=True)
class Column:
    """One number per family beside its accuracy: a reduction of its scored answers' scores
    (None when there is nothing to reduce)."""

    name: str
    reduce: Callable[[Sequence[Score]], float | None]


@dataclass(frozen=True)
class MetricTable:
    """The columns a metric's families get, and the report section that lists them.

    Metrics sharing one table (``cer`` and ``cer_list``) share its section.
    """

    title: str
    note: str
    columns: tuple[Column, ...]


@dataclass(frozen=True)
class MetricSpec:
    """Everything scoring, aggregation, the report, the plots and the inspect scorer know
    about one metric."""

    declared: MetricDecl
    """The metric's declaration (:mod:`figgen.schema.metrics`): its name and tolerance class."""
    measure: Callable[[Any, Any], float]
    """``(prediction, truth)`` of an accepted answer -> the metric's number (``Score.value``)."""
    correct: Callable[[float], bool]
    """Whether that number counts as a correct answer."""
    rule: str
    """``correct`` in words, for the report's definition of accuracy ("CER 0")."""
    details: Mapping[str, Callable[[Any, Any], float]] = field(default_factory=dict)
    """Further numbers per answer (``Score.details``), under their names."""
    table: MetricTable | None = None
    """Columns beyond accuracy; None: the family's accuracy says it all."""
    plot: MetricPlot | None = None
    """The report's plot of the families this metric scores (shared plots draw them together)."""
    unordered: bool = False
    """Answers are sets: the same values in another order are the same answer."""

    @property
    def name(self) -> str:
        return self.declared.name

    @property
    def tolerance(self) -> Tolerance:
        """A metric of tolerance ``axis_span`` compares the answers in units of the item's
        ``axis_span`` (prediction and truth divided by it): its error is a share of the drawn
        axis, not of the truth. Every item it scores must carry the span."""
        return self.declared.tolerance


METRICS: Registry[MetricSpec] = Registry("metric")
"""Every metric by name, in registration order (the order of report sections and plots)."""


def register_metric(spec: MetricSpec) -> MetricSpec:
    """Add ``spec`` to :data:`METRICS` under its name; a taken name, or a metric not declared
    in :data:`figgen.schema.metrics.METRIC_DECLS`, is an error."""
    if METRIC_DECLS.get(spec.name) != spec.declared:
        raise ValueError(f"metric {spec.name!r} is not declared in figgen.schema.metrics")
    return METRICS.add(spec.name, spec)


H = TypeVar("H", bound=Hashable)


def metrics_sharing(part: Callable[[MetricSpec], H | None]) -> list[tuple[H, tuple[str, ...]]]:
    """Each distinct ``part`` (a table, a plot) of the registered metrics with the names of the
    metrics that have it, in registration order."""
    groups: dict[H, list[str]] = {}
    for name, spec in METRICS.items():
        thing = part(spec)
        if thing is not None:
            groups.setdefault(thing, []).append(name)
    return [(thing, tuple(names)) for thing, names in groups.items()]


def score_value(
    metric: Metric, prediction: Any, truth: Any, axis_span: float | None = None
) -> Score:
    """Score an accepted prediction; an unregistered metric, or a metric measured against the
    axis span given none, is a one-line FiggenError."""
    spec = METRICS.get_or_fail(metric)
    if spec.tolerance == "axis_span":
        if axis_span is None or not math.isfinite(axis_span) or axis_span <= 0:
            raise FiggenError(
                f"metric {metric!r} scores an error as a share of the axis span, and the item "
                f"gives no positive span ({axis_span}); rebuild the questions with `figgen qa DIR`"
            )
        prediction, truth = _in_spans(prediction, axis_span), _in_spans(truth, axis_span)
    value = spec.measure(prediction, truth)
    details = {name: measure(prediction, truth) for name, measure in spec.details.items()}
    return Score(metric, value, spec.correct(value), details=details)


def score_answer(item: QAItem, parsed: ParsedAnswer) -> Score:
    """Score a parsed reply to ``item``; a rejected reply is kept apart (and never correct)."""
    if parsed.rejected:
        return Score.rejected_answer(item.metric, parsed.reason)
    return score_value(item.metric, parsed.value, item.answer, item.axis_span)


# ---- the built-in metrics --------------------------------------------------------------------


def _numbers(value: Any) -> list[float]:
    return [float(v) for v in value] if isinstance(value, list) else [float(value)]


def _as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else [value]


def _text(value: Any) -> str:
    return "" if value is None else str(value)


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _values(scores: Sequence[Score]) -> list[float]:
    return [s.value for s in scores if s.value is not None]


def _detail(name: str) -> Callable[[Sequence[Score]], float | None]:
    def mean(scores: Sequence[Score]) -> float | None:
        return _mean([s.details[name] for s in scores if name in s.details])

    return mean


def _is_one(value: float) -> bool:
    return value == 1.0


def _is_zero(value: float) -> bool:
    return value == 0.0


def _matches(test: Callable[[Any, Any], bool]) -> Callable[[Any, Any], float]:
    """A pass/fail test as a 1/0 measure."""

    def measure(prediction: Any, truth: Any) -> float:
        return float(test(prediction, truth))

    return measure


def _within(tolerance: float) -> Callable[[Any, Any], bool]:
    """Every number within ``tolerance`` of its truth (relative), and as many numbers."""

    def test(prediction: Any, truth: Any) -> bool:
        preds, truths = _numbers(prediction), _numbers(truth)
        return len(preds) == len(truths) and all(
            relaxed_match(p, t, tolerance) for p, t in zip(preds, truths, strict=True)
        )

    return test


def _ssmape(prediction: Any, truth: Any) -> float:
    """Mean sSMAPE over the numbers; a list of another length is as wrong as can be (2)."""
    preds, truths = _numbers(prediction), _numbers(truth)
    if len(preds) != len(truths):
        return 2.0
    values = [ssmape(p, t) for p, t in zip(preds, truths, strict=True)]
    return sum(values) / len(values)


def _real(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _in_spans(value: Any, span: float) -> Any:
    """A number (or each number of a list) divided by ``span``; anything else as it is."""
    if isinstance(value, list):
        return [_in_spans(v, span) for v in value]
    return value / span if _real(value) else value


def _axis_error(prediction: Any, truth: Any) -> float:
    """The signed error in axis spans (positive: too large), capped at one span either way;
    a reply that is not one finite number is as wrong as can be (1)."""
    if not (_real(prediction) and _real(truth)):
        return 1.0
    return max(-1.0, min(1.0, float(prediction) - float(truth)))


def _cer(*, normalize: bool) -> Callable[[Any, Any], float]:
    def measure(prediction: Any, truth: Any) -> float:
        return cer(_text(truth), _text(prediction), normalize=normalize)

    return measure


def _cer_list(*, normalize: bool) -> Callable[[Any, Any], float]:
    def measure(prediction: Any, truth: Any) -> float:
        refs = [_text(t) for t in _as_list(truth)]
        hyps = [_text(p) for p in _as_list(prediction)]
        return cer_list(refs, hyps, normalize=normalize)

    return measure


TEXT_TABLE = MetricTable(
    "Text families: character error rate",
    "`cer` compares the strings as written (as the core paper does: LaTeX source and its "
    "rendering differ); `cer_normalized` converts LaTeX to Unicode on both sides first. Means "
    "over the scored answers; lower is better.",
    (
        Column("cer", lambda scores: _mean(_values(scores))),
        Column("cer_normalized", _detail("cer_normalized")),
    ),
)
VALUE_TABLE = MetricTable(
    "Value families: sSMAPE",
    "`ssmape_abs` is the mean |sSMAPE| (the size of the error, 0 is exact, 2 the worst); "
    "`ssmape_bias` the signed mean (positive: over-estimates). Errors of opposite sign cancel "
    "in the bias, so it says nothing about accuracy on its own.",
    (
        Column("ssmape_abs", lambda scores: _mean([abs(v) for v in _values(scores)])),
        Column("ssmape_bias", lambda scores: _mean(_values(scores))),
    ),
)

AXIS_TABLE = MetricTable(
    "Length families: error as a share of the axis span",
    "A length read as the difference of two axis readings (a box's interquartile range, a "
    "range bar's length) is scored by its error over the axis span (the span of the values "
    "drawn along the axis), capped at 1: "
    "`axis_error_abs` is the mean |error| (0 is exact), `axis_error_bias` the signed mean "
    "(positive: over-estimates). Relative errors would punish short lengths, whose two "
    "readings carry the same error as long ones.",
    (
        Column("axis_error_abs", lambda scores: _mean([abs(v) for v in _values(scores)])),
        Column("axis_error_bias", lambda scores: _mean(_values(scores))),
    ),
)

register_metric(MetricSpec(EXACT, _matches(exact_match), _is_one, "exact match"))
register_metric(
    MetricSpec(
        EXACT_SET,
        _matches(lambda p, t: exact_set_match(_as_list(p), _as_list(t))),
        _is_one,
        "the same set",
        unordered=True,
    )
)
register_metric(
    MetricSpec(
        RELAXED_5PCT, _matches(_within(RELAXED_TOLERANCE)), _is_one, "within 5% of the truth"
    )
)
register_metric(
    MetricSpec(RELATIVE_1PCT, _matches(_within(0.01)), _is_one, "within 1% of the truth")
)
for _declared, _text_measure in ((CER, _cer), (CER_LIST, _cer_list)):
    register_metric(
        MetricSpec(
            _declared,
            _text_measure(normalize=False),
            _is_zero,
            "CER 0",
            details={"cer_normalized": _text_measure(normalize=True)},
            table=TEXT_TABLE,
            plot=cer_plot,
        )
    )
register_metric(
    MetricSpec(
        SSMAPE,
        _ssmape,
        lambda value: abs(value) <= SSMAPE_CORRECT,
        f"|sSMAPE| <= {SSMAPE_CORRECT}",
        table=VALUE_TABLE,
        plot=ssmape_plot,
    )
)
register_metric(
    MetricSpec(
        AXIS_2PCT,
        _axis_error,
        # an answer right on the tolerance counts (the slack absorbs dividing by the span)
        lambda value: abs(value) <= AXIS_TOLERANCE + 1e-12,
        f"within {AXIS_TOLERANCE:.0%} of the axis span",
        table=AXIS_TABLE,
        plot=axis_error_plot,
    )
)
