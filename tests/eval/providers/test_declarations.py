"""What a provider declares on its class (keys, image-token rule, batch backend) is read from
the registration: the batch option's help and error, the estimate's image rule and redaction
follow the declarations, not lists of vendor names."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import typer.main

from figgen.eval.cli import app as eval_app
from figgen.eval.cost.tokens import anthropic_image_tokens, gemini_image_tokens, openai_image_tokens
from figgen.eval.providers import (
    batch_provider_names,
    make_provider,
    provider_class,
    provider_names,
)
from figgen.eval.providers.anthropic_provider import AnthropicProvider
from figgen.eval.providers.base import Provider
from figgen.eval.providers.batch_api import BatchBackend
from figgen.eval.providers.gemini_provider import GeminiProvider
from figgen.eval.providers.openai_provider import OpenAIProvider

ROOT = Path(__file__).resolve().parents[3]
VENDORS = {
    "openai": ("openai", "OPENAI_API_KEY", openai_image_tokens),
    "anthropic": ("anthropic", "ANTHROPIC_API_KEY", anthropic_image_tokens),
    "gemini": ("google.genai", "GEMINI_API_KEY", gemini_image_tokens),
}
SIZES = [(300, 200), (384, 384), (750, 1000), (1024, 1024), (1000, 700), (3136, 1568)]


def batch_help_names(help_text: str) -> list[str]:
    match = re.search(r"batch API \(([^)]*)\)", " ".join(help_text.split()))
    assert match is not None, help_text
    return match.group(1).split(", ")


def test_a_names_class_is_known_without_building_a_provider() -> None:
    assert provider_class("openai") is OpenAIProvider
    assert provider_class("openai-compatible") is OpenAIProvider
    assert provider_class("anthropic") is AnthropicProvider
    assert provider_class("gemini") is GeminiProvider
    assert OpenAIProvider.api_key_vars == ("OPENAI_API_KEY",)
    assert GeminiProvider.api_key_vars == ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    offline = ("mock", "oracle", "chance", "blind")
    assert all(provider_class(name).api_key_vars == () for name in offline)


def test_the_providers_with_a_batch_backend_are_the_classes_that_override_the_hook() -> None:
    batching = batch_provider_names()
    assert {"anthropic", "gemini", "openai", "openai-compatible"} <= set(batching)
    assert not {"mock", "oracle", "chance", "blind"} & set(batching)
    for name in provider_names():
        overrides = provider_class(name).batch_backend is not Provider.batch_backend
        assert (name in batch_provider_names()) == overrides, name


@pytest.mark.parametrize("vendor", list(VENDORS))
def test_each_vendor_estimates_images_by_its_rule_and_batches_on_its_client(
    vendor: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    sdk, key_var, rule = VENDORS[vendor]
    pytest.importorskip(sdk)
    monkeypatch.setenv(key_var, "test-key")
    provider = make_provider(f"{vendor}:m")
    assert [provider.image_tokens(w, h) for w, h in SIZES] == [rule(w, h) for w, h in SIZES]
    backend = provider.batch_backend()
    assert isinstance(backend, BatchBackend) and backend.name == vendor


def test_offline_providers_estimate_no_image_tokens_and_have_no_batch_backend() -> None:
    for spec in ("oracle", "chance"):
        provider = make_provider(spec)
        assert provider.image_tokens(1024, 1024) == 0
        assert provider.batch_backend() is None


def test_the_batch_help_lists_exactly_the_providers_with_a_backend() -> None:
    command = typer.main.get_command(eval_app)
    assert isinstance(command, typer.main.TyperGroup)
    run = command.commands["run"]
    (batch,) = [param for param in run.params if param.name == "batch"]
    assert isinstance(batch, typer.core.TyperOption) and batch.help is not None
    assert batch_help_names(batch.help) == batch_provider_names()


@pytest.mark.e2e
def test_a_provider_registered_with_a_backend_joins_the_batch_help() -> None:
    """A provider registered before the command line loads is named by ``--batch``'s help
    (and one without a backend is not), as the command line prints it."""
    code = textwrap.dedent(
        """
        from figgen.eval.providers import Provider, register_provider

        class Batching(Provider):
            async def ask(self, prompt, config):
                raise NotImplementedError

            def batch_backend(self):
                raise NotImplementedError

        class Live(Provider):
            async def ask(self, prompt, config):
                raise NotImplementedError

        register_provider("example-batching", Batching)(Batching)
        register_provider("example-live", Live)(Live)

        from figgen._cli.main import main

        main()
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code, "eval", "run", "--help"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "COLUMNS": "400"},
        timeout=120,
    )
    assert batch_help_names(result.stdout) == sorted([*batch_provider_names(), "example-batching"])
