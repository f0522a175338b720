"""A loopback server speaking the three vendors' live and batch APIs, with a prompt cache.

It answers what the official SDKs send: OpenAI Responses, chat completions, Files and the
Batch API; Anthropic Messages and Message Batches; Gemini generateContent, the resumable file
upload, batch mode and file download. Every reply reports its usage the way that vendor
does (OpenAI ``cached_tokens`` inside the input count, Anthropic ``cache_read_input_tokens``
and ``cache_creation_input_tokens`` beside an uncached ``input_tokens``, Gemini
``cachedContentTokenCount`` inside ``promptTokenCount``), from its own token rule and a cache
of image prefixes that fills only once a request has been answered. ``billed`` logs what each
reply reported, so a test can price a run independently.
"""

from __future__ import annotations

import hashlib
import io
import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.parser import BytesParser
from http.server import BaseHTTPRequestHandler
from typing import Any
from urllib.parse import urlparse

from PIL import Image

from tests.eval.fake_server import QID, LoopbackServer, decode_b64, read_body, send

Answer = Callable[[str], str]
"""Given the prompt text, the reply text."""


@dataclass(frozen=True)
class Billed:
    """What one reply reported: every input token, of them the cached and written ones."""

    vendor: str
    qid: str | None
    input_tokens: int
    cached: int
    written: int
    output_tokens: int
    batch: bool


def _image_tokens(data: bytes) -> int:
    with Image.open(io.BytesIO(data)) as img:
        width, height = img.size
    return max(1, width * height // 750)


def _text_tokens(text: str) -> int:
    return len(text) // 4 + 1


@dataclass
class _Batch:
    vendor: str
    id: str
    requests: list[dict[str, Any]]
    meta: dict[str, Any]
    polls: int = 0
    results: list[dict[str, Any]] | None = None
    state: str = "running"


@dataclass
class FakeVendors(LoopbackServer):
    """The server; ``polls`` is how many status checks a batch stays running for, and the
    first ``expire`` batches end expired with their last ``expire_last`` requests unrun."""

    methods = frozenset({"GET", "POST"})

    answer: Answer
    min_cache_tokens: int = 256
    polls: int = 1
    expire: int = 0
    expire_last: int = 0
    billed: list[Billed] = field(default_factory=list)
    created: list[_Batch] = field(default_factory=list)
    live_requests: list[dict[str, Any]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._cache: set[str] = set()
        self._files: dict[str, bytes] = {}
        self._uploads: dict[str, dict[str, Any]] = {}
        self._listen()

    def serve(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        status, payload, headers = self._handle(
            method,
            handler.path,
            read_body(handler),
            {k.lower(): v for k, v in handler.headers.items()},
        )
        body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        send(handler, status, body, headers)

    # ---- the model and its cache -------------------------------------------------------

    def _ask(
        self, vendor: str, images: list[bytes], text: str, cache_asked: bool, batch: bool
    ) -> tuple[str, Billed]:
        """The reply to one request and its usage; the prefix is cached once answered."""
        prefix = sum(_image_tokens(data) for data in images)
        digest = hashlib.sha256(b"".join(images)).hexdigest()
        reply = self.answer(text)
        cacheable = prefix >= self.min_cache_tokens and (vendor != "anthropic" or cache_asked)
        with self._lock:
            hit = cacheable and digest in self._cache
        cached = prefix if hit else 0
        written = prefix if cacheable and not hit and vendor == "anthropic" else 0
        match = QID.search(text)
        billed = Billed(
            vendor,
            match.group(1) if match else None,
            prefix + _text_tokens(text),
            cached,
            written,
            _text_tokens(reply),
            batch,
        )
        with self._lock:
            self.billed.append(billed)
            if cacheable:
                self._cache.add(digest)
        return reply, billed

    # ---- vendor bodies -----------------------------------------------------------------

    def _openai_responses(self, body: dict[str, Any], batch: bool) -> dict[str, Any]:
        images, texts = [], []
        for part in body["input"][0]["content"]:
            if part["type"] == "input_image":
                images.append(decode_b64(part["image_url"].split(",", 1)[1]))
            else:
                texts.append(part["text"])
        text, billed = self._ask("openai", images, "\n".join(texts), True, batch)
        return {
            "id": "resp-fake",
            "object": "response",
            "created_at": 0,
            "model": body["model"],
            "status": "completed",
            "parallel_tool_calls": True,
            "tool_choice": "auto",
            "tools": [],
            "output": [
                {
                    "type": "message",
                    "id": "msg-fake",
                    "status": "completed",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": text, "annotations": []}],
                }
            ],
            "usage": {
                "input_tokens": billed.input_tokens,
                "input_tokens_details": {"cached_tokens": billed.cached},
                "output_tokens": billed.output_tokens,
                "output_tokens_details": {"reasoning_tokens": 0},
                "total_tokens": billed.input_tokens + billed.output_tokens,
            },
        }

    def _openai_chat(self, body: dict[str, Any]) -> dict[str, Any]:
        images, texts = [], []
        for part in body["messages"][0]["content"]:
            if part["type"] == "image_url":
                images.append(decode_b64(part["image_url"]["url"].split(",", 1)[1]))
            else:
                texts.append(part["text"])
        text, billed = self._ask("openai", images, "\n".join(texts), True, False)
        return {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": body["model"],
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": text},
                }
            ],
            "usage": {
                "prompt_tokens": billed.input_tokens,
                "completion_tokens": billed.output_tokens,
                "total_tokens": billed.input_tokens + billed.output_tokens,
                "prompt_tokens_details": {"cached_tokens": billed.cached},
            },
        }

    def _anthropic(self, body: dict[str, Any], batch: bool) -> dict[str, Any]:
        images, texts, cache_asked = [], [], False
        for part in body["messages"][0]["content"]:
            if part["type"] == "image":
                images.append(decode_b64(part["source"]["data"]))
                cache_asked = cache_asked or part.get("cache_control") == {"type": "ephemeral"}
            else:
                texts.append(part["text"])
        text, billed = self._ask("anthropic", images, "\n".join(texts), cache_asked, batch)
        return {
            "id": "msg-fake",
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {
                "input_tokens": billed.input_tokens - billed.cached - billed.written,
                "cache_read_input_tokens": billed.cached,
                "cache_creation_input_tokens": billed.written,
                "output_tokens": billed.output_tokens,
            },
        }

    def _gemini(self, body: dict[str, Any], batch: bool) -> dict[str, Any]:
        images, texts = [], []
        for part in body["contents"][0]["parts"]:
            inline = part.get("inlineData") or part.get("inline_data")
            if inline:
                images.append(decode_b64(inline["data"]))
            else:
                texts.append(part["text"])
        text, billed = self._ask("gemini", images, "\n".join(texts), True, batch)
        return {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": text}]},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {
                "promptTokenCount": billed.input_tokens,
                "cachedContentTokenCount": billed.cached,
                "candidatesTokenCount": billed.output_tokens,
                "totalTokenCount": billed.input_tokens + billed.output_tokens,
            },
        }

    # ---- batches -----------------------------------------------------------------------

    def _new_batch(
        self, vendor: str, requests: list[dict[str, Any]], meta: dict[str, Any]
    ) -> _Batch:
        with self._lock:
            batch = _Batch(vendor, f"batch_{len(self.created) + 1}", requests, meta)
            self.created.append(batch)
        return batch

    def _poll(self, batch: _Batch) -> None:
        """Count a status check; once done, run the requests in order (so the cache warms)."""
        batch.polls += 1
        if batch.polls <= self.polls or batch.results is not None:
            return
        index = self.created.index(batch)
        expired = index < self.expire
        run = (
            batch.requests[: len(batch.requests) - self.expire_last] if expired else batch.requests
        )
        batch.results = [self._run_one(batch.vendor, request) for request in run]
        batch.state = "expired" if expired else "done"
        # keep the keys only: a benchmark's batches hold hundreds of MB of images
        batch.requests = [{k: r[k] for k in ("custom_id", "key") if k in r} for r in batch.requests]

    def _run_one(self, vendor: str, request: dict[str, Any]) -> dict[str, Any]:
        if vendor == "openai":
            return {
                "id": "batch_req",
                "custom_id": request["custom_id"],
                "response": {
                    "status_code": 200,
                    "request_id": "req",
                    "body": self._openai_responses(request["body"], True),
                },
                "error": None,
            }
        if vendor == "anthropic":
            return {
                "custom_id": request["custom_id"],
                "result": {
                    "type": "succeeded",
                    "message": self._anthropic(request["params"], True),
                },
            }
        return {"key": request["key"], "response": self._gemini(request["request"], True)}

    def _openai_batch(self, batch: _Batch) -> dict[str, Any]:
        done = batch.results is not None
        output = f"file-out-{batch.id}" if done else None
        errors = None
        if done and batch.state == "expired":
            errors = f"file-err-{batch.id}"
            ran = {r["custom_id"] for r in batch.results or []}
            lines = [
                {
                    "id": "batch_req",
                    "custom_id": r["custom_id"],
                    "response": None,
                    "error": {"code": "batch_expired", "message": "This request expired"},
                }
                for r in batch.requests
                if r["custom_id"] not in ran
            ]
            self._files[errors] = "".join(json.dumps(line) + "\n" for line in lines).encode()
        if output:
            self._files[output] = "".join(
                json.dumps(r) + "\n" for r in batch.results or []
            ).encode()
        return {
            "id": batch.id,
            "object": "batch",
            "endpoint": "/v1/responses",
            "completion_window": "24h",
            "created_at": int(datetime.now(UTC).timestamp()),
            "input_file_id": batch.meta["input_file_id"],
            "status": ("expired" if batch.state == "expired" else "completed")
            if done
            else "in_progress",
            "output_file_id": output,
            "error_file_id": errors,
            "metadata": batch.meta.get("metadata"),
            "request_counts": {"total": len(batch.requests), "completed": 0, "failed": 0},
        }

    def _anthropic_batch(self, batch: _Batch) -> dict[str, Any]:
        done = batch.results is not None
        now = datetime.now(UTC)
        ran = len(batch.results or [])
        return {
            "id": batch.id,
            "type": "message_batch",
            "processing_status": "ended" if done else "in_progress",
            "request_counts": {
                "processing": 0 if done else len(batch.requests),
                "succeeded": ran,
                "errored": 0,
                "canceled": 0,
                "expired": len(batch.requests) - ran if done else 0,
            },
            "created_at": batch.meta["created_at"],
            "expires_at": (now + timedelta(days=1)).isoformat(),
            "ended_at": now.isoformat() if done else None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{self.root_url}/v1/messages/batches/{batch.id}/results"
            if done
            else None,
        }

    def _anthropic_results(self, batch: _Batch) -> bytes:
        lines = list(batch.results or [])
        ran = {r["custom_id"] for r in lines}
        lines += [
            {"custom_id": r["custom_id"], "result": {"type": "expired"}}
            for r in batch.requests
            if r["custom_id"] not in ran
        ]
        return "".join(json.dumps(line) + "\n" for line in lines).encode()

    def _gemini_batch(self, batch: _Batch) -> dict[str, Any]:
        done = batch.results is not None
        state = "BATCH_STATE_RUNNING"
        metadata: dict[str, Any] = {"displayName": batch.meta["displayName"], "model": "m"}
        if done and batch.state == "expired":
            state = "BATCH_STATE_EXPIRED"
        elif done:
            state = "BATCH_STATE_SUCCEEDED"
            name = f"files/out-{batch.id}"
            self._files[name] = "".join(json.dumps(r) + "\n" for r in batch.results or []).encode()
            metadata["output"] = {"responsesFile": name}
        metadata["state"] = state
        return {"name": f"batches/{batch.id}", "metadata": metadata, "done": done}

    # ---- routing -----------------------------------------------------------------------

    def _handle(
        self, method: str, path: str, raw: bytes, headers: dict[str, str]
    ) -> tuple[int, dict[str, Any] | bytes, dict[str, str]]:
        route = urlparse(path).path
        body = None
        if raw and not route.startswith("/upload-session/"):  # uploads carry JSONL
            try:
                body = json.loads(raw)
            except ValueError:  # a multipart file upload
                body = None
        batches = {b.id: b for b in self.created}
        # live calls
        if method == "POST" and route.endswith("/responses"):
            assert body is not None
            self.live_requests.append(body)
            return 200, self._openai_responses(body, False), {}
        if method == "POST" and route.endswith("/chat/completions"):
            assert body is not None
            self.live_requests.append(body)
            return 200, self._openai_chat(body), {}
        if method == "POST" and route == "/v1/messages":
            assert body is not None
            self.live_requests.append(body)
            return 200, self._anthropic(body, False), {}
        if method == "POST" and route.endswith(":generateContent"):
            assert body is not None
            self.live_requests.append(body)
            return 200, self._gemini(body, False), {}
        # OpenAI files and batches
        if method == "POST" and route == "/v1/files":
            content_type = headers["content-type"]
            message = BytesParser().parsebytes(
                b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + raw
            )
            data = next(
                part.get_payload(decode=True)
                for part in message.walk()
                if part.get_param("name", header="content-disposition") == "file"
            )
            file_id = f"file-{len(self._files) + 1}"
            self._files[file_id] = data
            return (
                200,
                {
                    "id": file_id,
                    "object": "file",
                    "bytes": len(data),
                    "created_at": 0,
                    "filename": "requests.jsonl",
                    "purpose": "batch",
                    "status": "processed",
                },
                {},
            )
        if method == "POST" and route == "/v1/batches":
            assert body is not None
            lines = self._files.pop(body["input_file_id"]).decode().splitlines()
            batch = self._new_batch("openai", [json.loads(line) for line in lines], body)
            return 200, self._openai_batch(batch), {}
        if method == "GET" and route == "/v1/batches" and "pageSize" not in path:
            data = [self._openai_batch(b) for b in reversed(self.created) if b.vendor == "openai"]
            return 200, {"object": "list", "data": data, "has_more": False}, {}
        if method == "GET" and route.startswith("/v1/files/") and route.endswith("/content"):
            return 200, self._files[route.split("/")[3]], {}
        # Anthropic message batches
        if method == "POST" and route == "/v1/messages/batches":
            assert body is not None
            meta = {"created_at": datetime.now(UTC).isoformat()}
            batch = self._new_batch("anthropic", body["requests"], meta)
            return 200, self._anthropic_batch(batch), {}
        if method == "GET" and route == "/v1/messages/batches":
            data = [
                self._anthropic_batch(b) for b in reversed(self.created) if b.vendor == "anthropic"
            ]
            return 200, {"data": data, "has_more": False, "first_id": None, "last_id": None}, {}
        if method == "GET" and route.startswith("/v1/messages/batches/"):
            parts = route.split("/")
            batch = batches[parts[4]]
            if route.endswith("/results"):
                return 200, self._anthropic_results(batch), {}
            self._poll(batch)
            return 200, self._anthropic_batch(batch), {}
        # Gemini files (resumable upload), batches, download
        if method == "POST" and route.startswith("/upload/") and route.endswith("/files"):
            session = f"s{len(self._uploads) + 1}"
            self._uploads[session] = {"data": b"", "meta": body or {}}
            return 200, {}, {"x-goog-upload-url": f"{self.root_url}/upload-session/{session}"}
        if method == "POST" and route.startswith("/upload-session/"):
            session = self._uploads[route.rsplit("/", 1)[1]]
            session["data"] += raw
            if "finalize" not in headers.get("x-goog-upload-command", ""):
                return 200, {}, {"x-goog-upload-status": "active"}
            name = f"files/in-{len(self._files) + 1}"
            self._files[name] = session["data"]
            file = {"name": name, "mimeType": "application/jsonl", "sizeBytes": str(len(raw))}
            return 200, {"file": file}, {"x-goog-upload-status": "final"}
        if method == "POST" and route.endswith(":batchGenerateContent"):
            assert body is not None
            spec = body["batch"]
            lines = self._files.pop(spec["inputConfig"]["fileName"]).decode().splitlines()
            meta = {"displayName": spec.get("displayName")}
            batch = self._new_batch("gemini", [json.loads(line) for line in lines], meta)
            return 200, self._gemini_batch(batch), {}
        if method == "GET" and route.endswith("/batches"):
            operations = [self._gemini_batch(b) for b in self.created if b.vendor == "gemini"]
            return 200, {"operations": operations}, {}
        if method == "GET" and "/batches/" in route:  # OpenAI's and Gemini's retrieve
            batch = batches[route.rsplit("/", 1)[1]]
            self._poll(batch)
            render = self._openai_batch if batch.vendor == "openai" else self._gemini_batch
            return 200, render(batch), {}
        if method == "GET" and route.endswith(":download"):
            name = "files/" + route.rsplit("/", 1)[1].removesuffix(":download")
            return 200, self._files[name], {}
        return 404, {"error": {"message": f"no route {method} {route}"}}, {}
