"""Ask the questions through a vendor's batch API: submit, poll, collect, resume.

The requests are the ones a live call sends (the same builders), and each result becomes
its row through :func:`figgen.eval.run.billing.reply_row`, priced at the batch prices, so a
batch run is parsed and scored exactly as a live one. The journal beside the answers file
(``figgen.eval.batch.journal``) lets a killed run pick up its batches instead of sending
them again; questions a batch left unanswered (expired, cancelled) are submitted again, and
only those.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from figgen._util.redact import redact
from figgen.errors import FiggenError
from figgen.eval.batch.journal import BatchJournal, Submission
from figgen.eval.cost.caching import CacheSplit, grouped_by_figure
from figgen.eval.cost.prices import ModelPrice
from figgen.eval.grounding.grounding import PromptMode
from figgen.eval.providers.base import Provider
from figgen.eval.providers.batch_api import BatchBackend, BatchResult, entry_bytes
from figgen.eval.providers.exchange import AskConfig
from figgen.eval.run.billing import SentImage, billed_usage, reply_row
from figgen.eval.run.dataset import EvalDataset
from figgen.eval.run.estimate import Estimate, estimate_run
from figgen.eval.run.prepare import ImagePreparer
from figgen.eval.run.prompt import build_prompt
from figgen.eval.run.run_options import QUESTIONS, AskTask, RunOptions
from figgen.eval.run.runner import RunSummary
from figgen.eval.scoring.parse import ParsedAnswer
from figgen.schema.answers import AnswerRow, AnswerWriter, answered_qids, read_answers
from figgen.schema.qa_item import QAItem

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class BatchPolicy:
    """How often to poll, and how many times to submit what an expired batch left."""

    poll_initial: float = 30.0
    poll_max: float = 600.0
    poll_factor: float = 1.5
    rounds: int = 2


@dataclass
class _Run:
    """What the steps of one batch run share."""

    dataset: EvalDataset
    backend: BatchBackend
    provider: Provider
    model: str
    price: ModelPrice | None
    config: AskConfig
    mode: PromptMode
    prompt_of: Callable[[QAItem], str]
    parse: Callable[[str, QAItem], ParsedAnswer]
    journal: BatchJournal
    writer: AnswerWriter
    summary: RunSummary
    announce: Callable[[str], None]
    done: set[str] = field(default_factory=set)
    committed: float = 0.0  # the estimated cost of what this invocation submitted

    def estimate(self, items: list[QAItem]) -> Estimate:
        return estimate_run(
            self.dataset,
            items,
            image_tokens=self.provider.image_tokens,
            price=self.price,
            mode=self.mode,
            prompt_of=self.prompt_of,
            cache=self.provider.prompt_cache,
            batch=True,
        )


async def run_batch(
    dataset: EvalDataset,
    items: list[QAItem],
    provider: Provider,
    backend: BatchBackend,
    options: RunOptions,
    *,
    policy: BatchPolicy | None = None,
    images: ImagePreparer | None = None,
    task: AskTask = QUESTIONS,
) -> RunSummary:
    """Ask every item not yet answered in ``options.out`` through ``backend``, resuming its
    batches (``options.concurrency``, ``policy`` and ``progress`` are the live runner's).

    ``--max-cost`` is checked against the estimate at batch prices before anything is
    submitted, and again before each batch.
    """
    policy = policy or BatchPolicy()
    images = images or ImagePreparer(dataset.image_source, provider.image_limits)
    model, mode, announce = options.model, options.mode, options.announce
    price = options.price()
    if price is not None and not price.has_batch:
        logger.warning("no batch price for %s: priced at list price; pass --prices FILE", model)
    done = answered_qids(read_answers(options.out), model, mode)
    journal = BatchJournal(options.out)
    run = _Run(
        dataset,
        backend,
        provider,
        model,
        price,
        options.config,
        mode,
        task.prompt_of,
        task.parse,
        journal,
        AnswerWriter.for_build(options.out, dataset.root),
        RunSummary(),
        announce,
        done,
    )
    try:
        waiting = await _recorded(run)
        waiting_qids = {qid for sub in waiting for qid in sub.qids}
        pending = grouped_by_figure(
            [item for item in items if item.qid not in done and item.qid not in waiting_qids]
        )
        run.summary.skipped = len(items) - len(pending)
        estimate = run.estimate(pending)
        run.summary.estimate = estimate
        announce(estimate.describe(model) + ", in batches")
        options.check_estimate(estimate)
        if waiting:
            announce(
                f"resuming {len(waiting)} batches submitted before ({len(waiting_qids)} questions)"
            )
        for round_ in range(policy.rounds):
            submitted = await _submit(run, pending, images, options.max_cost)
            missing = await _collect(run, [*waiting, *submitted], policy)
            waiting = []
            by_qid = {item.qid: item for item in dataset.items}
            pending = [by_qid[qid] for qid in missing if qid in by_qid]
            if not pending or run.summary.stopped_for_budget:
                break
            if round_ + 1 < policy.rounds:
                announce(f"{len(pending)} questions got no result; submitting them again")
        if pending:
            announce(
                f"{len(pending)} questions still have no result (batches expired or were "
                "cancelled); run again to submit them, or drop --batch to ask them live"
            )
    finally:
        run.writer.close()
        await backend.aclose()
        await provider.aclose()
    return run.summary


async def _recorded(run: _Run) -> list[Submission]:
    """The journal's batches still to collect; one whose id was never recorded is looked up
    at the vendor by its token (found: kept; not found: its questions are asked again)."""
    waiting = []
    for sub in run.journal.read().values():
        if sub.closed:
            continue
        if sub.batch_id is None:
            found = await run.backend.find(sub.token, len(sub.qids), sub.at)
            if found is None:
                run.journal.abandoned(sub.token)
                continue
            run.journal.submitted(sub.token, found)
            sub.batch_id = found
            run.announce(f"found batch {found}, submitted by a run stopped before it was recorded")
        waiting.append(sub)
    return waiting


async def _submit(
    run: _Run, items: list[QAItem], images: ImagePreparer, max_cost: float | None
) -> list[Submission]:
    """Build the requests in chunks the vendor accepts and submit each, journalled."""
    estimate = run.estimate(items)
    submitted: list[Submission] = []
    chunk: list[QAItem] = []
    requests: list[dict[str, Any]] = []
    sent: dict[str, list[Any]] = {}
    token = secrets.token_hex(6)
    size = 0

    async def flush() -> bool:
        nonlocal chunk, requests, sent, token, size
        if not chunk:
            return True
        cost = sum(estimate.per_question_usd.get(item.qid, 0.0) for item in chunk)
        if max_cost is not None and run.committed + cost > max_cost:
            run.summary.stopped_for_budget = True
            run.announce(
                f"not submitting {len(chunk)} more questions: with them the estimate would pass "
                f"--max-cost ${max_cost:.4f}"
            )
            return False
        sub = Submission(token, [item.qid for item in chunk], sent, time.time())
        run.journal.submitting(sub)
        try:
            sub.batch_id = await run.backend.submit(requests, token)
        except FiggenError:
            raise
        except Exception as exc:
            raise FiggenError(
                f"submitting a {run.backend.name} batch failed "
                f"({redact(f'{type(exc).__name__}: {exc}')[:200]}); run again to resume"
            ) from None
        run.journal.submitted(token, sub.batch_id)
        run.announce(f"submitted batch {sub.batch_id}: {len(chunk)} questions")
        run.committed += cost
        run.summary.asked += len(chunk)
        submitted.append(sub)
        chunk, requests, sent, token, size = [], [], {}, secrets.token_hex(6), 0
        return True

    for item in items:
        record = run.dataset.record(item.figure_id) if run.mode != "plain" else None
        first, *more = [await images.image(key) for key in run.dataset.image_keys(item.figure_id)]
        prompt = build_prompt(
            item, first, mode=run.mode, record=record, more=tuple(more), text=run.prompt_of(item)
        )
        entry = run.backend.request(f"{token}-{len(chunk)}", prompt, run.config)
        n_bytes = len(entry_bytes(entry))
        if chunk and (
            size + n_bytes > run.backend.max_bytes or len(chunk) >= run.backend.max_requests
        ):
            if not await flush():
                return submitted
            entry = run.backend.request(f"{token}-0", prompt, run.config)
        chunk.append(item)
        requests.append(entry)
        sent[item.qid] = [first.scale, first.width, first.height, first.media_type]
        size += n_bytes
    await flush()
    return submitted


async def _collect(run: _Run, subs: list[Submission], policy: BatchPolicy) -> list[str]:
    """Poll the batches with backoff until each has ended; write its rows as it does.

    Returns the questions that got no result.
    """
    missing: list[str] = []
    remaining = list(subs)
    wait = policy.poll_initial
    while remaining:
        for sub in list(remaining):
            assert sub.batch_id is not None
            status = await run.backend.status(sub.batch_id)
            if not status.done:
                continue
            results = await run.backend.results(sub.batch_id)
            missing += _write(run, sub, {result.key: result for result in results})
            run.journal.collected(sub.token)
            remaining.remove(sub)
            run.announce(f"batch {sub.batch_id} {status.state}: results collected")
        if remaining:
            logger.info("%d batches still running; next check in %.0f s", len(remaining), wait)
            await asyncio.sleep(wait)
            wait = min(policy.poll_max, wait * policy.poll_factor)
    return missing


def _write(run: _Run, sub: Submission, results: dict[str, BatchResult]) -> list[str]:
    """Append the rows of one batch's results; return the questions without a result."""
    items = {item.qid: item for item in run.dataset.items}
    asked = [items[qid] for qid in sub.qids if qid in items]
    estimate = run.estimate(asked)
    missing = []
    for index, qid in enumerate(sub.qids):
        item = items.get(qid)
        if item is None or qid in run.done:  # collected before a kill, or another dataset
            continue
        result = results.get(sub.key(index))
        if result is None or result.outcome == "missing":
            missing.append(qid)
            continue
        if result.outcome == "error" or result.reply is None:
            run.summary.errors += 1
            run.writer.write(
                AnswerRow(
                    qid,
                    run.model,
                    None,
                    error=f"batch: {result.error}",
                    prompt=run.mode,
                    batch=True,
                )
            )
            continue
        usage = billed_usage(
            result.reply,
            run.price,
            estimate.per_question_tokens[qid],
            estimate.per_question_cache.get(qid, CacheSplit()),
            batch=True,
        )
        scale, width, height, media_type = sub.images.get(qid, [1.0, 0, 0, None])
        row, parsed = reply_row(
            item,
            result.reply,
            model=run.model,
            usage=usage,
            parse=run.parse,
            image=SentImage(float(scale), (int(width), int(height)), str(media_type)),
            mode=run.mode,
            latency_s=None,
            attempts=1,
            batch=True,
        )
        run.writer.write(row)
        run.done.add(qid)
        run.summary.answered += 1
        run.summary.rejected += int(parsed.rejected)
        run.summary.usage += usage
    return missing
