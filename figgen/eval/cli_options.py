"""The model options every asking command shares (``eval run``, ``density run``).

Each option is an ``Annotated`` alias so a command lists it in its signature as usual, and
:func:`model_setup` turns their values into what the runner needs, so the commands cannot
drift apart in how they build providers, retries and prices.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from figgen.errors import FiggenError

if TYPE_CHECKING:
    from figgen.eval.prices import PriceTable
    from figgen.eval.providers import AskConfig, Provider
    from figgen.eval.runner import RetryPolicy

OFFLINE_PROVIDERS = ("mock", "oracle", "chance", "blind")
MOCK_NEEDS_SCRIPT = (
    "the mock provider replies only from a script: pass --option script=FILE.json "
    "(a list of replies, or an object keyed by qid); for offline answers without one use "
    "--model oracle (the true answers) or --model chance (guesses)"
)

Model = Annotated[str, typer.Option(help="PROVIDER:MODEL, e.g. openai:gpt-5-mini, oracle.")]
AnswersOut = Annotated[
    Path, typer.Option("--out", help="Answers file (JSONL); an existing one is resumed.")
]
BaseUrl = Annotated[str | None, typer.Option(help="Server URL (openai-compatible).")]
Concurrency = Annotated[int, typer.Option(help="Calls in flight at once.")]
MaxCost = Annotated[float | None, typer.Option(help="Refuse or stop before spending more USD.")]
Prices = Annotated[Path | None, typer.Option(help="TOML price overrides.")]
CallOptions = Annotated[
    list[str] | None, typer.Option(help="key=value passed to the model call (repeatable).")
]
Retries = Annotated[int, typer.Option(help="Attempts per call on rate limits and 5xx.")]
RetryWait = Annotated[
    float, typer.Option(help="First backoff wait in seconds (doubles, with jitter).")
]
Timeout = Annotated[
    float, typer.Option(help="Seconds one call may take in all before it is retried.")
]
Progress = Annotated[bool, typer.Option(help="Show the progress bar.")]
Cache = Annotated[
    bool | None,
    typer.Option(
        "--cache/--no-cache",
        help="Prompt caching (default: on for OpenAI, Anthropic and Gemini, off on --base-url "
        "OpenAI-compatible servers).",
    ),
]


@dataclass
class ModelSetup:
    """What the shared options resolve to, before any provider is built."""

    model: str
    provider_name: str
    base_url: str | None
    config: AskConfig
    prices: PriceTable
    policy: RetryPolicy
    factory_args: dict[str, Any]

    @property
    def offline(self) -> bool:
        """Offline providers cost nothing and need no server."""
        return self.provider_name in OFFLINE_PROVIDERS

    def provider(self) -> Provider:
        """Build the provider (inside the event loop: SDK clients bind to it)."""
        from figgen.eval.providers import make_provider

        return make_provider(self.model, base_url=self.base_url, **self.factory_args)


def model_setup(
    model: str,
    *,
    base_url: str | None,
    option: list[str] | None,
    prices: Path | None,
    retries: int,
    retry_wait: float,
    timeout: float,
    cache: bool | None = None,
) -> ModelSetup:
    """Parse ``--option`` pairs, load prices and build the retry policy (errors in one line)."""
    from figgen.eval.prices import load_prices
    from figgen.eval.providers import AskConfig, parse_option, split_model
    from figgen.eval.runner import RetryPolicy

    options = dict(parse_option(text) for text in option or [])
    provider_name, _ = split_model(model)
    factory_args: dict[str, Any] = {}
    if provider_name == "mock" and "script" not in options:
        raise FiggenError(MOCK_NEEDS_SCRIPT)
    if provider_name == "mock":
        factory_args["script"] = str(options.pop("script"))
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
    return ModelSetup(
        model,
        provider_name,
        base_url,
        AskConfig(options),
        load_prices(prices),
        policy,
        factory_args,
    )
