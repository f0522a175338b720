"""Ask multimodal models figgen questions, parse their answers, score them and track cost."""

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
    "score_answer",
    "ssmape",
]
