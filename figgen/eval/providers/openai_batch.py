"""The OpenAI Batch API: a JSONL file of Responses requests, uploaded, run, downloaded."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from figgen.eval.providers.batch_api import (
    BatchBackend,
    BatchResult,
    BatchStatus,
    ReadReply,
    RequestBody,
    entry_bytes,
    error_text,
)
from figgen.eval.providers.exchange import AskConfig, Prompt

DONE = ("completed", "failed", "expired", "cancelled")
EXPIRED_CODES = ("batch_expired", "batch_cancelled")
"""Error-file codes of requests the batch never ran (they are submitted again)."""


class OpenAIBatch(BatchBackend):
    """``files.create`` + ``batches.create`` on ``/v1/responses``; ``files.content`` results."""

    name = "openai"
    max_requests = 50_000
    max_bytes = 190 * 2**20  # the input file may hold 200 MB

    def __init__(self, client: Any, body: RequestBody, reply: ReadReply) -> None:
        self._client = client
        self._body = body
        self._reply = reply

    def request(self, key: str, prompt: Prompt, config: AskConfig) -> dict[str, Any]:
        body = self._body(prompt, config)
        return {"custom_id": key, "method": "POST", "url": "/v1/responses", "body": body}

    async def submit(self, requests: list[dict[str, Any]], token: str) -> str:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"figgen-{token}.jsonl"
            with path.open("wb") as handle:
                for entry in requests:
                    handle.write(entry_bytes(entry))
            with path.open("rb") as handle:
                uploaded = await self._client.files.create(file=handle, purpose="batch")
        batch = await self._client.batches.create(
            input_file_id=uploaded.id,
            endpoint="/v1/responses",
            completion_window="24h",
            metadata={"figgen_token": token},
        )
        return str(batch.id)

    async def find(self, token: str, n_requests: int, since: float) -> str | None:
        async for batch in self._client.batches.list(limit=100):
            if (batch.metadata or {}).get("figgen_token") == token:
                return str(batch.id)
            if batch.created_at < since - 3600:  # listed newest first: older ones cannot be it
                break
        return None

    async def status(self, batch_id: str) -> BatchStatus:
        batch = await self._client.batches.retrieve(batch_id)
        return BatchStatus(batch.status in DONE, str(batch.status))

    async def results(self, batch_id: str) -> list[BatchResult]:
        from openai.types.responses import Response

        batch = await self._client.batches.retrieve(batch_id)
        results: list[BatchResult] = []
        for file_id in (batch.output_file_id, batch.error_file_id):
            if not file_id:
                continue
            content = await self._client.files.content(file_id)
            for line in content.text.splitlines():
                if line.strip():
                    results.append(_result(line, Response, self._reply))
        return results


def _result(line: str, response_type: Any, read_reply: ReadReply) -> BatchResult:
    entry = json.loads(line)
    key = str(entry.get("custom_id"))
    response = entry.get("response") or {}
    body = response.get("body") or {}
    if response.get("status_code") == 200 and "error" not in body:
        # the SDK's own lenient construction, as for a live response
        return BatchResult(key, "reply", reply=read_reply(response_type.construct(**body)))
    error = entry.get("error") or body.get("error")
    code = error.get("code") if isinstance(error, dict) else None
    if code in EXPIRED_CODES:
        return BatchResult(key, "missing", error=error_text(error))
    return BatchResult(key, "error", error=error_text(error))
