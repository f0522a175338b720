"""A reply turned into its answers-file row and its bill: one rule for every way of asking.

The synchronous runner and the batch runner both call :func:`reply_row`, so a reply is
parsed, cut and priced the same whichever way it came back.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from figgen.eval.cost.caching import CacheSplit
from figgen.eval.cost.prices import ModelPrice
from figgen.eval.cost.usage import Usage
from figgen.eval.providers.exchange import Reply
from figgen.eval.providers.image import FigureImage
from figgen.eval.scoring.parse import MAX_REPLY_CHARS, ParsedAnswer
from figgen.schema.answers import AnswerRow
from figgen.schema.qa_item import QAItem

logger = logging.getLogger(__name__)

USAGE_KEYS = ("input_tokens", "output_tokens", "cached_input_tokens", "cache_write_tokens")

CACHE_AND_BATCH_KEYS = (
    "cached_input_tokens",
    "cache_write_tokens",
    "batch_questions",
    "list_cost_usd",
    "saving_usd",
)
"""What metrics.json adds per model about caching and batches (see :func:`rows_cost`)."""

CUT_MARK = " [cut by figgen]"
"""Ends a stored reply that was longer than ``MAX_REPLY_CHARS`` (so scoring rejects it too)."""


@dataclass(frozen=True)
class SentImage:
    """What the row records of the image a reply answered: its scale, size and type."""

    scale: float
    size: tuple[int, int]
    media_type: str

    @classmethod
    def of(cls, image: FigureImage) -> SentImage:
        return cls(image.scale, (image.width, image.height), image.media_type)


def billed_usage(
    reply: Reply,
    price: ModelPrice | None,
    estimated: tuple[int, int],
    split: CacheSplit,
    *,
    batch: bool = False,
) -> Usage:
    """The tokens of each class the reply reports, priced; the estimate if it reports none."""
    if reply.usage_reported:
        tokens_in, tokens_out = reply.input_tokens, reply.output_tokens
        read, written = reply.cached_input_tokens, reply.cache_write_tokens
    else:  # bill the estimate, so --max-cost still holds
        (tokens_in, tokens_out), read, written = estimated, split.read, split.written
    cost = 0.0 if price is None else price.cost(tokens_in, tokens_out, read, written, batch=batch)
    return Usage(tokens_in, tokens_out, cost, read, written)


def usage_dict(usage: Usage) -> dict[str, int]:
    """The row's ``usage``: the cache classes appear only when the vendor reported some."""
    tokens = {"input_tokens": usage.input_tokens, "output_tokens": usage.output_tokens}
    if usage.cached_input_tokens:
        tokens["cached_input_tokens"] = usage.cached_input_tokens
    if usage.cache_write_tokens:
        tokens["cache_write_tokens"] = usage.cache_write_tokens
    return tokens


def reply_row(
    item: QAItem,
    reply: Reply,
    *,
    model: str,
    usage: Usage,
    parse: Callable[[str, QAItem], ParsedAnswer],
    image: SentImage,
    mode: str,
    latency_s: float | None,
    attempts: int,
    batch: bool = False,
) -> tuple[AnswerRow, ParsedAnswer]:
    """The answers-file row of a reply billed as ``usage``, and how its text parsed."""
    parsed = parse(reply.text, item)
    raw = reply.text
    if len(raw) > MAX_REPLY_CHARS:  # rejected unread; keep its start, marked as cut
        raw = raw[:MAX_REPLY_CHARS] + CUT_MARK
    row = AnswerRow(
        qid=item.qid,
        model=model,
        raw=raw,
        parsed=parsed.value,
        rejected=parsed.rejected,
        reason=parsed.reason,
        usage=usage_dict(usage),
        usage_estimated=not reply.usage_reported,
        cost_usd=usage.cost_usd,
        image_scale=image.scale,
        image_size=list(image.size),
        image_media_type=image.media_type,
        prompt=mode,
        latency_s=None if latency_s is None else round(latency_s, 4),
        attempts=attempts,
        batch=batch,
    )
    return row, parsed


def rows_cost(rows: list[dict[str, Any]], price: ModelPrice | None) -> dict[str, Any]:
    """Token classes summed over answers-file rows, and their cost row by row (a batch row at
    batch prices), beside what the same tokens cost at list price with no cache.

    Unpriced (``price`` None), each row's recorded ``cost_usd`` is kept and no saving shown.
    """
    totals = dict.fromkeys(USAGE_KEYS, 0)
    cost = list_cost = 0.0
    batch_questions = 0
    for row in rows:
        usage = row.get("usage") or {}
        tokens = [int(usage.get(key, 0) or 0) for key in USAGE_KEYS]
        for key, value in zip(USAGE_KEYS, tokens, strict=True):
            totals[key] += value
        batch = bool(row.get("batch"))
        batch_questions += batch
        if price is None:
            cost += float(row.get("cost_usd") or 0.0)
            continue
        tokens_in, tokens_out, read, written = tokens
        cost += price.cost(tokens_in, tokens_out, read, written, batch=batch)
        list_cost += price.cost(tokens_in, tokens_out)
    return {
        **totals,
        "batch_questions": batch_questions,
        "cost_usd": cost,
        "list_cost_usd": list_cost if price is not None else None,
        "saving_usd": list_cost - cost if price is not None else None,
    }
