"""``figgen eval run --batch``: the same questions through the batch API of a provider that
has one (``Provider.batch_backend``), at the batch prices, with results within 24 hours."""

from __future__ import annotations

from figgen.errors import FiggenError
from figgen.eval.batch.runner import BatchPolicy, run_batch
from figgen.eval.providers.base import Provider, batch_provider_names
from figgen.eval.providers.batch_api import BatchBackend, BatchResult, BatchStatus


def batch_backend(provider: Provider) -> BatchBackend:
    """The batch endpoints of the vendor behind ``provider`` (same client, same model)."""
    backend = provider.batch_backend()
    if backend is None:
        raise FiggenError(
            f"--batch needs a model of a provider with a batch API "
            f"({', '.join(batch_provider_names())}), not {provider.model}; drop --batch"
        )
    return backend


__all__ = [
    "BatchBackend",
    "BatchPolicy",
    "BatchResult",
    "BatchStatus",
    "batch_backend",
    "run_batch",
]
