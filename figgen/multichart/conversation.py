"""Conversation mode: every question of a set and mode asked in one conversation.

The paper's protocol (appendix H): the images of the set are given once, with the retrieval
prompt (reconstruct all the data shown); the model's reconstruction stays in the
conversation, and the questions follow one by one, each in the per-question format with an
initial and a final answer, each reply kept before the next question. Vendor APIs are
stateless, so every call sends the conversation so far; the images travel in its first
message only.

Rows go to the answers file as in ``figgen eval run`` (``prompt`` is ``conversation``), plus
one row per conversation for the reconstruction (qid ``<set>-<mode>-retrieval``), so its
tokens are counted and a killed run resumes the same conversation: the replies already
written are its history. Conversations run in parallel; the questions of one never do.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from dataclasses import dataclass, field
from typing import Any

from figgen._util.redact import redact
from figgen.errors import FiggenError
from figgen.eval.cost.usage import Usage
from figgen.eval.providers.base import Provider
from figgen.eval.providers.exchange import Prompt, Turn
from figgen.eval.run.dataset import EvalDataset
from figgen.eval.run.estimate import estimate_run
from figgen.eval.run.prepare import ImagePreparer
from figgen.eval.run.retry import ask_with_retries
from figgen.eval.run.run_options import RunOptions
from figgen.eval.run.runner import RunSummary
from figgen.eval.scoring.parse import parse_reply
from figgen.multichart.prompt import PREAMBLE
from figgen.schema.answers import AnswerRow, AnswerWriter, answered_qids, read_answers
from figgen.schema.qa_item import QAItem

logger = logging.getLogger(__name__)

CONVERSATION = "conversation"
"""The ``prompt`` of the rows a conversation writes (an answers file holds one kind)."""
RETRIEVAL_SUFFIX = "-retrieval"
RETRIEVAL_PROMPT = (
    "Please carefully examine the images provided above. They contain charts, tables, or data "
    "visualizations. Your first task is to reconstruct ALL the underlying data shown in these "
    "images as completely and accurately as possible. For each chart or visualization, "
    "extract:\n- The chart title\n- All axis labels, categories, and legends\n- All numerical "
    "values with their corresponding row/column/category labels\nPresent the reconstructed "
    "data in a clear structured format (JSON or markdown table). This reconstruction will be "
    "used to answer subsequent questions."
)


def question_turn(item: QAItem) -> str:
    """The per-question prompt of the paper: the question without the one-call preamble."""
    return item.question.removeprefix(PREAMBLE).lstrip()


def retrieval_item(figure_id: str) -> QAItem:
    """The opening turn as an item (what offline providers and the answers file key on)."""
    return QAItem(
        qid=f"{figure_id}{RETRIEVAL_SUFFIX}",
        figure_id=figure_id,
        level=1,
        scope="cross-panel",
        panel=None,
        location=None,
        family="multichart_retrieval",
        question=RETRIEVAL_PROMPT,
        answer="",
        answer_type="string",
        answer_key="reconstruction",
        metric="exact",
    )


@dataclass
class _Budget:
    """Spending shared by the conversations running at once."""

    max_cost: float | None
    spent: float = 0.0
    in_flight: dict[str, float] = field(default_factory=dict)
    dearest: float = 0.0
    failing: int = 0
    last_error: str = ""
    stopped: bool = False

    def allows(self, key: str, reservation: float) -> bool:
        """Reserve ``reservation`` for the next call unless it could pass ``max_cost``."""
        if self.max_cost is not None:
            committed = sum(self.in_flight.values())
            if self.spent + committed + max(reservation, self.dearest) > self.max_cost:
                self.stopped = True
                return False
        self.in_flight[key] = max(reservation, self.dearest)
        return True


async def run_conversations(
    dataset: EvalDataset,
    items: list[QAItem],
    provider: Provider,
    options: RunOptions,
    *,
    images: ImagePreparer | None = None,
) -> RunSummary:
    """Ask ``items`` set by set and mode by mode, each set-mode one conversation; append rows
    (``options.mode`` and ``options.progress`` do not apply: the rows are ``conversation``
    rows, and no bar is shown)."""
    model, config, policy = options.model, options.config, options.policy
    options.check_concurrency()
    images = images or ImagePreparer(
        dataset.image_source, provider.image_limits, min_side=policy.min_image_side
    )
    previous = read_answers(options.out)
    done = answered_qids(previous, model, CONVERSATION)
    replies = {row["qid"]: row["raw"] for row in previous if row.get("error") is None}
    by_figure: dict[str, list[QAItem]] = {}
    for item in items:
        by_figure.setdefault(item.figure_id, []).append(item)
    pending = [item for item in items if item.qid not in done]
    summary = RunSummary(skipped=len(items) - len(pending))
    price = options.price(warn=False)
    estimate = estimate_run(dataset, pending, image_tokens=provider.image_tokens, price=price)
    summary.estimate = estimate
    options.announce(
        estimate.describe(model) + " (one call each; a conversation resends its history)"
    )
    budget = _Budget(options.max_cost)
    writer = AnswerWriter.for_build(options.out, dataset.root)
    slots = asyncio.Semaphore(options.concurrency)

    async def call(item: QAItem, prompt: Prompt) -> str | None:
        """One turn: the reply's text, or None when it failed (an error row is written)."""
        started = time.monotonic()
        keys = dataset.image_keys(item.figure_id)
        try:
            shrinks = [functools.partial(images.smaller, key) for key in keys]
            reply, sent, calls, latency = await ask_with_retries(
                provider, prompt, config, policy, shrinks[0], shrinks[1:]
            )
            for key, fitted in zip(keys, sent.images, strict=True):
                images.remember(key, fitted.scale)
        except FiggenError:
            raise
        except Exception as exc:
            if provider.is_fatal(exc):
                raise FiggenError(f"{model} refused the request ({redact(str(exc))})") from None
            summary.errors += 1
            budget.failing = budget.failing + 1 if provider.is_retryable(exc) else 0
            budget.last_error = redact(f"{type(exc).__name__}: {exc}")
            logger.warning("%s failed: %s", item.qid, budget.last_error)
            writer.write(
                AnswerRow(
                    item.qid,
                    model,
                    None,
                    error=budget.last_error,
                    latency_s=time.monotonic() - started,
                    prompt=CONVERSATION,
                )
            )
            return None
        finally:
            budget.in_flight.pop(item.qid, None)
        tokens_in, tokens_out = reply.input_tokens, reply.output_tokens
        cost = 0.0 if price is None else price.cost(tokens_in, tokens_out)
        question = not item.qid.endswith(RETRIEVAL_SUFFIX)
        parsed = parse_reply(reply.text, item) if question else None
        writer.write(
            AnswerRow(
                qid=item.qid,
                model=model,
                raw=reply.text,
                parsed=None if parsed is None else parsed.value,
                rejected=bool(parsed and parsed.rejected),
                reason=None if parsed is None else parsed.reason,
                usage={"input_tokens": tokens_in, "output_tokens": tokens_out},
                usage_estimated=not reply.usage_reported,
                cost_usd=cost,
                image_scale=sent.image.scale,
                image_size=[sent.image.width, sent.image.height],
                image_media_type=sent.image.media_type,
                prompt=CONVERSATION,
                latency_s=round(latency, 4),
                attempts=calls,
            )
        )
        budget.spent += cost
        budget.dearest = max(budget.dearest, cost)
        budget.failing = 0
        summary.usage += Usage(tokens_in, tokens_out, cost)
        if question:
            summary.answered += 1
            summary.rejected += int(bool(parsed and parsed.rejected))
        return reply.text

    async def converse(figure: str, questions: list[QAItem]) -> None:
        opening = retrieval_item(figure)
        history: list[Turn] = []
        if opening.qid in replies:
            history.append(Turn(RETRIEVAL_PROMPT, replies[opening.qid]))
        history += [Turn(question_turn(q), replies[q.qid]) for q in questions if q.qid in done]
        todo = [q for q in questions if q.qid not in done]
        if not todo:
            return
        async with slots:
            keys = dataset.image_keys(figure)
            first, *more = [await images.image(key) for key in keys]
            turns = ([] if history else [opening]) + todo
            for item in turns:
                if budget.failing >= policy.max_failures_in_a_row:
                    return
                text = RETRIEVAL_PROMPT if item is opening else question_turn(item)
                reservation = estimate.per_question_usd.get(item.qid, 0.0)
                if not budget.allows(item.qid, reservation):
                    return
                if item is not opening:
                    summary.asked += 1
                prompt = Prompt(text, first, item, tuple(more), history=tuple(history))
                reply = await call(item, prompt)
                if reply is not None:
                    history.append(Turn(text, reply))

    try:
        await asyncio.gather(*(converse(f, qs) for f, qs in by_figure.items()))
    finally:
        writer.close()
        await provider.aclose()
    if budget.stopped:
        summary.stopped_for_budget = True
        options.announce(
            f"stopping before --max-cost ${options.max_cost:.4f}: spent ${budget.spent:.4f}"
        )
    if budget.failing >= policy.max_failures_in_a_row:
        raise FiggenError(
            f"{budget.failing} questions in a row failed (last: {budget.last_error[:200]}); "
            "check --base-url, the model name and the service, then run again to resume"
        )
    return summary


def retrieval_rows(rows: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """The reconstruction turn of each conversation, by figure id (set and mode)."""
    return {
        row["qid"].removesuffix(RETRIEVAL_SUFFIX): row
        for row in rows
        if str(row.get("qid", "")).endswith(RETRIEVAL_SUFFIX) and row.get("error") is None
    }
