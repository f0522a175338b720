"""Providers are registered by name once: a second registration of a name is refused instead
of silently replacing the provider that ``--model NAME:...`` built before."""

from __future__ import annotations

import pytest

from figgen.eval.providers import make_provider, provider_names, register_provider
from figgen.eval.providers.offline import MockProvider


def test_a_provider_name_registered_twice_is_refused() -> None:
    with pytest.raises(ValueError, match="provider 'mock' is registered twice"):
        register_provider("mock", MockProvider)(lambda model, **options: MockProvider())
    assert isinstance(make_provider("mock"), MockProvider)  # the first registration stands


def test_the_registered_names_are_listed_sorted() -> None:
    names = provider_names()
    assert names == sorted(names)
    assert {"mock", "oracle", "chance", "blind", "openai", "anthropic", "gemini"} <= set(names)
