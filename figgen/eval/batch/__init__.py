"""``figgen eval run --batch``: the same questions through OpenAI's Batch API, Anthropic's
Message Batches or Gemini's batch mode, at half price, with results within 24 hours."""

from __future__ import annotations

from figgen.errors import FiggenError
from figgen.eval.batch.base import BatchBackend, BatchResult, BatchStatus
from figgen.eval.batch.runner import BatchPolicy, run_batch
from figgen.eval.providers.base import Provider


def batch_backend(provider: Provider) -> BatchBackend:
    """The batch endpoints of the vendor behind ``provider`` (same client, same model)."""
    from figgen.eval.providers.anthropic_provider import AnthropicProvider
    from figgen.eval.providers.gemini_provider import GeminiProvider
    from figgen.eval.providers.openai_provider import OpenAIProvider

    if isinstance(provider, OpenAIProvider):
        from figgen.eval.batch.openai_batch import OpenAIBatch

        return OpenAIBatch(provider.client, provider.model, cache=provider.prompt_cache)
    if isinstance(provider, AnthropicProvider):
        from figgen.eval.batch.anthropic_batch import AnthropicBatch

        return AnthropicBatch(provider.client, provider.model, cache=provider.prompt_cache)
    if isinstance(provider, GeminiProvider):
        from figgen.eval.batch.gemini_batch import GeminiBatch

        return GeminiBatch(provider.client, provider.model)
    raise FiggenError(
        f"--batch needs an openai, anthropic or gemini model, not {provider.model}; drop --batch"
    )


__all__ = [
    "BatchBackend",
    "BatchPolicy",
    "BatchResult",
    "BatchStatus",
    "batch_backend",
    "run_batch",
]
