"""Ask a provider every selected question, one independent call each, and append the answers.

Retries (tenacity, exponential backoff with jitter) happen here and only here; providers
classify errors. A context overflow halves the image and asks again. The budget check runs
before each question is sent, reserving the larger of its estimate and the costliest
answer so far, so a run stops before ``max_cost`` would be exceeded.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from figgen.errors import FiggenError
from figgen.eval.answers import AnswerRow, AnswerWriter, answered_qids, read_answers, redact
from figgen.eval.dataset import EvalDataset
from figgen.eval.estimate import Estimate, estimate_run
from figgen.eval.image import FigureImage
from figgen.eval.parse import ParsedAnswer, parse_reply
from figgen.eval.prepare import ImagePreparer
from figgen.eval.prices import ModelPrice, PriceTable
from figgen.eval.prompt import prompt_text
from figgen.eval.providers.base import AskConfig, Prompt, Provider, Reply
from figgen.eval.usage import Usage
from figgen.vqa.item import QAItem

logger = logging.getLogger(__name__)


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


@dataclass
class RunSummary:
    """What a run did: questions sent, replies, usage, and why it stopped early if it did."""

    skipped: int = 0
    asked: int = 0
    answered: int = 0
    rejected: int = 0
    errors: int = 0
    usage: Usage = field(default_factory=Usage)
    stopped_for_budget: bool = False
    estimate: Estimate | None = None


class _FatalError(Exception):
    pass


@dataclass
class _Ledger:
    """Running state shared by the dispatcher and the questions in flight."""

    reserved: float = 0.0  # estimated cost of questions in flight
    dearest: float = 0.0  # the costliest answer so far
    failing: int = 0  # questions failed in a row
    last_error: str = ""


def _one_line(text: str, limit: int = 200) -> str:
    return " ".join(text.split())[:limit]


Shrink = Callable[[FigureImage], Awaitable[FigureImage | None]]
"""Given an image refused as too long, a smaller one to try (None: give up)."""


async def _halve(image: FigureImage) -> FigureImage | None:
    return await asyncio.to_thread(image.scaled, 0.5)


async def ask_with_retries(
    provider: Provider,
    prompt: Prompt,
    config: AskConfig,
    policy: RetryPolicy,
    shrink: Shrink = _halve,
) -> tuple[Reply, FigureImage, int, float]:
    """The reply, the image that fit, the number of calls made, and the last call's latency.

    The latency is timed around the provider call alone: preparing images, waiting for a
    slot and backing off are not in it.
    """
    from tenacity import (
        AsyncRetrying,
        RetryCallState,
        retry_if_exception,
        stop_after_attempt,
        wait_exponential_jitter,
    )

    backoff = wait_exponential_jitter(policy.initial_wait, policy.max_wait, 2, policy.jitter)

    def wait(state: RetryCallState) -> float:
        # honour the server's Retry-After when it asks for longer than our backoff
        error = state.outcome.exception() if state.outcome else None
        hinted = provider.retry_after(error) if isinstance(error, Exception) else None
        return min(policy.max_wait, max(backoff(state), hinted or 0.0))

    calls = 0
    while True:
        try:
            async for attempt in AsyncRetrying(
                stop=stop_after_attempt(policy.attempts),
                wait=wait,
                retry=retry_if_exception(
                    lambda exc: isinstance(exc, Exception) and provider.is_retryable(exc)
                ),
                reraise=True,
            ):
                with attempt:
                    calls += 1
                    started = time.monotonic()
                    reply = await provider.ask(prompt, config)
                    return reply, prompt.image, calls, time.monotonic() - started
        except Exception as exc:
            image = prompt.image
            if not provider.is_context_overflow(exc):
                raise
            smaller = (
                await shrink(image)
                if min(image.width, image.height) >= 2 * policy.min_image_side
                else None
            )
            if smaller is None:
                raise
            logger.info(
                "%s: too long at %dx%d px; trying %dx%d",
                prompt.item.qid,
                image.width,
                image.height,
                smaller.width,
                smaller.height,
            )
            prompt = Prompt(prompt.text, smaller, prompt.item)
    raise AssertionError("unreachable")  # pragma: no cover


async def _prefetch(images: ImagePreparer, figure_id: str) -> object:
    """Prepare a figure's image ahead of its questions; a failure shows when they ask."""
    try:
        return await images.image(figure_id)
    except Exception:  # noqa: BLE001  (reported when the figure's questions run)
        return None


async def run_questions(
    dataset: EvalDataset,
    items: list[QAItem],
    provider: Provider,
    *,
    model: str,
    out: str | Path,
    prices: PriceTable,
    config: AskConfig | None = None,
    concurrency: int = 4,
    max_cost: float | None = None,
    policy: RetryPolicy | None = None,
    progress: bool = True,
    announce: Callable[[str], None] = logger.info,
    free: bool = False,
    images: ImagePreparer | None = None,
    prompt_of: Callable[[QAItem], str] = prompt_text,
    parse: Callable[[str, QAItem], ParsedAnswer] = parse_reply,
    output_tokens_of: Callable[[QAItem], int] | None = None,
) -> RunSummary:
    """Ask every item not yet answered in ``out``; append one row per question as it finishes.

    ``model`` is the ``PROVIDER:MODEL`` string stored in each row and priced by ``prices``;
    ``free`` marks providers that cost nothing (offline ones). ``images`` prepares the
    figures (by default PNG within the provider's ``image_limits``); the scales that fitted
    in an earlier run of the same answers file are remembered. ``prompt_of``, ``parse`` and
    ``output_tokens_of`` (the reply length the estimate assumes) let another task, such as
    the density benchmark's table extraction, run through the same loop.
    """
    config = config or AskConfig()
    policy = policy or RetryPolicy()
    if concurrency < 1:
        raise FiggenError("--concurrency must be at least 1")
    if images is None:
        images = ImagePreparer(
            dataset.image_path, provider.image_limits, min_side=policy.min_image_side
        )
    previous = read_answers(out)
    done = answered_qids(previous, model)
    figure_of = {item.qid: item.figure_id for item in dataset.items}
    for row in previous:
        if row.get("error") is None and row["qid"] in figure_of:
            images.remember(figure_of[row["qid"]], float(row.get("image_scale") or 1.0))
    pending = [item for item in items if item.qid not in done]
    summary = RunSummary(skipped=len(items) - len(pending))
    price = ModelPrice(0.0, 0.0) if free else prices.lookup(model)
    if price is None:
        if max_cost is not None:
            raise FiggenError(
                f"no price for {model}, so --max-cost cannot be enforced; "
                f'add [models."{model.split(":", 1)[-1]}"] to a --prices FILE'
            )
        logger.warning("no price for %s: costs are recorded as 0; pass --prices FILE", model)
    estimate = estimate_run(
        dataset,
        pending,
        image_rule=provider.image_rule,
        price=price,
        prompt_of=prompt_of,
        output_tokens_of=output_tokens_of,
    )
    summary.estimate = estimate
    announce(estimate.describe(model))
    if max_cost is not None and estimate.cost_usd is not None and estimate.cost_usd > max_cost:
        raise FiggenError(
            f"the estimated cost ${estimate.cost_usd:.4f} exceeds --max-cost ${max_cost:.4f}; "
            "raise --max-cost or ask fewer questions (--limit, --levels, --families)"
        )
    if not pending:
        return summary

    from tqdm.auto import tqdm

    writer = AnswerWriter(out)
    bar = tqdm(total=len(pending), unit="q", disable=not progress, desc=model)
    slots = asyncio.Semaphore(concurrency)
    ledger = _Ledger()
    prepared = images

    async def ask_one(item: QAItem, reservation: float) -> None:
        try:
            started = time.monotonic()
            try:
                async with prepared.turn(item.figure_id):
                    prompt = Prompt(prompt_of(item), await prepared.image(item.figure_id), item)
                    reply, image, calls, latency = await ask_with_retries(
                        provider,
                        prompt,
                        config,
                        policy,
                        functools.partial(prepared.smaller, item.figure_id),
                    )
                    prepared.remember(item.figure_id, image.scale)
            except FiggenError:
                raise
            except Exception as exc:
                if provider.is_fatal(exc):
                    raise _FatalError(redact(str(exc))) from None
                summary.errors += 1
                ledger.failing = ledger.failing + 1 if provider.is_retryable(exc) else 0
                ledger.last_error = redact(f"{type(exc).__name__}: {exc}")
                logger.warning("%s failed: %s", item.qid, ledger.last_error)
                latency_s = time.monotonic() - started
                writer.write(
                    AnswerRow(item.qid, model, None, error=ledger.last_error, latency_s=latency_s)
                )
                return
            cost = 0.0 if price is None else price.cost(reply.input_tokens, reply.output_tokens)
            parsed = parse(reply.text, item)
            row = AnswerRow(
                qid=item.qid,
                model=model,
                raw=reply.text,
                parsed=parsed.value,
                rejected=parsed.rejected,
                reason=parsed.reason,
                usage={"input_tokens": reply.input_tokens, "output_tokens": reply.output_tokens},
                cost_usd=cost,
                image_scale=image.scale,
                image_size=[image.width, image.height],
                image_media_type=image.media_type,
                latency_s=round(latency, 4),
                attempts=calls,
            )
            writer.write(row)
            summary.answered += 1
            summary.rejected += int(parsed.rejected)
            summary.usage += Usage(reply.input_tokens, reply.output_tokens, cost)
            ledger.dearest = max(ledger.dearest, cost)
            ledger.failing = 0
        finally:
            ledger.reserved -= reservation
            slots.release()
            bar.update(1)
            bar.set_postfix_str(f"${summary.usage.cost_usd:.4f}")

    tasks: list[asyncio.Task[None]] = []
    # while one figure's questions are asked, the next figure's image is prepared
    upcoming = iter(dict.fromkeys(item.figure_id for item in pending))
    next(upcoming, None)
    ahead: list[asyncio.Task[object]] = []
    current_figure = None
    try:
        for item in pending:
            if item.figure_id != current_figure:
                current_figure = item.figure_id
                following = next(upcoming, None)
                if following is not None:
                    ahead.append(asyncio.create_task(_prefetch(prepared, following)))
            await slots.acquire()
            if ledger.failing >= policy.max_failures_in_a_row or any(
                task.done() and task.exception() for task in tasks
            ):
                slots.release()
                break
            reservation = max(estimate.per_question_usd.get(item.qid, 0.0), ledger.dearest)
            projected = summary.usage.cost_usd + ledger.reserved + reservation
            if max_cost is not None and projected > max_cost:
                slots.release()
                summary.stopped_for_budget = True
                announce(
                    f"stopping before --max-cost ${max_cost:.4f}: spent "
                    f"${summary.usage.cost_usd:.4f}, the next question may cost ${reservation:.4f}"
                )
                break
            ledger.reserved += reservation
            summary.asked += 1
            tasks.append(asyncio.create_task(ask_one(item, reservation)))
        results = await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        for task in ahead:
            task.cancel()
        await asyncio.gather(*ahead, return_exceptions=True)
        bar.close()
        writer.close()
        await provider.aclose()
    for result in results:
        if isinstance(result, _FatalError):
            raise FiggenError(f"{model} refused the request ({result}); check the API key")
        if isinstance(result, BaseException):
            raise result
    if ledger.failing >= policy.max_failures_in_a_row:
        raise FiggenError(
            f"{ledger.failing} questions in a row failed "
            f"(last: {_one_line(ledger.last_error)}); check --base-url, the model name and the "
            "service, then run again to resume"
        )
    return summary
