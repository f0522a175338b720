"""The loopback model servers of the tests, and the scripted one most tests use.

:class:`LoopbackServer` is the HTTP server on 127.0.0.1 in a thread that all of them are:
:class:`FakeServer` here (scripted replies, errors and usage on the OpenAI, Anthropic and
Gemini paths), ``tests/faults/fault_server.py`` (misbehaving below and above HTTP) and
``tests/eval/fake_vendors.py`` (the vendors' live and batch APIs with a prompt cache). They
share the reply builders, the request reading and the image decoding below.
"""

from __future__ import annotations

import base64
import io
import json
import re
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Self

from PIL import Image

QID = re.compile(r"\[(q\d+)\]")


class LoopbackServer:
    """An HTTP server on 127.0.0.1 in a daemon thread; a subclass answers in :meth:`serve`.

    ``http11`` keeps connections open between requests (so a server can cut one);
    ``daemon_threads`` lets a request still being served (a stall) not hold up the exit.
    """

    http11 = False
    daemon_threads = False
    methods: frozenset[str] = frozenset({"POST"})

    def _listen(self) -> None:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1" if server.http11 else "HTTP/1.0"

            def log_message(self, *args: Any) -> None:
                pass

            def do_GET(self) -> None:  # noqa: N802  (http.server's name)
                server._dispatch(self, "GET")

            def do_POST(self) -> None:  # noqa: N802
                server._dispatch(self, "POST")

        self._http = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._http.daemon_threads = self.daemon_threads
        self._thread = threading.Thread(target=self._http.serve_forever, daemon=True)

    def _dispatch(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        if method not in self.methods:  # as http.server answers a method it lacks
            handler.send_error(501, f"Unsupported method ({method!r})")
            return
        self.serve(handler, method)

    def serve(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        """Answer one request (its method one of ``methods``) through ``handler``."""
        raise NotImplementedError

    @property
    def root_url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host!s}:{port}"

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._http.shutdown()
        self._http.server_close()
        self._thread.join(timeout=5)


def read_body(handler: BaseHTTPRequestHandler) -> bytes:
    """The request's body (empty when it has none)."""
    length = int(handler.headers.get("Content-Length", 0))
    return handler.rfile.read(length) if length else b""


def send(
    handler: BaseHTTPRequestHandler, status: int, payload: bytes, headers: dict[str, str]
) -> None:
    """Write a whole JSON reply."""
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(payload)))
    for name, value in headers.items():
        handler.send_header(name, value)
    handler.end_headers()
    handler.wfile.write(payload)


def decode_b64(text: str) -> bytes:
    """Standard or URL-safe base64, padded or not (Gemini's SDK sends URL-safe)."""
    text = text.replace("-", "+").replace("_", "/")
    return base64.b64decode(text + "=" * (-len(text) % 4))


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


def request_parts(body: dict[str, Any]) -> tuple[str, str | None]:
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
    with Image.open(io.BytesIO(decode_b64(url.split(",", 1)[1]))) as img:
        return img.size


@dataclass
class FakeServer(LoopbackServer):
    """Serves chat completions, Messages and Gemini (and Responses if asked) on 127.0.0.1."""

    handler: Handler
    responses: bool = False
    chat: bool = True
    requests: list[Request] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._listen()

    def serve(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        body = json.loads(read_body(handler) or b"{}")
        response = self._handle(handler.path, body, dict(handler.headers))
        send(handler, response.status, json.dumps(response.body).encode(), response.headers)

    def _handle(self, path: str, body: dict[str, Any], headers: dict[str, str]) -> Response:
        text, image = request_parts(body)
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
    def base_url(self) -> str:
        return f"{self.root_url}/v1"
