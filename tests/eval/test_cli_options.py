"""The options eval run and density run share resolve the same way for both commands."""

from __future__ import annotations

import inspect

import pytest

from figgen.density.cli import run as density_run
from figgen.errors import FiggenError
from figgen.eval.cli import run as eval_run
from figgen.eval.cli_options import model_setup

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
)


def _setup(model: str, *options: str, timeout: float = 30.0):
    return model_setup(
        model,
        base_url=None,
        option=list(options),
        prices=None,
        retries=3,
        retry_wait=0.5,
        timeout=timeout,
    )


def test_online_model_gets_the_timeout_for_the_sdk_and_for_the_whole_call() -> None:
    setup = _setup("openai-compatible:qwen", "temperature=0", timeout=12.5)
    assert not setup.offline
    assert setup.factory_args == {"timeout": 12.5}
    assert setup.policy.call_timeout == 12.5
    assert (setup.policy.attempts, setup.policy.initial_wait, setup.policy.jitter) == (3, 0.5, 0.5)
    assert setup.policy.max_wait == 60.0
    assert setup.config.options == {"temperature": 0}


def test_mock_script_goes_to_the_provider_not_into_the_call(tmp_path) -> None:
    script = tmp_path / "s.json"
    setup = _setup("mock:m", f"script={script}", "seed=3")
    assert setup.offline
    assert setup.factory_args == {"script": str(script)}
    assert setup.config.options == {"seed": 3}


def test_a_bad_option_is_one_line() -> None:
    with pytest.raises(FiggenError, match="key=value"):
        _setup("oracle", "temperature")


def test_both_commands_share_the_option_declarations() -> None:
    eval_params = inspect.signature(eval_run).parameters
    density_params = inspect.signature(density_run).parameters
    for name in SHARED:
        assert eval_params[name].annotation == density_params[name].annotation, name
        assert eval_params[name].default == density_params[name].default, name
