"""The evidence of multi-chart questions (``set_evidence.json``), which the evaluation reads."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from figgen.schema.elements import BBox, as_bbox


@dataclass
class SetEvidenceEntry:
    """One question's evidence: the (set, mode) it is asked of and its (image index, box)
    pairs, the index counting the images in the order they are sent."""

    figure: str
    boxes: list[tuple[int, BBox]]


@dataclass
class SetEvidence:
    """Every (set, mode)'s image sizes and every multi-chart question's evidence, by qid."""

    sizes: dict[str, list[tuple[int, int]]]
    evidence: dict[str, SetEvidenceEntry]

    @classmethod
    def from_dict(cls, stored: dict[str, Any]) -> SetEvidence:
        sizes = {figure: [(w, h) for w, h in shown] for figure, shown in stored["sizes"].items()}
        evidence = {
            qid: SetEvidenceEntry(entry["figure"], [(i, as_bbox(b)) for i, *b in entry["boxes"]])
            for qid, entry in stored["evidence"].items()
        }
        return cls(sizes, evidence)

    def to_dict(self) -> dict[str, Any]:
        sizes = {figure: [[w, h] for w, h in shown] for figure, shown in self.sizes.items()}
        evidence = {
            qid: {"figure": entry.figure, "boxes": [[i, *box] for i, box in entry.boxes]}
            for qid, entry in self.evidence.items()
        }
        return {"sizes": sizes, "evidence": evidence}
