"""Google's Gemini models through the google-genai SDK."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from figgen.eval.cost.tokens import gemini_image_tokens
from figgen.eval.providers.base import Provider, api_key, register_provider, require_sdk
from figgen.eval.providers.exchange import AskConfig, Prompt, Reply
from figgen.eval.providers.image import ImageLimits
from figgen.eval.providers.overflow import says_context_overflow, transient

if TYPE_CHECKING:
    from figgen.eval.providers.batch_api import BatchBackend


def generation_config(types: Any, options: dict[str, Any]) -> Any:
    """``GenerateContentConfig`` from flat options; ``thinking_budget`` goes in its sub-config."""
    options = dict(options)
    if "max_tokens" in options:
        options["max_output_tokens"] = options.pop("max_tokens")
    thinking_keys = ("thinking_budget", "thinking_level", "include_thoughts")
    thinking: dict[str, Any] = {key: options.pop(key) for key in thinking_keys if key in options}
    if thinking:
        options["thinking_config"] = types.ThinkingConfig(**thinking)
    return types.GenerateContentConfig(**options)


def gemini_reply(response: Any) -> Reply:
    """Text and billed tokens of a response; ``prompt_token_count`` counts the cached tokens
    and thinking is billed as output."""
    usage = response.usage_metadata
    output = (getattr(usage, "candidates_token_count", 0) or 0) + (
        getattr(usage, "thoughts_token_count", 0) or 0
    )
    prompt_tokens = getattr(usage, "prompt_token_count", None)
    return Reply(
        response.text or "",
        prompt_tokens or 0,
        output,
        usage_reported=prompt_tokens is not None,
        cached_input_tokens=getattr(usage, "cached_content_token_count", 0) or 0,
    )


GEMINI_LIMITS = ImageLimits(max_bytes=14 * 2**20)
"""Gemini tiles large images (more tiles, more detail), so no side limit; an inline request
may hold 20 MB, base64 included."""


def rest_request(types: Any, prompt: Prompt, config: AskConfig) -> dict[str, Any]:
    """The REST form of what the live call sends (a batch entry's request): the images first
    (implicitly cached), then the text."""
    parts: list[dict[str, Any]] = [
        {"inlineData": {"mimeType": image.media_type, "data": image.base64()}}
        for image in prompt.images
    ]
    parts.append({"text": prompt.text})
    request: dict[str, Any] = {"contents": [{"role": "user", "parts": parts}]}
    generation = generation_config(types, config.options).model_dump(
        exclude_none=True, by_alias=True, mode="json"
    )
    if generation:
        request["generationConfig"] = generation
    return request


class GeminiProvider(Provider):
    api_key_vars = ("GEMINI_API_KEY", "GOOGLE_API_KEY")
    api_key_shape = r"AIza[A-Za-z0-9_\-]{20,}"
    image_limits = GEMINI_LIMITS

    def __init__(self, model: str, client: Any, genai: Any, *, cache: bool = True) -> None:
        super().__init__(model)
        self._client = client
        self._types = genai.types
        self._errors = genai.errors
        # implicit caching needs nothing in the request: the image first, questions together
        self.prompt_cache = cache

    async def ask(self, prompt: Prompt, config: AskConfig) -> Reply:
        types = self._types
        images = [
            types.Part.from_bytes(data=image.data, mime_type=image.media_type)
            for image in prompt.images
        ]
        (_, first), *later = prompt.messages()
        contents: list[Any] = [*images, first]
        if later:  # a conversation: turns with roles, the images in the first
            contents = [types.Content(role="user", parts=[*images, types.Part(text=first)])]
            for role, text in later:
                gemini_role = "model" if role == "assistant" else "user"
                contents.append(types.Content(role=gemini_role, parts=[types.Part(text=text)]))
        response = await self._client.aio.models.generate_content(
            model=self.model,
            contents=contents,
            config=generation_config(types, config.options),
        )
        return gemini_reply(response)

    def image_tokens(self, width: int, height: int) -> int:
        return gemini_image_tokens(width, height)

    def batch_backend(self) -> BatchBackend:
        """Batch mode: a JSONL file of ``generateContent`` requests in their REST form."""
        from figgen.eval.providers.gemini_batch import GeminiBatch

        def body(prompt: Prompt, config: AskConfig) -> dict[str, Any]:
            return rest_request(self._types, prompt, config)

        return GeminiBatch(self._client, self.model, body, gemini_reply)

    def _code(self, error: Exception) -> int | None:
        return getattr(error, "code", None) if isinstance(error, self._errors.APIError) else None

    def is_retryable(self, error: Exception) -> bool:
        code = self._code(error)
        return (code is not None and (code == 429 or code >= 500)) or transient(error)

    def is_context_overflow(self, error: Exception) -> bool:
        return self._code(error) in (400, 413) and says_context_overflow(str(error))

    def is_fatal(self, error: Exception) -> bool:
        return self._code(error) in (401, 403)


@register_provider("gemini", GeminiProvider)
def gemini_provider(
    model: str, *, base_url: str | None = None, timeout: float = 600.0, cache: bool | None = None
) -> Provider:
    """Gemini; the key comes from ``GEMINI_API_KEY`` (or ``GOOGLE_API_KEY``)."""
    require_sdk("google.genai", "gemini")
    from google import genai

    key = api_key(GeminiProvider.api_key_vars, required=True)
    # google-genai does not retry unless asked, so the runner's retry is the only one
    http_options = genai.types.HttpOptions(base_url=base_url, timeout=int(timeout * 1000))
    client = genai.Client(api_key=key, http_options=http_options)
    return GeminiProvider(model, client, genai, cache=cache is not False)
