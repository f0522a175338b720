"""Ask a provider every selected question, one independent call each, and append the answers.

Retries (tenacity, exponential backoff with jitter) happen here and only here; providers
classify errors. A context overflow halves the image and asks again. The budget check runs
before each question is sent: it counts what was spent, each question in flight at the
worst bill-to-estimate ratio seen so far (and at least the costliest answer so far), and
the next question at the larger of its estimate and the costliest answer so far; under a
budget the first question goes alone, to learn that ratio. So a run stops before
``max_cost`` would be exceeded.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from figgen.errors import FiggenError
from figgen.eval.answers import AnswerRow, AnswerWriter, answered_qids, read_answers
from figgen.eval.billing import CUT_MARK, SentImage, billed_usage, reply_row
from figgen.eval.caching import CacheWarmer, grouped_by_figure
from figgen.eval.dataset import EvalDataset
from figgen.eval.estimate import Estimate, estimate_run
from figgen.eval.grounding import PromptMode
from figgen.eval.image import FigureImage
from figgen.eval.parse import ParsedAnswer, parse_reply
from figgen.eval.prepare import ImagePreparer
from figgen.eval.prices import ModelPrice, PriceTable
from figgen.eval.prompt import build_prompt, prompt_text
from figgen.eval.providers.base import AskConfig, Prompt, Provider, Reply
from figgen.eval.usage import Usage
from figgen.secrets import redact
from figgen.vqa.item import QAItem

logger = logging.getLogger(__name__)

__all__ = ["CUT_MARK", "RetryPolicy", "RunSummary", "ask_with_retries", "run_questions"]


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


class CallTimeout(Exception):
    """A call took longer than ``RetryPolicy.call_timeout``; retried like a dropped line."""


@dataclass
class RunSummary:
    """What a run did: questions sent, replies, usage, and why it stopped early if it did."""

    skipped: int = 0
    asked: int = 0
    answered: int = 0
    rejected: int = 0
    errors: int = 0
    first_error: str | None = None
    """The first failed question's error (class and message), for the closing lines."""
    usage: Usage = field(default_factory=Usage)
    stopped_for_budget: bool = False
    estimate: Estimate | None = None

    def report_lines(self, model: str, out: str | Path, *, rejected: str = "rejected") -> list[str]:
        """What the CLI says when a run ends; ``rejected`` names the unreadable replies."""
        lines = [
            f"{model}: asked {self.asked} (skipped {self.skipped} already answered), "
            f"answered {self.answered}, {rejected} {self.rejected}, errors {self.errors}, "
            f"{self.usage.input_tokens:,} in / {self.usage.output_tokens:,} out tokens, "
            f"${self.usage.cost_usd:.4f} -> {out}"
        ]
        if self.first_error is not None:
            lines.append(f"first error: {self.first_error}")
        if self.stopped_for_budget:
            lines.append("stopped early to stay within --max-cost; run again with a higher limit")
        return lines


class _FatalError(Exception):
    pass


@dataclass
class _Ledger:
    """Running state shared by the dispatcher and the questions in flight."""

    in_flight: dict[str, float] = field(default_factory=dict)  # qid -> its estimated cost
    dearest: float = 0.0  # the costliest answer so far
    ratio: float = 1.0  # the largest bill / estimate seen
    calibrated: bool = False  # a reply has shown how bills compare with the estimates

    def committed(self) -> float:
        """What the questions in flight may still cost: each at the worst ratio seen, and at
        least the costliest answer so far."""
        return sum(max(cost * self.ratio, self.dearest) for cost in self.in_flight.values())

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
    shrink_more: Sequence[Shrink] | None = None,
) -> tuple[Reply, Prompt, int, float]:
    """The reply, the prompt whose images fit, the number of calls made, and the last call's
    latency.

    A prompt refused as too long is sent again with every image smaller (``shrink`` for the
    first, ``shrink_more`` for the others, halving by default). The latency is timed around
    the provider call alone: preparing images, waiting for a slot and backing off are not in it.
    """
    if shrink_more is None:
        shrink_more = [_halve] * len(prompt.more_images)
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
                    lambda exc: (
                        isinstance(exc, CallTimeout)
                        or (isinstance(exc, Exception) and provider.is_retryable(exc))
                    )
                ),
                reraise=True,
            ):
                with attempt:
                    calls += 1
                    started = time.monotonic()
                    try:
                        reply = await asyncio.wait_for(
                            provider.ask(prompt, config), policy.call_timeout
                        )
                    except TimeoutError as exc:  # ours, or a client's own (aiohttp's)
                        limit = policy.call_timeout
                        raise CallTimeout(
                            f"no complete reply within {limit:g} s" if limit else str(exc)
                        ) from None
                    return reply, prompt, calls, time.monotonic() - started
        except Exception as exc:
            image = prompt.image
            if not provider.is_context_overflow(exc):
                raise
            smaller = (
                await shrink(image)
                if min(image.width, image.height) >= 2 * policy.min_image_side
                else None
            )
            more = []
            for extra, shrink_extra in zip(prompt.more_images, shrink_more, strict=True):
                if smaller is None:
                    break
                more.append(await shrink_extra(extra))
            if smaller is None or any(m is None for m in more):
                raise
            logger.info(
                "%s: too long at %dx%d px; trying %dx%d",
                prompt.item.qid,
                image.width,
                image.height,
                smaller.width,
                smaller.height,
            )
            prompt = prompt.with_images(smaller, tuple(m for m in more if m))
    raise AssertionError("unreachable")  # pragma: no cover


async def _prefetch(images: ImagePreparer, keys: list[str]) -> object:
    """Prepare a figure's images ahead of its questions; a failure shows when they ask."""
    try:
        return [await images.image(key) for key in keys]
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
    mode: PromptMode = "plain",
    prompt_of: Callable[[QAItem], str] = prompt_text,
    parse: Callable[[str, QAItem], ParsedAnswer] = parse_reply,
    output_tokens_of: Callable[[QAItem], int] | None = None,
) -> RunSummary:
    """Ask every item not yet answered in ``out``; append one row per question as it finishes.

    ``model`` is the ``PROVIDER:MODEL`` string stored in each row and priced by ``prices``;
    ``free`` marks providers that cost nothing (offline ones). ``images`` prepares the
    figures (by default PNG within the provider's ``image_limits``); the scales that fitted
    in an earlier run of the same answers file are remembered. ``mode`` asks for the answer
    alone (``plain``) or with the boxes (``grounded``) or points (``pointed``) of its evidence.
    ``prompt_of``, ``parse`` and ``output_tokens_of`` (the reply length the estimate assumes)
    let another task, such as the density benchmark's table extraction, run through the same
    loop.
    """
    config = config or AskConfig()
    policy = policy or RetryPolicy()
    if concurrency < 1:
        raise FiggenError("--concurrency must be at least 1")
    if images is None:
        images = ImagePreparer(
            dataset.image_source, provider.image_limits, min_side=policy.min_image_side
        )
    previous = read_answers(out)
    done = answered_qids(previous, model, mode)
    figure_of = {item.qid: item.figure_id for item in dataset.items}
    for row in previous:
        if row.get("error") is None and row["qid"] in figure_of:
            figure = figure_of[row["qid"]]
            for key in {figure, *dataset.image_keys(figure)}:
                images.remember(key, float(row.get("image_scale") or 1.0))
    pending = [item for item in items if item.qid not in done]
    if provider.prompt_cache:  # a figure's questions together, while its image is cached
        pending = grouped_by_figure(pending)
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
        mode=mode,
        prompt_of=prompt_of,
        output_tokens_of=output_tokens_of,
        cache=provider.prompt_cache,
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

    writer = AnswerWriter.for_build(out, dataset.root)
    bar = tqdm(total=len(pending), unit="q", disable=not progress, desc=model)
    slots = asyncio.Semaphore(concurrency)
    ledger = _Ledger()
    prepared = images
    warmer = CacheWarmer(provider.prompt_cache)

    async def ask_one(item: QAItem, reservation: float) -> None:
        try:
            record = dataset.record(item.figure_id) if mode != "plain" else None
            started = time.monotonic()
            try:
                # a multi-chart question sends several images, each prepared under its own key
                keys = dataset.image_keys(item.figure_id)
                async with warmer.turn(item.figure_id), prepared.turn(item.figure_id):
                    first, *more = [await prepared.image(key) for key in keys]
                    shrinks = [functools.partial(prepared.smaller, key) for key in keys]
                    prompt = build_prompt(
                        item,
                        first,
                        mode=mode,
                        record=record,
                        more=tuple(more),
                        text=prompt_of(item),
                        set_target=dataset.set_targets.get(item.qid),
                    )
                    reply, sent, calls, latency = await ask_with_retries(
                        provider,
                        prompt,
                        config,
                        policy,
                        shrinks[0],
                        shrinks[1:],
                    )
                    for key, fitted in zip(keys, sent.images, strict=True):
                        prepared.remember(key, fitted.scale)
                    prepared.remember(item.figure_id, sent.image.scale)
                image = sent.image
            except FiggenError:
                raise
            except Exception as exc:
                if provider.is_fatal(exc):
                    raise _FatalError(redact(str(exc))) from None
                summary.errors += 1
                ledger.failing = ledger.failing + 1 if provider.is_retryable(exc) else 0
                ledger.last_error = redact(f"{type(exc).__name__}: {exc}")
                if summary.first_error is None:
                    cause = exc.__cause__ or exc.__context__
                    why = f" ({type(cause).__name__}: {cause})" if cause else ""
                    summary.first_error = redact(f"{ledger.last_error}{why}")
                logger.warning("%s failed: %s", item.qid, ledger.last_error)
                latency_s = time.monotonic() - started
                writer.write(
                    AnswerRow(
                        item.qid,
                        model,
                        None,
                        error=ledger.last_error,
                        latency_s=latency_s,
                        prompt=mode,
                    )
                )
                return
            if not reply.usage_reported:
                logger.warning("%s: the reply reports no usage; billing the estimate", item.qid)
            usage = billed_usage(
                reply,
                price,
                estimate.per_question_tokens[item.qid],
                estimate.per_question_cache[item.qid],
            )
            cost = usage.cost_usd
            row, parsed = reply_row(
                item,
                reply,
                model=model,
                usage=usage,
                parse=parse,
                image=SentImage.of(image),
                mode=mode,
                latency_s=latency,
                attempts=calls,
            )
            writer.write(row)
            summary.answered += 1
            summary.rejected += int(parsed.rejected)
            summary.usage += usage
            ledger.dearest = max(ledger.dearest, cost)
            if reservation > 0:
                ledger.ratio = max(ledger.ratio, cost / reservation)
            ledger.calibrated = True
            ledger.failing = 0
        finally:
            ledger.in_flight.pop(item.qid, None)
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
                    keys = dataset.image_keys(following)
                    ahead.append(asyncio.create_task(_prefetch(prepared, keys)))
            # one question first: until a bill shows how far the estimates are off, more in
            # flight could each cost more than reserved and pass --max-cost together
            while max_cost is not None and not ledger.calibrated:
                running = [task for task in tasks if not task.done()]
                if not running:
                    break
                await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            await slots.acquire()
            if ledger.failing >= policy.max_failures_in_a_row or any(
                task.done() and task.exception() for task in tasks
            ):
                slots.release()
                break
            reservation = estimate.per_question_usd.get(item.qid, 0.0)
            next_cost = max(reservation, ledger.dearest)
            projected = summary.usage.cost_usd + ledger.committed() + next_cost
            if max_cost is not None and projected > max_cost:
                slots.release()
                summary.stopped_for_budget = True
                announce(
                    f"stopping before --max-cost ${max_cost:.4f}: spent "
                    f"${summary.usage.cost_usd:.4f}, the next question may cost ${next_cost:.4f}"
                )
                break
            ledger.in_flight[item.qid] = reservation
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
