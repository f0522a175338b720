"""The provider interface: one async ``ask``, every other behaviour a hook with a default."""

from __future__ import annotations

import abc
import importlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, ClassVar

from figgen._util.redact import declare_secret
from figgen._util.registry import Registry
from figgen.errors import FiggenError
from figgen.eval.providers.exchange import AskConfig, Prompt, Reply
from figgen.eval.providers.image import ImageLimits

if TYPE_CHECKING:
    from figgen.eval.providers.batch_api import BatchBackend


class Provider(abc.ABC):
    """A model behind one async call; retrying and budgeting live in the runner."""

    api_key_vars: ClassVar[tuple[str, ...]] = ()
    """The environment variables that hold the vendor's key, in the order they are read;
    registering the provider has their values redacted from everything figgen writes."""

    api_key_shape: ClassVar[str | None] = None
    """A regular expression matching the vendor's keys (OpenAI's: ``sk-`` and 8 or more key
    characters): text of that shape is redacted wherever it came from."""

    image_limits: ImageLimits = ImageLimits()
    """The vendor's known image limits, applied before sending (none known: learnt from
    refusals during the run)."""

    prompt_cache: bool = False
    """Whether requests ask for prompt caching, so a figure's first question goes alone and
    warms the cache for the rest (``figgen.eval.cost.caching``)."""

    def __init__(self, model: str) -> None:
        self.model = model

    @abc.abstractmethod
    async def ask(self, prompt: Prompt, config: AskConfig) -> Reply:
        """Send one prompt and return the reply; raise the vendor's error on failure."""

    def is_retryable(self, error: Exception) -> bool:
        """Whether waiting and sending the same request again may succeed (429, 5xx)."""
        return False

    def retry_after(self, error: Exception) -> float | None:
        """Seconds the server asked us to wait before retrying (``Retry-After``), if any."""
        return retry_after_header(error)

    def is_context_overflow(self, error: Exception) -> bool:
        """Whether the request was too long, so a smaller image may fit."""
        return False

    def is_fatal(self, error: Exception) -> bool:
        """Whether no later question can succeed either (bad key), so the run stops."""
        return False

    def image_tokens(self, width: int, height: int) -> int:
        """The input tokens the vendor bills for one image of this size, by its published
        rule (``figgen.eval.cost.tokens``), for the pre-flight estimate; 0 when unknown."""
        return 0

    def batch_backend(self) -> BatchBackend | None:
        """The vendor's batch endpoints on the same client and model, or None: no batch API.

        A class that overrides this hook is listed as batching (``batch_provider_names``).
        """
        return None

    async def aclose(self) -> None:  # noqa: B027  (a hook with a default, not abstract)
        """Release connections."""


def retry_after_header(error: Exception) -> float | None:
    """The ``retry-after-ms`` or ``retry-after`` (seconds) header of an HTTP error response."""
    headers = getattr(getattr(error, "response", None), "headers", None)
    if headers is None:
        return None
    for name, unit in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            return max(0.0, float(value) * unit)
        except ValueError:  # an HTTP date; the exponential backoff applies instead
            return None
    return None


ProviderFactory = Callable[..., Provider]


@dataclass(frozen=True)
class RegisteredProvider:
    """A registered name: the factory that builds its providers and the class they are, whose
    declarations (keys, image rule, batch backend) are known without building one."""

    factory: ProviderFactory
    cls: type[Provider]


_REGISTRY: Registry[RegisteredProvider] = Registry("provider")


def register_provider(
    name: str, cls: type[Provider]
) -> Callable[[ProviderFactory], ProviderFactory]:
    """Register a factory ``(model, *, base_url, options) -> cls`` under ``name`` and declare
    the class's keys to redaction; a name already registered is a ValueError (it would
    silently replace a provider)."""

    def decorate(factory: ProviderFactory) -> ProviderFactory:
        _REGISTRY.add(name, RegisteredProvider(factory, cls))
        declare_secret(*cls.api_key_vars, shape=cls.api_key_shape)
        return factory

    return decorate


def provider_names() -> list[str]:
    return sorted(_REGISTRY)


def provider_class(name: str) -> type[Provider]:
    """The class of the providers registered under ``name``."""
    return _REGISTRY.get_or_fail(name).cls


def batch_provider_names() -> list[str]:
    """The registered names whose class has a batch backend, sorted."""
    return [
        name
        for name in provider_names()
        if _REGISTRY[name].cls.batch_backend is not Provider.batch_backend
    ]


def split_model(spec: str) -> tuple[str, str]:
    """``"openai:gpt-4o"`` -> ``("openai", "gpt-4o")``; a bare offline name is its own model."""
    provider, sep, model = spec.partition(":")
    if not sep:
        model = provider
    if provider not in _REGISTRY:
        raise FiggenError(
            f"unknown provider {provider!r} in --model {spec!r}; "
            f"use PROVIDER:MODEL with PROVIDER one of {', '.join(provider_names())}"
        )
    if not model:
        raise FiggenError(f"--model {spec!r} names no model; use PROVIDER:MODEL")
    return provider, model


def make_provider(spec: str, *, base_url: str | None = None, **kwargs: Any) -> Provider:
    """Build the provider that ``--model PROVIDER:MODEL`` names."""
    provider, model = split_model(spec)
    return _REGISTRY[provider].factory(model, base_url=base_url, **kwargs)


def require_sdk(module: str, extra: str) -> ModuleType:
    """Import a vendor SDK, or fail with the one-line install command."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise FiggenError(
            f"the {extra} provider needs the {module.split('.')[0]} package; "
            f"install it with: pip install 'figgen[{extra}]'"
        ) from None


def api_key(env: tuple[str, ...], *, required: bool) -> str | None:
    """The API key from the first variable of ``env`` that is set (a provider's
    ``api_key_vars``); only its presence is ever reported."""
    value = next((found for name in env if (found := os.environ.get(name))), None)
    if value is None and required:
        raise FiggenError(f"no API key: set the environment variable {env[0]}")
    return value


def parse_option(text: str) -> tuple[str, Any]:
    """``key=value`` with the value read as JSON when it parses (numbers, objects, true)."""
    key, sep, raw = text.partition("=")
    if not sep or not key.strip():
        raise FiggenError(
            f"--option {text!r} is not key=value; e.g. --option reasoning_effort=high"
        )
    try:
        value: Any = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    return key.strip(), value
