"""Ask multimodal models figgen questions, parse their answers, score them and track cost.

:func:`run_eval` and :func:`score_answers` (``figgen eval run`` and ``figgen eval score`` as
functions) load on first use; the scoring names below are imported with the package.
"""

from typing import TYPE_CHECKING

from figgen._util.lazy import lazy_exports
from figgen.eval.cost.prices import ModelPrice, PriceTable, load_prices
from figgen.eval.cost.usage import Usage
from figgen.eval.scoring.metrics import (
    align_lists,
    cer,
    cer_list,
    containment_region,
    exact_match,
    exact_set_match,
    normalize_text,
    relaxed_match,
    ssmape,
)
from figgen.eval.scoring.parse import ParsedAnswer, parse_reply
from figgen.eval.scoring.scoring import Score, score_answer

if TYPE_CHECKING:
    from figgen.eval.api import run_eval, score_answers

__getattr__ = lazy_exports(
    __name__, {"run_eval": "figgen.eval.api", "score_answers": "figgen.eval.api"}
)

__all__ = [
    "ModelPrice",
    "ParsedAnswer",
    "PriceTable",
    "Score",
    "Usage",
    "align_lists",
    "cer",
    "cer_list",
    "containment_region",
    "exact_match",
    "exact_set_match",
    "load_prices",
    "normalize_text",
    "parse_reply",
    "relaxed_match",
    "run_eval",
    "score_answer",
    "score_answers",
    "ssmape",
]
