"""A perturbed copy of a figure's record (``figgen perturb``): the record, then what was applied.

The copy's image facts and boxes are those of the perturbed image; ``perturbation`` says how
it was made from the clean one, stored last.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from figgen._util.plain import as_plain_dict, field_names
from figgen.schema.record import Record


@dataclass
class SourceImage:
    """The size of the clean image a perturbed copy was made from."""

    width: int
    height: int


@dataclass
class Perturbation:
    """What ``figgen perturb`` applied to one figure: its kind and label, the parameters with
    every value drawn, the seed, the 2x3 affine part of a warp (None: no warp)."""

    kind: str
    label: str
    params: dict[str, Any]
    seed: int
    matrix: list[list[float]] | None
    source_image: SourceImage

    @classmethod
    def from_dict(cls, stored: dict[str, Any]) -> Perturbation:
        return cls(**{**stored, "source_image": SourceImage(**stored["source_image"])})


@dataclass
class PerturbedRecord(Record):
    """A perturbed copy of a figure's record: the record's fields (image facts and boxes those
    of the perturbed image), then ``perturbation``, stored last."""

    perturbation: Perturbation

    @classmethod
    def of(cls, record: Record, perturbation: Perturbation, **changes: Any) -> PerturbedRecord:
        """``record`` with ``changes`` (e.g. ``elements=...``) and what was applied."""
        kept = {name: getattr(record, name) for name in field_names(Record)}
        return cls(**{**kept, **changes}, perturbation=perturbation)

    @classmethod
    def from_dict(cls, record: dict[str, Any]) -> PerturbedRecord:
        return cls.of(Record.from_dict(record), Perturbation.from_dict(record["perturbation"]))

    def to_dict(self) -> dict[str, Any]:
        return {**super().to_dict(), "perturbation": as_plain_dict(self.perturbation)}
