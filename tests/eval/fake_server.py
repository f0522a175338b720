"""A local OpenAI-compatible HTTP server for tests: scripted replies, errors and usage."""

from __future__ import annotations

import base64
import io
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from PIL import Image

QID = re.compile(r"\[(q\d+)\]")


@dataclass
class Request:
    """What the server saw: path, model, question id, image size and the body."""

    path: str
    model: str
    qid: str | None
    image_size: tuple[int, int] | None
    body: dict[str, Any]
    status: int | None = None


@dataclass
class Response:
    status: int
    body: dict[str, Any]
    headers: dict[str, str] = field(default_factory=dict)


# a handler gets the request and how many times this qid was seen before, returns a Response
Handler = Callable[[Request, int], Response]


def chat_reply(model: str, text: str, prompt_tokens: int, completion_tokens: int) -> Response:
    return Response(
        200,
        {
            "id": "chatcmpl-test",
            "object": "chat.completion",
            "created": 0,
            "model": model,
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": text},
                }
            ],
            "usage": {
                "prompt_tokens": prompt_tokens,
                "completion_tokens": completion_tokens,
                "total_tokens": prompt_tokens + completion_tokens,
            },
        },
    )


def responses_reply(model: str, text: str, input_tokens: int, output_tokens: int) -> Response:
    return Response(
        200,
        {
            "id": "resp-test",
            "object": "response",
            "created_at": 0,
            "model": model,
            "status": "completed",
            "output": [
                {
                    "type": "message",
                    "id": "msg-test",
                    "status": "completed",
                    "role": "assistant",
                    "content": [{"type": "output_text", "text": text, "annotations": []}],
                }
            ],
            "usage": {
                "input_tokens": input_tokens,
                "output_tokens": output_tokens,
                "total_tokens": input_tokens + output_tokens,
            },
        },
    )


def messages_reply(model: str, text: str, input_tokens: int, output_tokens: int) -> Response:
    """An Anthropic Messages reply."""
    return Response(
        200,
        {
            "id": "msg-test",
            "type": "message",
            "role": "assistant",
            "model": model,
            "content": [{"type": "text", "text": text}],
            "stop_reason": "end_turn",
            "stop_sequence": None,
            "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
        },
    )


def gemini_reply(
    text: str, prompt_tokens: int, candidates_tokens: int, thoughts: int = 0
) -> Response:
    """A Gemini generateContent reply."""
    return Response(
        200,
        {
            "candidates": [
                {
                    "content": {"role": "model", "parts": [{"text": text}]},
                    "finishReason": "STOP",
                    "index": 0,
                }
            ],
            "usageMetadata": {
                "promptTokenCount": prompt_tokens,
                "candidatesTokenCount": candidates_tokens,
                "thoughtsTokenCount": thoughts,
                "totalTokenCount": prompt_tokens + candidates_tokens + thoughts,
            },
        },
    )


def error(status: int, message: str, code: str | None = None) -> Response:
    return Response(
        status,
        {
            "error": {
                "message": message,
                "type": "invalid_request_error",
                "param": None,
                "code": code,
            }
        },
    )


def _parts(body: dict[str, Any]) -> tuple[str, str | None]:
    """The prompt text and the image data URL of a chat or responses request."""
    texts, image = [], None
    messages = body.get("messages") or body.get("input") or body.get("contents") or []
    for message in messages:
        content = message.get("content", message.get("parts", []))
        if isinstance(content, str):  # a conversation's plain-text turn
            texts.append(content)
            continue
        for part in content:
            if part.get("type") in ("text", "input_text") or "text" in part:
                texts.append(part["text"])
            elif part.get("type") == "image_url":
                image = part["image_url"]["url"]
            elif part.get("type") == "input_image":
                image = part["image_url"]
            elif part.get("type") == "image":  # anthropic
                image = "base64," + part["source"]["data"]
            elif "inlineData" in part or "inline_data" in part:  # gemini
                inline = part.get("inlineData") or part.get("inline_data")
                image = "base64," + inline["data"]
    return "\n".join(texts), image


def _image_size(url: str | None) -> tuple[int, int] | None:
    if url is None:
        return None
    encoded = url.split(",", 1)[1].replace("-", "+").replace("_", "/")
    data = base64.b64decode(encoded + "=" * (-len(encoded) % 4))
    with Image.open(io.BytesIO(data)) as img:
        return img.size


@dataclass
class FakeServer:
    """Serves chat completions, Messages and Gemini (and Responses if asked) on 127.0.0.1."""

    handler: Handler
    responses: bool = False
    chat: bool = True
    requests: list[Request] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        server = self

        class _Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802  (http.server's name)
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                response = server._handle(self.path, body, dict(self.headers))
                payload = json.dumps(response.body).encode()
                self.send_response(response.status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                for name, value in response.headers.items():
                    self.send_header(name, value)
                self.end_headers()
                self.wfile.write(payload)

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    def _handle(self, path: str, body: dict[str, Any], headers: dict[str, str]) -> Response:
        text, image = _parts(body)
        match = QID.search(text)
        request = Request(
            path, body.get("model", ""), match.group(1) if match else None, _image_size(image), body
        )
        with self._lock:
            seen = sum(1 for r in self.requests if r.qid == request.qid and r.path == path)
            self.requests.append(request)
            self.headers.append({k.lower(): v for k, v in headers.items()})
        supported = (
            path.endswith(("/messages", ":generateContent"))
            or (self.chat and path.endswith("/chat/completions"))
            or (self.responses and path.endswith("/responses"))
        )
        response = self.handler(request, seen) if supported else error(404, f"no route {path}")
        request.status = response.status
        return response

    @property
    def root_url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}"

    @property
    def base_url(self) -> str:
        return f"{self.root_url}/v1"

    def __enter__(self) -> FakeServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(timeout=5)
