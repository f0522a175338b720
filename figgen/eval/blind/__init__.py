"""Blind baselines: models that answer from the question alone, and a model's lift over them."""

from figgen.eval.blind.compare import NEAR, TOO_FEW, blind_comparison, chance_accuracy
from figgen.eval.blind.fit import cross_fit, figure_splits, unseen_predictions
from figgen.eval.blind.models import BASELINES, BlindBaseline, fit_baselines

__all__ = [
    "BASELINES",
    "NEAR",
    "TOO_FEW",
    "BlindBaseline",
    "blind_comparison",
    "chance_accuracy",
    "cross_fit",
    "figure_splits",
    "fit_baselines",
    "unseen_predictions",
]
