"""The metric registry, and scoring one parsed answer by its item's metric.

A metric is one :class:`MetricSpec` in :data:`METRICS`: how an answer is measured, when it
counts as correct, the columns its families get in ``metrics.json`` (and in the inspect
scorer's family metrics), the report section that lists them and the plot drawn of them.
Scoring, aggregation, the report, the plots and the inspect scorer read the spec and never
the metric's name, so a new metric is one :func:`register_metric` call (the built-in ones are
at the end of this module).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from figgen.eval.metrics import (
    RELAXED_TOLERANCE,
    cer,
    cer_list,
    exact_match,
    exact_set_match,
    relaxed_match,
    ssmape,
)
from figgen.eval.parse import ParsedAnswer
from figgen.eval.plots import MetricPlot, cer_plot, ssmape_plot
from figgen.eval.scores import Score
from figgen.registry import Registry
from figgen.vqa.item import Metric, QAItem

__all__ = [
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

    name: str
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


METRICS: Registry[MetricSpec] = Registry("metric")
"""Every metric by name, in registration order (the order of report sections and plots)."""


def register_metric(spec: MetricSpec) -> MetricSpec:
    """Add ``spec`` to :data:`METRICS` under its name; a taken name is an error."""
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


def score_value(metric: Metric, prediction: Any, truth: Any) -> Score:
    """Score an accepted prediction; an unregistered metric is a one-line FiggenError."""
    spec = METRICS.get_or_fail(metric)
    value = spec.measure(prediction, truth)
    details = {name: measure(prediction, truth) for name, measure in spec.details.items()}
    return Score(metric, value, spec.correct(value), details=details)


def score_answer(item: QAItem, parsed: ParsedAnswer) -> Score:
    """Score a parsed reply to ``item``; a rejected reply is kept apart (and never correct)."""
    if parsed.rejected:
        return Score.rejected_answer(item.metric, parsed.reason)
    return score_value(item.metric, parsed.value, item.answer)


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

register_metric(MetricSpec("exact", _matches(exact_match), _is_one, "exact match"))
register_metric(
    MetricSpec(
        "exact_set",
        _matches(lambda p, t: exact_set_match(_as_list(p), _as_list(t))),
        _is_one,
        "the same set",
        unordered=True,
    )
)
register_metric(
    MetricSpec(
        "relaxed_5pct", _matches(_within(RELAXED_TOLERANCE)), _is_one, "within 5% of the truth"
    )
)
register_metric(
    MetricSpec("relative_1pct", _matches(_within(0.01)), _is_one, "within 1% of the truth")
)
for _name, _text_measure in (("cer", _cer), ("cer_list", _cer_list)):
    register_metric(
        MetricSpec(
            _name,
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
        "ssmape",
        _ssmape,
        lambda value: abs(value) <= SSMAPE_CORRECT,
        f"|sSMAPE| <= {SSMAPE_CORRECT}",
        table=VALUE_TABLE,
        plot=ssmape_plot,
    )
)
