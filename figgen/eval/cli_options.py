"""The model options every asking command shares (``eval run``, ``density run``,
``multichart converse``).

A command declares one parameter ``shared: ModelArgs`` and the :func:`model_options`
decorator puts the shared options in its place (so they are declared, documented and
defaulted once); :func:`model_setup` resolves their values with
:func:`figgen.eval.run.setup.model_setup`, which :func:`figgen.run_eval` calls too.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, fields
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

import typer

if TYPE_CHECKING:
    from figgen.eval.run.runner import RunSummary
    from figgen.eval.run.setup import ModelSetup

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
        help="Prompt caching, where the provider offers it (default: on, off on --base-url "
        "OpenAI-compatible servers).",
    ),
]


@dataclass(frozen=True)
class ModelArgs:
    """The shared options as given on the command line."""

    model: str
    out: Path
    base_url: str | None = None
    concurrency: int = 4
    max_cost: float | None = None
    prices: Path | None = None
    option: list[str] | None = None
    retries: int = 6
    retry_wait: float = 1.0
    timeout: float = 600.0
    progress: bool = True
    cache: bool | None = None

    def settings(self) -> dict[str, Any]:
        """The options other than the model and the answers file, as keyword arguments of
        :func:`figgen.eval.run.setup.model_setup` and :func:`figgen.run_eval`."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        del values["model"], values["out"]
        values["options"] = values.pop("option") or ()
        return values


_EMPTY = inspect.Parameter.empty
_DECLARED: dict[str, tuple[Any, Any]] = {  # name: (annotation, default), in --help order
    "model": (Model, _EMPTY),
    "out": (AnswersOut, _EMPTY),
    "base_url": (BaseUrl, None),
    "concurrency": (Concurrency, 4),
    "max_cost": (MaxCost, None),
    "prices": (Prices, None),
    "option": (CallOptions, None),
    "retries": (Retries, 6),
    "retry_wait": (RetryWait, 1.0),
    "timeout": (Timeout, 600.0),
    "progress": (Progress, True),
    "cache": (Cache, None),
}

Command = TypeVar("Command", bound=Callable[..., Any])


def model_options(
    *, progress: bool = True, concurrency_help: str | None = None
) -> Callable[[Command], Command]:
    """Put the shared options in place of a command's ``ModelArgs`` parameter.

    ``progress=False`` leaves out ``--progress`` (a command without a progress bar);
    ``concurrency_help`` says what runs at once when it is not one call.
    """
    declared = dict(_DECLARED)
    if not progress:
        del declared["progress"]
    if concurrency_help is not None:
        declared["concurrency"] = (
            Annotated[int, typer.Option(help=concurrency_help)],
            declared["concurrency"][1],
        )

    def decorate(command: Command) -> Command:
        signature = inspect.signature(command, eval_str=True)
        (slot,) = [p.name for p in signature.parameters.values() if p.annotation is ModelArgs]
        params: list[inspect.Parameter] = []
        for param in signature.parameters.values():
            if param.name != slot:
                params.append(param)
                continue
            params += [
                inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=d, annotation=a)
                for name, (a, d) in declared.items()
            ]

        @functools.wraps(command)
        def wrapper(**kwargs: Any) -> Any:
            shared = {name: kwargs.pop(name) for name in declared}
            return command(**kwargs, **{slot: ModelArgs(**shared)})

        # typer reads the signature and passes every value by keyword
        wrapper.__dict__["__signature__"] = signature.replace(
            parameters=[p.replace(kind=inspect.Parameter.KEYWORD_ONLY) for p in params]
        )
        wrapper.__annotations__ = {p.name: p.annotation for p in params}
        return cast(Command, wrapper)

    return decorate


def model_setup(args: ModelArgs) -> ModelSetup:
    """Resolve the options as given (:func:`figgen.eval.run.setup.model_setup`); what the run
    reports goes to the terminal."""
    from figgen.eval.run.setup import model_setup as resolve

    return resolve(args.model, args.out, **args.settings(), announce=typer.echo)


def run_and_report(
    setup: ModelSetup,
    go: Callable[[], Coroutine[Any, Any, RunSummary]],
    *,
    rejected: str = "rejected",
) -> None:
    """Run ``go`` and print its closing lines; ``rejected`` names the unreadable replies."""
    summary = setup.run(go)
    for line in summary.report_lines(setup.model, setup.options.out, rejected=rejected):
        typer.echo(line)


__all__ = ["ModelArgs", "model_options", "model_setup", "run_and_report"]
