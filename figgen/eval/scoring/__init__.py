"""Reading replies and scoring them: the reply parser, the metric functions, the metric
registry (:data:`METRICS`), scores, agreement between people and each metric's plot.

``score_answer`` is importable from here as it was before this package held modules: the
``utils.py`` that every lmms-eval export copies imports it from ``figgen.eval.scoring``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen._util.lazy import lazy_exports

if TYPE_CHECKING:
    from figgen.eval.scoring.scoring import METRICS, score_answer

__getattr__ = lazy_exports(
    __name__,
    {"METRICS": "figgen.eval.scoring.scoring", "score_answer": "figgen.eval.scoring.scoring"},
)

__all__ = ["METRICS", "score_answer"]
