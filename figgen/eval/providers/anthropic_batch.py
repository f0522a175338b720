"""Anthropic Message Batches: the Messages requests in one call, results as JSONL."""

from __future__ import annotations

from typing import Any

from figgen.eval.providers.batch_api import (
    BatchBackend,
    BatchResult,
    BatchStatus,
    ReadReply,
    RequestBody,
    error_text,
)
from figgen.eval.providers.exchange import AskConfig, Prompt


class AnthropicBatch(BatchBackend):
    """``messages.batches.create`` / ``retrieve`` / ``results``; the prompt cache works inside
    a batch too (best effort), so the image keeps its ``cache_control``."""

    name = "anthropic"
    max_requests = 100_000
    max_bytes = 190 * 2**20  # a batch may hold 256 MB

    def __init__(self, client: Any, body: RequestBody, reply: ReadReply) -> None:
        self._client = client
        self._body = body
        self._reply = reply

    def request(self, key: str, prompt: Prompt, config: AskConfig) -> dict[str, Any]:
        return {"custom_id": key, "params": self._body(prompt, config)}

    async def submit(self, requests: list[dict[str, Any]], token: str) -> str:
        batch = await self._client.messages.batches.create(requests=requests)
        return str(batch.id)

    async def find(self, token: str, n_requests: int, since: float) -> str | None:
        # a Message Batch carries no label: a batch of the same size created since the run
        # meant to submit it is taken, and only results keyed with the token are used
        async for batch in self._client.messages.batches.list(limit=100):
            created = batch.created_at.timestamp()
            if created < since - 60:
                break
            counts = batch.request_counts
            total = (
                counts.processing
                + counts.succeeded
                + counts.errored
                + counts.canceled
                + counts.expired
            )
            if total == n_requests:
                return str(batch.id)
        return None

    async def status(self, batch_id: str) -> BatchStatus:
        batch = await self._client.messages.batches.retrieve(batch_id)
        return BatchStatus(batch.processing_status == "ended", str(batch.processing_status))

    async def results(self, batch_id: str) -> list[BatchResult]:
        results: list[BatchResult] = []
        async for entry in await self._client.messages.batches.results(batch_id):
            result = entry.result
            if result.type == "succeeded":
                results.append(
                    BatchResult(entry.custom_id, "reply", reply=self._reply(result.message))
                )
            elif result.type == "errored":
                error = getattr(result.error, "error", result.error)
                results.append(BatchResult(entry.custom_id, "error", error=error_text(error)))
            else:  # canceled or expired before it ran
                results.append(BatchResult(entry.custom_id, "missing", error=result.type))
        return results
