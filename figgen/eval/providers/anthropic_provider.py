"""Anthropic's Messages API."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from figgen.eval.cost.tokens import anthropic_image_tokens
from figgen.eval.providers.base import Provider, api_key, register_provider, require_sdk
from figgen.eval.providers.exchange import AskConfig, Prompt, Reply
from figgen.eval.providers.image import ImageLimits
from figgen.eval.providers.sdk import SdkProvider

if TYPE_CHECKING:
    from figgen.eval.providers.batch_api import BatchBackend

DEFAULT_MAX_TOKENS = 1024
"""Messages requires ``max_tokens``; raise it with ``--option max_tokens=...`` for thinking."""


ANTHROPIC_LIMITS = ImageLimits(max_long_side=1568, max_bytes=3_932_160)
"""Anthropic shrinks images whose long edge exceeds 1568 px before the model sees them ("no
additional model performance"), and refuses images over 5 MB (counted on the base64, so
3.75 MB of bytes)."""


CACHE_CONTROL = {"type": "ephemeral"}
"""Anthropic's 5-minute prompt cache, asked for on the last image: the prefix up to and
including it (every image of the question) is what a figure's questions share."""


def message_body(model: str, prompt: Prompt, config: AskConfig, *, cache: bool) -> dict[str, Any]:
    """The Messages request: the images first, the last marked for caching, then the text and
    any later turns of a conversation."""
    options = dict(config.options)
    max_tokens = options.pop("max_tokens", DEFAULT_MAX_TOKENS)
    content: list[dict[str, Any]] = [
        {
            "type": "image",
            "source": {
                "type": "base64",
                "media_type": image.media_type,
                "data": image.base64(),
            },
        }
        for image in prompt.images
    ]
    if cache:
        content[-1]["cache_control"] = dict(CACHE_CONTROL)
    (_, first), *later = prompt.messages()
    content.append({"type": "text", "text": first})
    return {
        "model": model,
        "max_tokens": max_tokens,
        "messages": [
            {"role": "user", "content": content},
            *({"role": role, "content": text} for role, text in later),
        ],
        **options,
    }


def message_reply(message: Any) -> Reply:
    """Text and billed tokens of a Message; every input token is counted in ``input_tokens``
    (Anthropic reports cache reads and writes apart from the uncached input)."""
    text = "".join(block.text for block in message.content if block.type == "text")
    usage = getattr(message, "usage", None)
    uncached = getattr(usage, "input_tokens", None)
    read = getattr(usage, "cache_read_input_tokens", 0) or 0
    written = getattr(usage, "cache_creation_input_tokens", 0) or 0
    return Reply(
        text,
        (uncached or 0) + read + written,
        getattr(usage, "output_tokens", 0) or 0,
        usage_reported=uncached is not None,
        cached_input_tokens=read,
        cache_write_tokens=written,
    )


class AnthropicProvider(SdkProvider):
    api_key_vars = ("ANTHROPIC_API_KEY",)
    api_key_shape = r"sk-ant-[A-Za-z0-9_\-]{8,}"
    image_limits = ANTHROPIC_LIMITS

    def __init__(self, model: str, client: Any, sdk: Any, *, cache: bool = True) -> None:
        super().__init__(model, client, sdk)
        self.prompt_cache = cache

    async def ask(self, prompt: Prompt, config: AskConfig) -> Reply:
        body = message_body(self.model, prompt, config, cache=self.prompt_cache)
        return message_reply(await self._client.messages.create(**body))

    def image_tokens(self, width: int, height: int) -> int:
        return anthropic_image_tokens(width, height)

    def batch_backend(self) -> BatchBackend:
        """Message Batches; the image keeps its ``cache_control`` inside a batch too."""
        from figgen.eval.providers.anthropic_batch import AnthropicBatch

        def body(prompt: Prompt, config: AskConfig) -> dict[str, Any]:
            return message_body(self.model, prompt, config, cache=self.prompt_cache)

        return AnthropicBatch(self._client, body, message_reply)


@register_provider("anthropic", AnthropicProvider)
def anthropic_provider(
    model: str, *, base_url: str | None = None, timeout: float = 600.0, cache: bool | None = None
) -> Provider:
    """Claude models; the key comes from ``ANTHROPIC_API_KEY``."""
    sdk = require_sdk("anthropic", "anthropic")
    key = api_key(AnthropicProvider.api_key_vars, required=base_url is None) or "not-needed"
    client = sdk.AsyncAnthropic(api_key=key, base_url=base_url, max_retries=0, timeout=timeout)
    return AnthropicProvider(model, client, sdk, cache=cache is not False)
