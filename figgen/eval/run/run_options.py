"""What every run function takes besides its items and provider: one options value.

``figgen eval run``, ``figgen density run``, ``figgen multichart converse`` and the batch
runner build one :class:`RunOptions` from the shared command-line options
(:mod:`figgen.eval.cli_options`) and pass it on, so a new option is added once. The task a
run asks (its prompt, how its replies are read and how long they are expected to be) is an
:class:`AskTask`: the eval questions by default, the density tables for ``density run``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from figgen.errors import FiggenError
from figgen.eval.cost.prices import ModelPrice, PriceTable
from figgen.eval.grounding.grounding import PromptMode
from figgen.eval.providers.exchange import AskConfig
from figgen.eval.run.estimate import Estimate
from figgen.eval.run.prompt import prompt_text
from figgen.eval.scoring.parse import ParsedAnswer, parse_reply
from figgen.schema.qa_item import QAItem

logger = logging.getLogger(__name__)

__all__ = ["QUESTIONS", "AskTask", "RetryPolicy", "RunOptions"]


@dataclass(frozen=True)
class RetryPolicy:
    """Backoff for rate limits and server errors, and how far images may shrink."""

    attempts: int = 6
    initial_wait: float = 1.0
    max_wait: float = 60.0
    jitter: float = 1.0
    min_image_side: int = 32
    max_failures_in_a_row: int = 5
    """Questions that exhaust their retries one after another before the run gives up
    (a server that is down); questions refused outright (a 4xx) do not count."""
    call_timeout: float | None = None
    """Seconds one call may take in all; the SDKs' timeouts bound each network read, so a
    server trickling bytes could otherwise hold a question for ever."""


@dataclass(frozen=True)
class AskTask:
    """The prompt text of an item, how a reply to it is parsed, and the reply length the
    estimate assumes (None: the answer type's usual length)."""

    prompt_of: Callable[[QAItem], str] = prompt_text
    parse: Callable[[str, QAItem], ParsedAnswer] = parse_reply
    output_tokens_of: Callable[[QAItem], int] | None = None


QUESTIONS = AskTask()
"""The eval questions: figgen's prompt and answer parser."""


def _log(text: str) -> None:
    logger.info("%s", text)


@dataclass(frozen=True)
class RunOptions:
    """How a run asks and where its answers go.

    ``model`` is the ``PROVIDER:MODEL`` string stored in each row and priced by ``prices``;
    ``free`` marks providers that cost nothing (offline ones); ``mode`` asks for the answer
    alone (``plain``) or with the boxes (``grounded``) or points (``pointed``) of its
    evidence; ``announce`` receives the estimate and the budget stop.
    """

    model: str
    out: str | Path
    prices: PriceTable = field(default_factory=PriceTable)
    config: AskConfig = field(default_factory=AskConfig)
    policy: RetryPolicy = RetryPolicy()
    concurrency: int = 4
    max_cost: float | None = None
    progress: bool = True
    announce: Callable[[str], None] = _log
    free: bool = False
    mode: PromptMode = "plain"

    def check_concurrency(self) -> None:
        """Refuse a concurrency that would never send anything."""
        if self.concurrency < 1:
            raise FiggenError("--concurrency must be at least 1")

    def price(self, *, warn: bool = True) -> ModelPrice | None:
        """The model's price (zero when ``free``); None when unlisted, which ``max_cost``
        refuses, since the budget could not be enforced."""
        price = ModelPrice(0.0, 0.0) if self.free else self.prices.lookup(self.model)
        if price is None:
            if self.max_cost is not None:
                raise FiggenError(
                    f"no price for {self.model}, so --max-cost cannot be enforced; "
                    f'add [models."{self.model.split(":", 1)[-1]}"] to a --prices FILE'
                )
            if warn:
                logger.warning(
                    "no price for %s: costs are recorded as 0; pass --prices FILE", self.model
                )
        return price

    def check_estimate(self, estimate: Estimate) -> None:
        """Refuse a run whose estimate alone is over ``max_cost``."""
        cost, limit = estimate.cost_usd, self.max_cost
        if limit is not None and cost is not None and cost > limit:
            raise FiggenError(
                f"the estimated cost ${cost:.4f} exceeds --max-cost ${limit:.4f}; "
                "raise --max-cost or ask fewer questions (--limit, --levels, --families)"
            )
