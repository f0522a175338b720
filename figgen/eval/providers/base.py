"""The provider interface: one async ``ask``, every other behaviour a hook with a default."""

from __future__ import annotations

import abc
import importlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any, Literal

from figgen._util.registry import Registry
from figgen.errors import FiggenError
from figgen.eval.cost.tokens import ImageRule
from figgen.eval.grounding.evidence import EvidenceTarget
from figgen.eval.grounding.grounding import PromptMode, mode_instruction
from figgen.eval.grounding.set_grounding import SetTarget, set_instruction
from figgen.eval.providers.image import FigureImage, ImageLimits
from figgen.schema.qa_item import QAItem

Role = Literal["user", "assistant"]


@dataclass(frozen=True)
class Turn:
    """An earlier exchange of a conversation: what was asked and what the model replied."""

    asked: str
    replied: str


@dataclass(frozen=True)
class Prompt:
    """One independent question: the figure image (or several) and the question text.

    ``item`` carries the ground truth for the offline ``oracle`` and ``chance`` providers;
    providers that call a model never read it. A multi-chart question sends ``more_images``
    after ``image``; providers send ``images`` in order, before the text. In a ``grounded`` or
    ``pointed`` ``mode`` the text states the image's size, and ``evidence`` (in pixels of
    ``image``) is the truth the oracle locates.
    """

    text: str
    image: FigureImage
    item: QAItem
    more_images: tuple[FigureImage, ...] = ()
    mode: PromptMode = "plain"
    evidence: EvidenceTarget | None = None
    set_evidence: SetTarget | None = None
    """The evidence in every image of a grounded or pointed question over a set."""
    history: tuple[Turn, ...] = ()
    """Earlier turns of a conversation (multi-chart sets asked in one); the images go with the
    first message, so a conversation sends them once."""

    @property
    def images(self) -> tuple[FigureImage, ...]:
        return (self.image, *self.more_images)

    def messages(self) -> list[tuple[Role, str]]:
        """The conversation as (role, text), oldest first: the history, then ``text``."""
        out: list[tuple[Role, str]] = []
        for turn in self.history:
            out += [("user", turn.asked), ("assistant", turn.replied)]
        return [*out, ("user", self.text)]

    def scaled(self, factor: float) -> Prompt:
        """The same prompt with every image resized by ``factor``."""
        return self.with_images(
            self.image.scaled(factor), tuple(image.scaled(factor) for image in self.more_images)
        )

    def with_image(self, image: FigureImage) -> Prompt:
        """The same question about a resized image (its size restated, its evidence rescaled)."""
        old = mode_instruction(self.mode, self.image.width, self.image.height)
        new = mode_instruction(self.mode, image.width, image.height)
        text = self.text.replace(old, new) if old else self.text
        evidence = self.evidence and self.evidence.in_image(image.width, image.height)
        return replace(self, text=text, image=image, evidence=evidence)

    def with_images(self, image: FigureImage, more: tuple[FigureImage, ...]) -> Prompt:
        """The same question about resized images (the first restated as ``with_image`` does;
        over a set, every image's size and evidence)."""
        if self.set_evidence is None:
            return replace(self.with_image(image), more_images=more)
        sizes = [(i.width, i.height) for i in (image, *more)]
        old = set_instruction(self.mode, self.set_evidence.sizes)
        text = self.text.replace(old, set_instruction(self.mode, sizes))
        evidence = self.set_evidence.in_images(sizes)
        return replace(self, text=text, image=image, more_images=more, set_evidence=evidence)


@dataclass(frozen=True)
class AskConfig:
    """Options passed through to the vendor call (``--option key=value``)."""

    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Reply:
    """The model's text and the tokens the vendor billed for it."""

    text: str
    input_tokens: int = 0
    output_tokens: int = 0
    usage_reported: bool = True
    """False when the reply carried no token counts; the runner then bills the estimate."""
    cached_input_tokens: int = 0
    """Of ``input_tokens``, those read from the prompt cache."""
    cache_write_tokens: int = 0
    """Of ``input_tokens``, those written to the prompt cache (Anthropic bills them apart)."""


class Provider(abc.ABC):
    """A model behind one async call; retrying and budgeting live in the runner."""

    image_rule: ImageRule = "none"
    """Which published image-token rule the pre-flight estimate applies."""

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
_REGISTRY: Registry[ProviderFactory] = Registry("provider")


def register_provider(name: str) -> Callable[[ProviderFactory], ProviderFactory]:
    """Register a factory ``(model, *, base_url, options) -> Provider`` under ``name``; a name
    already registered is a ValueError (it would silently replace a provider)."""
    return _REGISTRY.decorator(name)


def provider_names() -> list[str]:
    return sorted(_REGISTRY)


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
    return _REGISTRY[provider](model, base_url=base_url, **kwargs)


def require_sdk(module: str, extra: str) -> ModuleType:
    """Import a vendor SDK, or fail with the one-line install command."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise FiggenError(
            f"the {extra} provider needs the {module.split('.')[0]} package; "
            f"install it with: pip install 'figgen[{extra}]'"
        ) from None


def api_key(env: str, *, required: bool) -> str | None:
    """The API key from the environment; only its presence is ever reported."""
    value = os.environ.get(env)
    if not value and required:
        raise FiggenError(f"no API key: set the environment variable {env}")
    return value or None


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
