"""Ask one prompt with retries: backoff on rate limits and server errors, smaller images on a
context overflow.

Retries (tenacity, exponential backoff with jitter) happen here and only here; providers
classify errors.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable, Sequence

from figgen.eval.providers.base import Provider
from figgen.eval.providers.exchange import AskConfig, Prompt, Reply
from figgen.eval.providers.image import FigureImage
from figgen.eval.run.run_options import RetryPolicy

logger = logging.getLogger(__name__)

__all__ = ["CallTimeout", "Shrink", "ask_with_retries"]


class CallTimeout(Exception):
    """A call took longer than ``RetryPolicy.call_timeout``; retried like a dropped line."""


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
