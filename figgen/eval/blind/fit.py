"""Fit blind baselines only on figures they are not asked about: the export's train split, and
folds grouped by figure where an asked figure is itself in train."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from figgen.eval.blind.models import BASELINES, BaselineName, fit_baselines
from figgen.schema.qa_item import QAItem
from figgen.schema.splits import SplitFractions, assign_splits

FOLDS = 5

Predictions = dict[BaselineName, dict[str, Any]]
"""Each baseline's answer value per qid."""


def figure_splits(items: Sequence[QAItem]) -> dict[str, str]:
    """The split of each figure by the export's rule (default 80/10/10 fractions)."""
    figures = list(dict.fromkeys(item.figure_id for item in items))
    return dict(assign_splits(figures, SplitFractions()))


def figure_folds(figure_ids: Sequence[str], folds: int = FOLDS) -> dict[str, int]:
    """A fold per figure: figures in file order dealt round-robin, so folds differ by <= 1."""
    unique = list(dict.fromkeys(figure_ids))
    return {figure: index % folds for index, figure in enumerate(unique)}


def cross_fit(
    items: Sequence[QAItem],
    targets: Sequence[QAItem] | None = None,
    *,
    folds: int = FOLDS,
    names: Sequence[BaselineName] = BASELINES,
) -> Predictions:
    """Predict each target with baselines fitted on the other folds of ``items`` (grouped by
    figure); ``targets`` default to ``items``."""
    targets = list(items if targets is None else targets)
    fold_of = figure_folds([item.figure_id for item in items], folds)
    out: Predictions = {name: {} for name in names}
    for fold in sorted(set(fold_of.values())):
        asked = [t for t in targets if fold_of.get(t.figure_id) == fold]
        if not asked:
            continue
        models = fit_baselines((i for i in items if fold_of[i.figure_id] != fold), names)
        for name, model in models.items():
            out[name].update(zip((t.qid for t in asked), model.predict_all(asked), strict=True))
    return out


def unseen_predictions(
    items: Sequence[QAItem],
    targets: Sequence[QAItem],
    *,
    names: Sequence[BaselineName] = BASELINES,
) -> Predictions:
    """Blind answers to ``targets`` from baselines fitted on the train split of ``items``.

    Targets outside train are predicted by baselines fitted on all of train; targets in train
    by :func:`cross_fit` within train, so no figure is ever answered by a model that saw it.
    """
    split = figure_splits(items)
    train = [item for item in items if split[item.figure_id] == "train"]
    outside = [t for t in targets if split.get(t.figure_id) != "train"]
    inside = [t for t in targets if split.get(t.figure_id) == "train"]
    out: Predictions = {name: {} for name in names}
    if outside:
        for name, model in fit_baselines(train, names).items():
            out[name].update(zip((t.qid for t in outside), model.predict_all(outside), strict=True))
    if inside:
        for name, values in cross_fit(train, inside, names=names).items():
            out[name].update(values)
    return out
