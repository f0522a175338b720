"""Ask a provider every selected question, one independent call each, and append the answers.

Retries and the shrinking of images too long for the context are
:func:`figgen.eval.run.retry.ask_with_retries`'s. The budget check runs
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
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from figgen._util.redact import redact
from figgen.errors import FiggenError
from figgen.eval.cost.caching import CacheWarmer, grouped_by_figure
from figgen.eval.cost.prices import ModelPrice
from figgen.eval.cost.usage import Usage
from figgen.eval.providers.base import Provider
from figgen.eval.providers.exchange import Prompt, Reply
from figgen.eval.run.billing import CUT_MARK, SentImage, billed_usage, reply_row
from figgen.eval.run.dataset import EvalDataset
from figgen.eval.run.estimate import Estimate, estimate_run
from figgen.eval.run.prepare import ImagePreparer
from figgen.eval.run.prompt import build_prompt
from figgen.eval.run.retry import CallTimeout, ask_with_retries
from figgen.eval.run.run_options import QUESTIONS, AskTask, RetryPolicy, RunOptions
from figgen.schema.answers import AnswerRow, AnswerWriter, answered_qids, read_answers
from figgen.schema.qa_item import QAItem
from figgen.schema.record import Record

logger = logging.getLogger(__name__)

__all__ = [
    "CUT_MARK",
    "QUESTIONS",
    "AskTask",
    "CallTimeout",
    "RetryPolicy",
    "RunOptions",
    "RunSummary",
    "ask_with_retries",
    "run_questions",
]


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


async def _prefetch(images: ImagePreparer, keys: list[str]) -> object:
    """Prepare a figure's images ahead of its questions; a failure shows when they ask."""
    try:
        return [await images.image(key) for key in keys]
    except Exception:  # noqa: BLE001  (reported when the figure's questions run)
        return None


def _pending(
    dataset: EvalDataset,
    items: list[QAItem],
    provider: Provider,
    options: RunOptions,
    images: ImagePreparer,
) -> list[QAItem]:
    """The items not yet answered in ``options.out``; the image scales that fitted in its
    earlier runs are remembered."""
    previous = read_answers(options.out)
    done = answered_qids(previous, options.model, options.mode)
    figure_of = {item.qid: item.figure_id for item in dataset.items}
    for row in previous:
        if row.get("error") is None and row["qid"] in figure_of:
            figure = figure_of[row["qid"]]
            for key in {figure, *dataset.image_keys(figure)}:
                images.remember(key, float(row.get("image_scale") or 1.0))
    pending = [item for item in items if item.qid not in done]
    if provider.prompt_cache:  # a figure's questions together, while its image is cached
        pending = grouped_by_figure(pending)
    return pending


async def run_questions(
    dataset: EvalDataset,
    items: list[QAItem],
    provider: Provider,
    options: RunOptions,
    *,
    images: ImagePreparer | None = None,
    task: AskTask = QUESTIONS,
) -> RunSummary:
    """Ask every item not yet answered in ``options.out``; append one row per question as it
    finishes.

    ``images`` prepares the figures (by default PNG within the provider's ``image_limits``);
    the scales that fitted in an earlier run of the same answers file are remembered.
    ``task`` lets another task, such as the density benchmark's table extraction, run
    through the same loop.
    """
    options.check_concurrency()
    if images is None:
        images = ImagePreparer(
            dataset.image_source, provider.image_limits, min_side=options.policy.min_image_side
        )
    pending = _pending(dataset, items, provider, options, images)
    summary = RunSummary(skipped=len(items) - len(pending))
    price = options.price()
    estimate = estimate_run(
        dataset,
        pending,
        image_tokens=provider.image_tokens,
        price=price,
        mode=options.mode,
        prompt_of=task.prompt_of,
        output_tokens_of=task.output_tokens_of,
        cache=provider.prompt_cache,
    )
    summary.estimate = estimate
    options.announce(estimate.describe(options.model))
    options.check_estimate(estimate)
    if not pending:
        return summary

    from tqdm.auto import tqdm

    run = _LiveRun(
        dataset,
        provider,
        options,
        task,
        images,
        price,
        estimate,
        summary,
        AnswerWriter.for_build(options.out, dataset.root),
        tqdm(total=len(pending), unit="q", disable=not options.progress, desc=options.model),
        asyncio.Semaphore(options.concurrency),
        CacheWarmer(provider.prompt_cache),
    )
    try:
        results = await run.dispatch(pending)
    finally:
        run.bar.close()
        run.writer.close()
        await provider.aclose()
    run.raise_failures(results)
    return summary


@dataclass
class _LiveRun:
    """What the questions of one live run share while they are in flight."""

    dataset: EvalDataset
    provider: Provider
    options: RunOptions
    task: AskTask
    images: ImagePreparer
    price: ModelPrice | None
    estimate: Estimate
    summary: RunSummary
    writer: AnswerWriter
    bar: Any  # a tqdm bar (imported when a run starts: tqdm is slow to import)
    slots: asyncio.Semaphore
    warmer: CacheWarmer
    ledger: _Ledger = field(default_factory=_Ledger)

    async def dispatch(self, pending: list[QAItem]) -> list[object]:
        """Start a task per question while the budget and the server allow; their outcomes."""
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
                        keys = self.dataset.image_keys(following)
                        ahead.append(asyncio.create_task(_prefetch(self.images, keys)))
                await self._first_bill(tasks)
                await self.slots.acquire()
                reservation = self._reserve(item, tasks)
                if reservation is None:
                    break
                tasks.append(asyncio.create_task(self.ask_one(item, reservation)))
            return await asyncio.gather(*tasks, return_exceptions=True)
        finally:
            for task in ahead:
                task.cancel()
            await asyncio.gather(*ahead, return_exceptions=True)

    async def _first_bill(self, tasks: list[asyncio.Task[None]]) -> None:
        """Under a budget, wait until a reply has come back (or nothing is running)."""
        # one question first: until a bill shows how far the estimates are off, more in
        # flight could each cost more than reserved and pass --max-cost together
        while self.options.max_cost is not None and not self.ledger.calibrated:
            running = [task for task in tasks if not task.done()]
            if not running:
                break
            await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)

    def _reserve(self, item: QAItem, tasks: list[asyncio.Task[None]]) -> float | None:
        """The estimate reserved for ``item`` (a slot held), or None: stop, slot released."""
        ledger, summary, max_cost = self.ledger, self.summary, self.options.max_cost
        if ledger.failing >= self.options.policy.max_failures_in_a_row or any(
            task.done() and task.exception() for task in tasks
        ):
            self.slots.release()
            return None
        reservation = self.estimate.per_question_usd.get(item.qid, 0.0)
        next_cost = max(reservation, ledger.dearest)
        projected = summary.usage.cost_usd + ledger.committed() + next_cost
        if max_cost is not None and projected > max_cost:
            self.slots.release()
            summary.stopped_for_budget = True
            self.options.announce(
                f"stopping before --max-cost ${max_cost:.4f}: spent "
                f"${summary.usage.cost_usd:.4f}, the next question may cost ${next_cost:.4f}"
            )
            return None
        ledger.in_flight[item.qid] = reservation
        summary.asked += 1
        return reservation

    async def ask_one(self, item: QAItem, reservation: float) -> None:
        """Ask one question and write its row, answered or failed."""
        try:
            record = self.dataset.record(item.figure_id) if self.options.mode != "plain" else None
            started = time.monotonic()
            try:
                reply, sent, calls, latency = await self._ask(item, record)
            except FiggenError:
                raise
            except Exception as exc:
                self._failed(item, exc, started)
                return
            self._answered(item, reply, sent, calls, latency, reservation)
        finally:
            self.ledger.in_flight.pop(item.qid, None)
            self.slots.release()
            self.bar.update(1)
            self.bar.set_postfix_str(f"${self.summary.usage.cost_usd:.4f}")

    async def _ask(self, item: QAItem, record: Record | None) -> tuple[Reply, Prompt, int, float]:
        """Prepare the item's images, build its prompt and ask, shrinking what is too long."""
        prepared = self.images
        # a multi-chart question sends several images, each prepared under its own key
        keys = self.dataset.image_keys(item.figure_id)
        async with self.warmer.turn(item.figure_id), prepared.turn(item.figure_id):
            first, *more = [await prepared.image(key) for key in keys]
            shrinks = [functools.partial(prepared.smaller, key) for key in keys]
            prompt = build_prompt(
                item,
                first,
                mode=self.options.mode,
                record=record,
                more=tuple(more),
                text=self.task.prompt_of(item),
                set_target=self.dataset.set_targets.get(item.qid),
            )
            asked = await ask_with_retries(
                self.provider,
                prompt,
                self.options.config,
                self.options.policy,
                shrinks[0],
                shrinks[1:],
            )
            sent = asked[1]
            for key, fitted in zip(keys, sent.images, strict=True):
                prepared.remember(key, fitted.scale)
            prepared.remember(item.figure_id, sent.image.scale)
        return asked

    def _failed(self, item: QAItem, exc: Exception, started: float) -> None:
        """Count a question that failed and write its error row (a fatal error stops all)."""
        if self.provider.is_fatal(exc):
            raise _FatalError(redact(str(exc))) from None
        summary, ledger = self.summary, self.ledger
        summary.errors += 1
        ledger.failing = ledger.failing + 1 if self.provider.is_retryable(exc) else 0
        ledger.last_error = redact(f"{type(exc).__name__}: {exc}")
        if summary.first_error is None:
            cause = exc.__cause__ or exc.__context__
            why = f" ({type(cause).__name__}: {cause})" if cause else ""
            summary.first_error = redact(f"{ledger.last_error}{why}")
        logger.warning("%s failed: %s", item.qid, ledger.last_error)
        latency_s = time.monotonic() - started
        self.writer.write(
            AnswerRow(
                item.qid,
                self.options.model,
                None,
                error=ledger.last_error,
                latency_s=latency_s,
                prompt=self.options.mode,
            )
        )

    def _answered(
        self,
        item: QAItem,
        reply: Reply,
        sent: Prompt,
        calls: int,
        latency: float,
        reservation: float,
    ) -> None:
        """Bill and parse a reply, write its row and learn from its cost."""
        if not reply.usage_reported:
            logger.warning("%s: the reply reports no usage; billing the estimate", item.qid)
        usage = billed_usage(
            reply,
            self.price,
            self.estimate.per_question_tokens[item.qid],
            self.estimate.per_question_cache[item.qid],
        )
        cost = usage.cost_usd
        row, parsed = reply_row(
            item,
            reply,
            model=self.options.model,
            usage=usage,
            parse=self.task.parse,
            image=SentImage.of(sent.image),
            mode=self.options.mode,
            latency_s=latency,
            attempts=calls,
        )
        self.writer.write(row)
        summary, ledger = self.summary, self.ledger
        summary.answered += 1
        summary.rejected += int(parsed.rejected)
        summary.usage += usage
        ledger.dearest = max(ledger.dearest, cost)
        if reservation > 0:
            ledger.ratio = max(ledger.ratio, cost / reservation)
        ledger.calibrated = True
        ledger.failing = 0

    def raise_failures(self, results: list[object]) -> None:
        """Turn a refused key, a task's crash or a run of failures into the run's error."""
        for result in results:
            if isinstance(result, _FatalError):
                raise FiggenError(
                    f"{self.options.model} refused the request ({result}); check the API key"
                )
            if isinstance(result, BaseException):
                raise result
        ledger = self.ledger
        if ledger.failing >= self.options.policy.max_failures_in_a_row:
            raise FiggenError(
                f"{ledger.failing} questions in a row failed "
                f"(last: {_one_line(ledger.last_error)}); check --base-url, the model name and "
                "the service, then run again to resume"
            )
