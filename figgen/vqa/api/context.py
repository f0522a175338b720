"""What every question family needs about one figure, and the one place items are made."""

from __future__ import annotations

import logging
import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from figgen.config.sections.balance import KeepTable
from figgen.schema.answer_types import answer_instruction
from figgen.schema.elements import Element
from figgen.schema.metrics import tolerance
from figgen.schema.panel import PanelRecord
from figgen.schema.qa_item import QAItem
from figgen.schema.record import Record
from figgen.vqa.api.balance import keep_item, keep_table, stratum
from figgen.vqa.api.families import Family
from figgen.vqa.api.location import panel_location

log = logging.getLogger(__name__)

NEAR_ZERO_SHARE = 0.2
"""A truth must be this share of the axis span or more: a reading error of 1% of the span then
stays within the 0.05 |sSMAPE| that scores as correct."""
MIN_LOG_TICKS = 2
"""A value on a log axis is read between labelled ticks: with one label the decades cannot be
placed (10^3 alone does not say where 10^4 is)."""


@dataclass
class FigureContext:
    """One record, its panel locations, an element index, and the items made so far."""

    record: Record
    kinds: tuple[str, ...] = ()
    """The plot kinds the build could draw: what plot-type questions offer as choices
    (:func:`figgen.vqa.questions.offered.figure_context` fills them from the kind registry)."""
    keep: KeepTable | None = None
    """The build config's balance table (:class:`figgen.config.sections.balance.BalanceConfig`);
    None: the default's, the families' declared table."""
    items: list[QAItem] = field(default_factory=list)
    _counts: Counter[tuple[str, str]] = field(default_factory=Counter)
    _elements: dict[tuple[int | None, str], list[Element]] = field(
        default_factory=lambda: defaultdict(list)
    )
    _keep_table: KeepTable = field(init=False, repr=False)
    """``keep`` resolved once per figure (:func:`keep_table`)."""

    def __post_init__(self) -> None:
        self._keep_table = keep_table(self.keep)
        for element in self.record.elements:
            self._elements[(element.panel, element.kind)].append(element)

    @property
    def figure_id(self) -> str:
        return self.record.id

    @property
    def panels(self) -> list[PanelRecord]:
        return sorted(self.record.panels, key=lambda p: (p.row, p.col, p.index))

    @property
    def rows(self) -> int:
        return self.record.layout.rows

    @property
    def cols(self) -> int:
        return self.record.layout.cols

    def location(self, panel: PanelRecord) -> str:
        return panel_location(panel.row, panel.col, self.rows, self.cols)

    def panel_aspect(self, panel: PanelRecord) -> float:
        """Height / width of the panel's plot area in pixels (1.0 if it was not measured)."""
        boxes = self.elements(panel.index, "panel")
        if not boxes:
            return 1.0
        x0, y0, x1, y1 = boxes[0].bbox
        return (y1 - y0) / (x1 - x0) if x1 > x0 and y1 > y0 else 1.0

    def elements(self, panel: int | None, kind: str) -> list[Element]:
        return self._elements.get((panel, kind), [])

    def element_ids(self, panel: int | None, *kinds: str, series: int | None = None) -> list[int]:
        ids = []
        for kind in kinds:
            for element in self.elements(panel, kind):
                if series is None or element.series == series:
                    ids.append(element.id)
        return ids

    def log_axes_labelled(self, panel: PanelRecord) -> bool:
        """Whether every log axis of ``panel`` shows at least :data:`MIN_LOG_TICKS` labelled
        ticks in view (rule: one-tick log axes)."""
        for axis in ("x", "y"):
            if (panel.xscale if axis == "x" else panel.yscale) != "log":
                continue
            labels = {(e.text or "") for e in self.elements(panel.index, f"{axis}tick_label")}
            if len(labels - {""}) < MIN_LOG_TICKS:
                return False
        return True

    def ask(
        self,
        family: Family,
        panel: PanelRecord | None,
        answer: Any,
        *,
        choices: list[str] | None = None,
        evidence: list[int] | None = None,
        answer_key: str | None = None,
        span: float | None = None,
        scale: str = "linear",
        axis_span: float | None = None,
        balance_as: str | None = None,
        **words: str,
    ) -> None:
        """Append one item of a declared family; its qid counts items of that family and panel.

        The question is the family's, with ``{loc}`` (the panel's location) and ``words``
        filled in, capitalised, and followed by the answer instruction. An answer holding a
        non-finite number (NaN or infinity) is not askable and is dropped. A family scored
        relative to its truth (sSMAPE, relaxed 5%) must give the ``span`` of the values drawn
        along the answer's axis (and that axis' ``scale``): a truth near zero on it is dropped
        (:func:`away_from_zero`). A family scored against the axis span (``axis_2pct``) must
        give that ``axis_span``, positive, and its item carries it. A family balanced at the
        source keeps an item of a dominant answer only with its class's probability
        (:func:`keep_item`), looked up under the panel's kind, or ``balance_as`` where the words
        name another (a count of one kind's panels).
        """
        if not _finite(answer):
            log.debug("%s: dropped %s item with non-finite answer", self.figure_id, family.name)
            return
        tolerance_class = tolerance(family.metric)
        if tolerance_class == "relative":  # a share of the truth: meaningless near zero
            if span is None:
                raise ValueError(f"{family.name} is scored relative to its truth: give the span")
            if not away_from_zero(answer, span, scale):
                log.debug("%s: dropped %s item with near-zero truth", self.figure_id, family.name)
                return
            if scale == "log" and panel is not None and not self.log_axes_labelled(panel):
                log.debug("%s: dropped %s item on a one-tick log axis", self.figure_id, family.name)
                return
        if tolerance_class == "axis_span" and not (
            axis_span is not None and math.isfinite(axis_span) and axis_span > 0
        ):
            raise ValueError(f"{family.name} is scored against the axis span: give it (> 0)")
        key = answer_key or family.answer_key
        if family.scope == "figure":
            where = "fig"
        elif family.scope == "cross-panel":
            where = "cross"
        else:
            where = str(panel.index if panel else "fig")
        n = self._counts[(family.name, where)]
        kind = balance_as or stratum(panel.kind if panel is not None else None, words)
        slot = f"{where}-{key}-{n}"
        if not keep_item(self.record, family.name, answer, slot, kind, self._keep_table):
            log.debug("%s: %s item not kept (balance)", self.figure_id, family.name)
            return
        self._counts[(family.name, where)] += 1
        question = family.question.format(
            loc=self.location(panel) if panel is not None else "", **words
        )
        text = question[0].upper() + question[1:]
        self.items.append(
            QAItem(
                qid=f"{self.figure_id}-{family.name}-{where}-{n}",
                figure_id=self.figure_id,
                level=family.level,
                scope=family.scope,
                panel=panel.index if panel is not None else None,
                location=self.location(panel) if panel is not None else None,
                family=family.name,
                question=f"{text} {answer_instruction(key, family.answer_type, choices)}",
                answer=answer,
                answer_type=family.answer_type,
                answer_key=key,
                metric=family.metric,
                choices=list(choices) if choices else None,
                evidence=sorted(evidence or []),
                axis_span=axis_span,
            )
        )


def _finite(value: Any) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, list):
        return all(_finite(v) for v in value)
    return True


def away_from_zero(truth: Any, span: float, scale: str = "linear") -> bool:
    """Whether a relative metric can score ``truth`` on an axis whose values cover ``span``."""
    if scale == "log":
        return True  # a log axis shows relative size: sSMAPE measures the reading error
    values = truth if isinstance(truth, list) else [truth]
    return all(abs(float(v)) >= NEAR_ZERO_SHARE * abs(span) for v in values)
