"""Gemini batch mode: a JSONL file of generateContent requests, uploaded, run, downloaded."""

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

DONE = (
    "JOB_STATE_SUCCEEDED",
    "JOB_STATE_FAILED",
    "JOB_STATE_CANCELLED",
    "JOB_STATE_EXPIRED",
    "JOB_STATE_PARTIALLY_SUCCEEDED",
)


class GeminiBatch(BatchBackend):
    """``files.upload`` + ``batches.create`` (src a file); results from ``files.download``."""

    name = "gemini"
    max_requests = 100_000
    max_bytes = 190 * 2**20  # the input file may hold 2 GB; this bounds memory

    def __init__(self, client: Any, model: str, body: RequestBody, reply: ReadReply) -> None:
        from google.genai import types

        self._client = client
        self._types = types
        self.model = model
        self._body = body
        self._reply = reply

    def request(self, key: str, prompt: Prompt, config: AskConfig) -> dict[str, Any]:
        return {"key": key, "request": self._body(prompt, config)}

    async def submit(self, requests: list[dict[str, Any]], token: str) -> str:
        types = self._types
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / f"figgen-{token}.jsonl"
            with path.open("wb") as handle:
                for entry in requests:
                    handle.write(entry_bytes(entry))
            uploaded = await self._client.aio.files.upload(
                file=str(path),
                config=types.UploadFileConfig(mime_type="jsonl", display_name=f"figgen-{token}"),
            )
        job = await self._client.aio.batches.create(
            model=self.model,
            src=uploaded.name,
            config=types.CreateBatchJobConfig(display_name=f"figgen-{token}"),
        )
        return str(job.name)

    async def find(self, token: str, n_requests: int, since: float) -> str | None:
        pager = await self._client.aio.batches.list(config={"page_size": 100})
        async for job in pager:
            if job.display_name == f"figgen-{token}":
                return str(job.name)
        return None

    async def status(self, batch_id: str) -> BatchStatus:
        job = await self._client.aio.batches.get(name=batch_id)
        state = getattr(job.state, "value", str(job.state))
        return BatchStatus(state in DONE, state)

    async def results(self, batch_id: str) -> list[BatchResult]:
        job = await self._client.aio.batches.get(name=batch_id)
        dest = job.dest
        if dest is None or not dest.file_name:
            return []
        data = await self._client.aio.files.download(file=dest.file_name)
        results = []
        for line in data.decode().splitlines():
            if not line.strip():
                continue
            entry = json.loads(line)
            key = str(entry.get("key"))
            if "response" in entry:
                response = self._types.GenerateContentResponse.model_validate(entry["response"])
                results.append(BatchResult(key, "reply", reply=self._reply(response)))
            else:
                results.append(BatchResult(key, "error", error=error_text(entry.get("error"))))
        return results
