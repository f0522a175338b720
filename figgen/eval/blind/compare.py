"""A model's score beside the best blind baseline and chance, per family and overall.

Every report shows, for each family a model answered: its accuracy, the best blind baseline's
accuracy on the same questions (fitted on the train split, :func:`unseen_predictions`),
chance, and the lift over blind. A family where blind comes within :data:`NEAR` of the model
is marked: there the score says little about reading the picture. Families that the paper's
own distribution leaves unbalanced (:data:`figgen.vqa.api.balance.FIXED_BY_PAPER`) also get
balanced accuracy (the mean recall over answer classes), which a constant guess cannot lift.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from figgen.eval.blind.fit import Predictions, unseen_predictions
from figgen.eval.blind.models import answer_class
from figgen.eval.scoring.scoring import score_value
from figgen.schema.answer_types import answer_spec
from figgen.schema.qa_item import QAItem
from figgen.vqa.api.balance import FIXED_BY_PAPER

NEAR = 0.05
"""A model less than this far above the best blind baseline is marked as near blind."""

TOO_FEW = 30
"""A family with fewer questions than this is too small to rank models on."""


def chance_accuracy(items: Sequence[QAItem], classes: int | None = None) -> float | None:
    """The expected accuracy of a uniform guess: over the offered choices (one, or a non-empty
    set of them), over the values every answer of the type is one of (true, false), else over
    the ``classes`` answers the family takes when they are integers; None for free-form
    answers (numbers, text, lists)."""
    if not items:
        return None
    spec = answer_spec(items[0].answer_type)
    offered = all(item.choices for item in items)
    if spec.choices == "one" and offered:
        return sum(1 / len(item.choices or [1]) for item in items) / len(items)
    if spec.choices == "any" and offered:
        return sum(1 / (2.0 ** len(item.choices or []) - 1) for item in items) / len(items)
    if spec.fixed_choices:
        return 1 / len(spec.fixed_choices)
    if spec.integers and classes:
        return 1 / classes
    return None


def correct(item: QAItem, value: Any) -> bool:
    """Whether a blind answer value scores correct by the item's metric (None: wrong)."""
    if value is None:
        return False
    try:
        return bool(score_value(item.metric, value, item.answer, item.axis_span).correct)
    except (TypeError, ValueError):
        return False


def balanced_accuracy(items: Sequence[QAItem], right: Sequence[bool]) -> float | None:
    """Mean over true answer classes of the share answered correctly."""
    hits: dict[str, list[bool]] = defaultdict(list)
    for item, ok in zip(items, right, strict=True):
        hits[answer_class(item)].append(ok)
    if not hits:
        return None
    return sum(sum(v) / len(v) for v in hits.values()) / len(hits)


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 6) + 0.0


def compare_family(
    items: Sequence[QAItem],
    model_right: Sequence[bool],
    predictions: Predictions,
    classes: int | None,
) -> dict[str, Any]:
    """One family's row: model, best blind baseline, chance, lift and the marks."""
    n = len(items)
    accuracy = sum(model_right) / n
    # a baseline with nothing to say (a family absent from train) answers wrong
    blind: dict[str, list[bool]] = {
        name: [correct(item, values.get(item.qid)) for item in items]
        for name, values in predictions.items()
    }
    best = max(blind, key=lambda name: sum(blind[name]), default=None)  # ties: first named
    blind_accuracy = sum(blind[best]) / n if best else None
    family = items[0].family
    entry: dict[str, Any] = {
        "n": n,
        "accuracy": _round(accuracy),
        "best_blind": best,
        "blind_accuracy": _round(blind_accuracy),
        "blind_correct": sum(blind[best]) if best else 0,
        "chance": _round(chance_accuracy(items, classes)),
        "lift": _round(None if blind_accuracy is None else accuracy - blind_accuracy),
        "near_blind": blind_accuracy is not None and accuracy - blind_accuracy < NEAR,
        "too_few": n < TOO_FEW,
        "fixed_by_paper": FIXED_BY_PAPER.get(family),
    }
    if family in FIXED_BY_PAPER:
        entry["balanced_accuracy"] = _round(balanced_accuracy(items, model_right))
        entry["blind_balanced_accuracy"] = _round(
            balanced_accuracy(items, blind[best]) if best else None
        )
    return entry


def blind_comparison(
    dataset_items: Sequence[QAItem], answered: Sequence[tuple[QAItem, bool]]
) -> dict[str, Any]:
    """The blind section of one model's metrics: per family and a headline.

    ``answered`` pairs each question the model was asked with whether it scored correct
    (a rejected or missing reply is wrong, as in the headline accuracy).
    """
    predictions = unseen_predictions(dataset_items, [item for item, _ in answered])
    return compare_with(dataset_items, answered, predictions)


def compare_with(
    dataset_items: Sequence[QAItem],
    answered: Sequence[tuple[QAItem, bool]],
    predictions: Predictions,
) -> dict[str, Any]:
    """:func:`blind_comparison` with the blind predictions given."""
    classes: dict[str, set[str]] = defaultdict(set)
    for item in dataset_items:
        classes[item.family].add(answer_class(item))
    groups: dict[str, list[tuple[QAItem, bool]]] = defaultdict(list)
    for item, ok in answered:
        groups[item.family].append((item, ok))
    by_family = {
        family: compare_family(
            [i for i, _ in group], [ok for _, ok in group], predictions, len(classes[family])
        )
        for family, group in sorted(groups.items())
    }
    n = len(answered)
    accuracy = sum(ok for _, ok in answered) / n if n else None
    blind = sum(e["blind_correct"] for e in by_family.values()) / n if n else None
    return {
        "accuracy": _round(accuracy),
        "blind_accuracy": _round(blind),
        "lift": _round(None if accuracy is None or blind is None else accuracy - blind),
        "near_blind": sorted(f for f, e in by_family.items() if e["near_blind"]),
        "too_few": sorted(f for f, e in by_family.items() if e["too_few"]),
        "by_family": by_family,
    }
