"""Level 3 verdicts a kind finds in a panel: each is asked as a question and stated in prose."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from figgen.schema.panel import PanelRecord
from figgen.vqa.api.families import Family

if TYPE_CHECKING:
    from figgen.vqa.api.context import FigureContext


@dataclass(frozen=True)
class Finding:
    """One verdict: the family that asks it, its answer and the description's sentence."""

    family: Family
    answer: Any
    sentence: str
    choices: list[str] | None = None


def ask_findings(
    ctx: FigureContext, panel: PanelRecord, findings: list[Finding], evidence: list[int]
) -> None:
    """Ask every finding about ``panel``, in order."""
    for found in findings:
        ctx.ask(found.family, panel, found.answer, choices=found.choices, evidence=evidence)
