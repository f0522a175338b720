"""OpenAI (Responses API) and OpenAI-compatible servers (chat completions, e.g. vLLM, Ollama)."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Literal

from figgen.eval.cost.tokens import openai_image_tokens
from figgen.eval.providers.base import Provider, api_key, register_provider, require_sdk
from figgen.eval.providers.exchange import AskConfig, Prompt, Reply
from figgen.eval.providers.image import ImageLimits
from figgen.eval.providers.sdk import SdkProvider

if TYPE_CHECKING:
    from figgen.eval.providers.batch_api import BatchBackend

logger = logging.getLogger(__name__)


OPENAI_LIMITS = ImageLimits(max_long_side=2048)
"""OpenAI fits every image in 2048 x 2048 before the model sees it (high detail; the patch
rule of newer models keeps fewer pixels still). The limits of other servers are not known."""


def _responses_options(options: dict[str, Any]) -> dict[str, Any]:
    """Map the flat ``reasoning_effort`` / ``verbosity`` options onto Responses API fields."""
    out = dict(options)
    if "reasoning_effort" in out:
        out.setdefault("reasoning", {})["effort"] = out.pop("reasoning_effort")
    if "verbosity" in out:
        out.setdefault("text", {})["verbosity"] = out.pop("verbosity")
    if "max_tokens" in out:
        out["max_output_tokens"] = out.pop("max_tokens")
    return out


Api = Literal["responses", "chat"]
_OTHER: dict[Api, Api] = {"responses": "chat", "chat": "responses"}
_NO_ROUTE = (404, 405, 501)


class OpenAIProvider(SdkProvider):
    """OpenAI's SDK with its own retries off, speaking the Responses API or chat completions.

    With ``may_switch``, a server that answers the first request with "no such route"
    (404, 405, 501) is asked again through the other API, which is then kept.
    """

    api_key_vars = ("OPENAI_API_KEY",)
    api_key_shape = r"sk-[A-Za-z0-9_\-]{8,}"

    def __init__(
        self,
        model: str,
        client: Any,
        sdk: Any,
        *,
        api: Api,
        may_switch: bool,
        image_limits: ImageLimits | None = None,
        cache: bool = False,
        official: bool = False,
    ) -> None:
        super().__init__(model, client, sdk)
        self.image_limits = image_limits or ImageLimits()
        self.prompt_cache = cache
        self._official = official
        self.api: Api = api
        self._may_switch = may_switch

    async def _call(self, api: Api, prompt: Prompt, config: AskConfig) -> Reply:
        if api == "chat":
            return await self._ask_chat(prompt, config)
        return await self._ask_responses(prompt, config)

    async def ask(self, prompt: Prompt, config: AskConfig) -> Reply:
        api = self.api
        try:
            reply = await self._call(api, prompt, config)
        except self._sdk.APIStatusError as exc:
            if exc.status_code not in _NO_ROUTE:
                raise
            if self.api == api:  # the first question to find the route missing switches
                if not self._may_switch:
                    raise
                self.api = _OTHER[api]
                self._may_switch = False
                logger.warning("%s: the server has no %s API; using %s", self.model, api, self.api)
            reply = await self._call(self.api, prompt, config)
        self._may_switch = False
        return reply

    async def _ask_responses(self, prompt: Prompt, config: AskConfig) -> Reply:
        body = responses_body(self.model, prompt, config, cache_key=self._cache_key(prompt))
        return responses_reply(await self._client.responses.create(**body))

    async def _ask_chat(self, prompt: Prompt, config: AskConfig) -> Reply:
        content: list[dict[str, Any]] = [
            {"type": "image_url", "image_url": {"url": image.data_url()}} for image in prompt.images
        ]
        (_, first), *later = prompt.messages()
        content.append({"type": "text", "text": first})
        response = await self._client.chat.completions.create(
            model=self.model,
            messages=[
                {"role": "user", "content": content},
                *({"role": role, "content": text} for role, text in later),
            ],
            **config.options,
        )
        return chat_reply(response)

    def image_tokens(self, width: int, height: int) -> int:
        return openai_image_tokens(width, height)

    def batch_backend(self) -> BatchBackend:
        """The Batch API on ``/v1/responses``; a batch asks for prompt caching whenever the
        provider does (OpenAI itself or not)."""
        from figgen.eval.providers.openai_batch import OpenAIBatch

        def body(prompt: Prompt, config: AskConfig) -> dict[str, Any]:
            cache_key = prompt.item.figure_id if self.prompt_cache else None
            return responses_body(self.model, prompt, config, cache_key=cache_key)

        return OpenAIBatch(self._client, body, responses_reply)

    def _cache_key(self, prompt: Prompt) -> str | None:
        """OpenAI routes requests with one ``prompt_cache_key`` together, so a figure's
        questions meet its cached image; other servers may refuse the field."""
        return prompt.item.figure_id if self.prompt_cache and self._official else None


def responses_body(
    model: str, prompt: Prompt, config: AskConfig, *, cache_key: str | None = None
) -> dict[str, Any]:
    """The Responses API request: the images first (the cacheable prefix), then the text and
    any later turns of a conversation."""
    content: list[dict[str, Any]] = [
        {"type": "input_image", "image_url": image.data_url()} for image in prompt.images
    ]
    (_, first), *later = prompt.messages()
    content.append({"type": "input_text", "text": first})
    body: dict[str, Any] = {
        "model": model,
        "input": [
            {"role": "user", "content": content},
            *({"role": role, "content": text} for role, text in later),
        ],
        **_responses_options(config.options),
    }
    if cache_key is not None:
        body.setdefault("prompt_cache_key", cache_key)
    return body


def responses_reply(response: Any) -> Reply:
    """Text and billed tokens of a Responses API response; ``input_tokens`` counts the cached
    and the cache-written tokens (newer SDKs report ``cache_write_tokens``)."""
    usage = getattr(response, "usage", None)
    details = getattr(usage, "input_tokens_details", None)
    return Reply(
        text=response.output_text or "",
        input_tokens=getattr(usage, "input_tokens", 0) or 0,
        output_tokens=getattr(usage, "output_tokens", 0) or 0,
        usage_reported=getattr(usage, "input_tokens", None) is not None,
        cached_input_tokens=getattr(details, "cached_tokens", 0) or 0,
        cache_write_tokens=getattr(details, "cache_write_tokens", 0) or 0,
    )


def chat_reply(response: Any) -> Reply:
    """Text and billed tokens of a chat completion (``prompt_tokens`` counts the cached)."""
    usage = getattr(response, "usage", None)
    details = getattr(usage, "prompt_tokens_details", None)
    text = response.choices[0].message.content if response.choices else None
    return Reply(
        text=text or "",
        input_tokens=getattr(usage, "prompt_tokens", 0) or 0,
        output_tokens=getattr(usage, "completion_tokens", 0) or 0,
        usage_reported=getattr(usage, "prompt_tokens", None) is not None,
        cached_input_tokens=getattr(details, "cached_tokens", 0) or 0,
        cache_write_tokens=getattr(details, "cache_write_tokens", 0) or 0,
    )


def _client(sdk: Any, base_url: str | None, timeout: float) -> Any:
    # a local server needs no key; the SDK refuses an empty one, so send a placeholder
    key = api_key(OpenAIProvider.api_key_vars, required=base_url is None) or "not-needed"
    return sdk.AsyncOpenAI(api_key=key, base_url=base_url, max_retries=0, timeout=timeout)


@register_provider("openai", OpenAIProvider)
def openai_provider(
    model: str, *, base_url: str | None = None, timeout: float = 600.0, cache: bool | None = None
) -> Provider:
    """OpenAI's Responses API; on a ``--base-url``, chat completions first (what
    OpenAI-compatible servers serve), switching to Responses if the server lacks them.

    Prompt caching (``cache``) is on for OpenAI itself and off for other servers unless asked.
    """
    sdk = require_sdk("openai", "openai")
    client = _client(sdk, base_url, timeout)
    if base_url is None:
        return OpenAIProvider(
            model,
            client,
            sdk,
            api="responses",
            may_switch=False,
            image_limits=OPENAI_LIMITS,
            cache=cache is not False,
            official=True,
        )
    return OpenAIProvider(model, client, sdk, api="chat", may_switch=True, cache=bool(cache))


@register_provider("openai-compatible", OpenAIProvider)
def openai_compatible_provider(
    model: str, *, base_url: str | None = None, timeout: float = 600.0, cache: bool | None = None
) -> Provider:
    """Chat completions on any OpenAI-compatible server (vLLM, Ollama, llama.cpp, ...)."""
    sdk = require_sdk("openai", "openai")
    if base_url is None:
        from figgen.errors import FiggenError

        raise FiggenError(
            "the openai-compatible provider needs --base-url, e.g. http://localhost:8000/v1"
        )
    client = _client(sdk, base_url, timeout)
    return OpenAIProvider(model, client, sdk, api="chat", may_switch=False, cache=bool(cache))
