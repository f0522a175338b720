"""What the shared model options resolve to: the provider to build and the run's options.

``figgen eval run``, ``figgen density run`` and ``figgen multichart converse`` take the same
options (:mod:`figgen.eval.cli_options` declares them once for the command line);
:func:`model_setup` turns their values into a :class:`ModelSetup`, so the commands and
:func:`figgen.run_eval` cannot drift apart in how they build providers, retries and prices.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figgen.errors import FiggenError
from figgen.eval.cost.prices import load_prices
from figgen.eval.providers import AskConfig, Provider, make_provider, parse_option, split_model
from figgen.eval.run.run_options import RetryPolicy, RunOptions
from figgen.eval.run.runner import RunSummary

logger = logging.getLogger(__name__)

OFFLINE_PROVIDERS = ("mock", "oracle", "chance", "blind")
MOCK_NEEDS_SCRIPT = (
    "the mock provider replies only from a script: pass --option script=FILE.json "
    "(a list of replies, or an object keyed by qid); for offline answers without one use "
    "--model oracle (the true answers) or --model chance (guesses)"
)


@dataclass
class ModelSetup:
    """What the shared options resolve to, before any provider is built."""

    provider_name: str
    base_url: str | None
    options: RunOptions
    factory_args: dict[str, Any]

    @property
    def model(self) -> str:
        """The ``PROVIDER:MODEL`` string."""
        return self.options.model

    @property
    def offline(self) -> bool:
        """Offline providers cost nothing and need no server."""
        return self.provider_name in OFFLINE_PROVIDERS

    def provider(self) -> Provider:
        """Build the provider (inside the event loop: SDK clients bind to it)."""
        return make_provider(self.model, base_url=self.base_url, **self.factory_args)

    def run(self, go: Callable[[], Coroutine[Any, Any, RunSummary]]) -> RunSummary:
        """Run ``go`` (a run started in a fresh event loop) and return its summary."""
        return asyncio.run(go())


def _log(text: str) -> None:
    logger.info("%s", text)


def model_setup(
    model: str,
    out: str | Path,
    *,
    base_url: str | None = None,
    concurrency: int = 4,
    max_cost: float | None = None,
    prices: str | Path | None = None,
    options: Sequence[str] | dict[str, Any] = (),
    retries: int = 6,
    retry_wait: float = 1.0,
    timeout: float = 600.0,
    progress: bool = True,
    cache: bool | None = None,
    announce: Callable[[str], None] = _log,
) -> ModelSetup:
    """Resolve the shared options: ``options`` are ``key=value`` texts (or a dict) passed to
    the model call; prices load and the retry policy is built here (errors in one line);
    ``announce`` receives what the run reports (the estimate, a budget stop)."""
    call = dict(options) if isinstance(options, dict) else dict(map(parse_option, options))
    provider_name, _ = split_model(model)
    factory_args: dict[str, Any] = {}
    if provider_name == "mock" and "script" not in call:
        raise FiggenError(MOCK_NEEDS_SCRIPT)
    if provider_name == "mock":
        factory_args["script"] = str(call.pop("script"))
    if provider_name not in OFFLINE_PROVIDERS:
        factory_args["timeout"] = timeout
        if cache is not None:
            factory_args["cache"] = cache
    policy = RetryPolicy(
        attempts=retries,
        initial_wait=retry_wait,
        max_wait=max(retry_wait, 60.0),
        jitter=retry_wait,
        call_timeout=timeout,
    )
    run_options = RunOptions(
        model,
        out,
        prices=load_prices(prices),
        config=AskConfig(call),
        policy=policy,
        concurrency=concurrency,
        max_cost=max_cost,
        progress=progress,
        announce=announce,
        free=provider_name in OFFLINE_PROVIDERS,
    )
    return ModelSetup(provider_name, base_url, run_options, factory_args)


__all__ = ["MOCK_NEEDS_SCRIPT", "OFFLINE_PROVIDERS", "ModelSetup", "model_setup"]
