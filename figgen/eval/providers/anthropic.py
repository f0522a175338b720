"""Anthropic's Messages API."""

from __future__ import annotations

from typing import Any

from figgen.eval.image import ImageLimits
from figgen.eval.providers.base import (
    AskConfig,
    Prompt,
    Provider,
    Reply,
    api_key,
    register_provider,
    require_sdk,
)
from figgen.eval.providers.sdk import SdkProvider

DEFAULT_MAX_TOKENS = 1024
"""Messages requires ``max_tokens``; raise it with ``--option max_tokens=...`` for thinking."""


ANTHROPIC_LIMITS = ImageLimits(max_long_side=1568, max_bytes=3_932_160)
"""Anthropic shrinks images whose long edge exceeds 1568 px before the model sees them ("no
additional model performance"), and refuses images over 5 MB (counted on the base64, so
3.75 MB of bytes)."""


class AnthropicProvider(SdkProvider):
    image_rule = "anthropic-area"
    image_limits = ANTHROPIC_LIMITS

    def __init__(self, model: str, client: Any, sdk: Any) -> None:
        super().__init__(model, client, sdk)

    async def ask(self, prompt: Prompt, config: AskConfig) -> Reply:
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
        (_, first), *later = prompt.messages()
        content.append({"type": "text", "text": first})
        message = await self._client.messages.create(
            model=self.model,
            max_tokens=max_tokens,
            messages=[
                {"role": "user", "content": content},
                *({"role": role, "content": text} for role, text in later),
            ],
            **options,
        )
        text = "".join(block.text for block in message.content if block.type == "text")
        usage = getattr(message, "usage", None)
        return Reply(
            text,
            getattr(usage, "input_tokens", 0) or 0,
            getattr(usage, "output_tokens", 0) or 0,
            usage_reported=getattr(usage, "input_tokens", None) is not None,
        )


@register_provider("anthropic")
def anthropic_provider(
    model: str, *, base_url: str | None = None, timeout: float = 600.0
) -> Provider:
    """Claude models; the key comes from ``ANTHROPIC_API_KEY``."""
    sdk = require_sdk("anthropic", "anthropic")
    key = api_key("ANTHROPIC_API_KEY", required=base_url is None) or "not-needed"
    client = sdk.AsyncAnthropic(api_key=key, base_url=base_url, max_retries=0, timeout=timeout)
    return AnthropicProvider(model, client, sdk)
