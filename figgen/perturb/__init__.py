"""Perturbed copies of a dataset (noise, blur, JPEG, rescale, text, affine, style) with boxes
moved along (or measured anew)."""

from figgen.perturb.dataset import (
    PerturbationSpec,
    apply_plan,
    parse_kinds,
    perturb_dataset,
    perturbed_record,
    plan_figure,
)
from figgen.perturb.geometry import Warp
from figgen.perturb.kinds import KINDS, Plan

__all__ = [
    "KINDS",
    "PerturbationSpec",
    "Plan",
    "Warp",
    "apply_plan",
    "parse_kinds",
    "perturb_dataset",
    "perturbed_record",
    "plan_figure",
]
