"""The options eval run, density run and multichart converse share resolve the same way."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from figgen.density.cli import run as density_run
from figgen.errors import FiggenError
from figgen.eval.cli import run as eval_run
from figgen.eval.cli_options import ModelArgs, model_setup
from figgen.multichart.cli import converse

SHARED = (
    "model",
    "out",
    "base_url",
    "concurrency",
    "max_cost",
    "prices",
    "option",
    "retries",
    "retry_wait",
    "timeout",
    "progress",
    "cache",
)


def _setup(model: str, *options: str, timeout: float = 30.0):
    args = ModelArgs(
        model, Path("a.jsonl"), option=list(options), retries=3, retry_wait=0.5, timeout=timeout
    )
    return model_setup(args)


def test_online_model_gets_the_timeout_for_the_sdk_and_for_the_whole_call() -> None:
    setup = _setup("openai-compatible:qwen", "temperature=0", timeout=12.5)
    assert not setup.offline
    assert setup.factory_args == {"timeout": 12.5}
    policy = setup.options.policy
    assert policy.call_timeout == 12.5
    assert (policy.attempts, policy.initial_wait, policy.jitter) == (3, 0.5, 0.5)
    assert policy.max_wait == 60.0
    assert setup.options.config.options == {"temperature": 0}
    assert not setup.options.free and setup.options.out == Path("a.jsonl")


def test_mock_script_goes_to_the_provider_not_into_the_call(tmp_path) -> None:
    script = tmp_path / "s.json"
    setup = _setup("mock:m", f"script={script}", "seed=3")
    assert setup.offline
    assert setup.factory_args == {"script": str(script)}
    assert setup.options.config.options == {"seed": 3}
    assert setup.options.free


def test_a_bad_option_is_one_line() -> None:
    with pytest.raises(FiggenError, match="key=value"):
        _setup("oracle", "temperature")


def test_the_commands_share_the_option_declarations() -> None:
    eval_params = inspect.signature(eval_run).parameters
    for command in (density_run, converse):
        params = inspect.signature(command).parameters
        for name in SHARED:
            if name == "progress" and command is converse:  # no progress bar to show
                assert name not in params
                continue
            if name == "concurrency" and command is converse:  # conversations, not calls
                assert params[name].annotation.__metadata__[0].help.startswith("Conversations")
                continue
            assert eval_params[name].annotation == params[name].annotation, name
            assert eval_params[name].default == params[name].default, name
    assert "shared" not in eval_params
