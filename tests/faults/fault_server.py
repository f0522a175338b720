"""A loopback model server that misbehaves on purpose, below and above HTTP.

It speaks the four SDK paths figgen uses (OpenAI chat completions and Responses, Anthropic
Messages, Gemini generateContent) with the reply builders of ``tests/eval/fake_server.py``,
and a plan chooses per request what goes wrong: a status burst, a 429 with or without
``Retry-After``, a body cut short (with an honest or a lying ``Content-Length``), a TCP reset
half-way through the body, a slow trickle, a stall past the client's timeout, an answer
larger than figgen keeps, or a reply without usage.
"""

from __future__ import annotations

import json
import socket
import struct
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any, Literal

from tests.eval.fake_server import (
    QID,
    LoopbackServer,
    Response,
    chat_reply,
    gemini_reply,
    messages_reply,
    read_body,
    request_parts,
    responses_reply,
)

Api = Literal["chat", "responses", "messages", "gemini"]


def api_of(path: str) -> Api | None:
    if path.endswith("/chat/completions"):
        return "chat"
    if path.endswith("/responses"):
        return "responses"
    if path.endswith("/messages"):
        return "messages"
    if path.endswith(":generateContent"):
        return "gemini"
    return None


def reply(api: Api, text: str, tokens: tuple[int, int] = (1000, 10)) -> Response:
    """A successful reply of ``api`` carrying ``text`` and the given usage."""
    if api == "chat":
        return chat_reply("m", text, *tokens)
    if api == "responses":
        return responses_reply("m", text, *tokens)
    if api == "messages":
        return messages_reply("m", text, *tokens)
    return gemini_reply(text, *tokens)


def without_usage(response: Response) -> Response:
    body = {k: v for k, v in response.body.items() if k not in ("usage", "usageMetadata")}
    return Response(response.status, body, response.headers)


def status(api: Api, code: int, headers: dict[str, str] | None = None) -> Response:
    """An error reply in the vendor's own shape."""
    message = {429: "rate limited", 529: "overloaded"}.get(code, "server error")
    if api == "messages":
        body: dict[str, Any] = {"type": "error", "error": {"type": "api_error", "message": message}}
    elif api == "gemini":
        body = {"error": {"code": code, "message": message, "status": "UNAVAILABLE"}}
    else:
        body = {"error": {"message": message, "type": "server_error", "param": None, "code": None}}
    return Response(code, body, headers or {})


@dataclass(frozen=True)
class Send:
    """Send ``response`` whole, after ``delay`` seconds."""

    response: Response
    delay: float = 0.0


@dataclass(frozen=True)
class Truncate:
    """Send only the first ``keep`` share of the body, then close the connection.

    ``honest_length``: the Content-Length header names the short body (so the HTTP layer is
    satisfied and the JSON is cut); otherwise it names the full body (a dropped connection).
    """

    response: Response
    keep: float = 0.5
    honest_length: bool = False


@dataclass(frozen=True)
class Reset:
    """Send the headers and ``keep`` of the body, then abort the TCP connection (RST)."""

    response: Response
    keep: float = 0.3


@dataclass(frozen=True)
class Trickle:
    """Send the body ``chunk`` bytes at a time, ``interval`` seconds apart."""

    response: Response
    chunk: int = 64
    interval: float = 0.05


Action = Send | Truncate | Reset | Trickle

# a plan gets the API, the question id and how often that qid was asked before
Plan = Callable[[Api, str, int], Action]


@dataclass
class FaultServer(LoopbackServer):
    """Serves the four APIs on 127.0.0.1, misbehaving as ``plan`` says."""

    http11 = True
    daemon_threads = True

    plan: Plan
    apis: frozenset[Api] = frozenset({"chat", "responses", "messages", "gemini"})
    echo_credentials: bool = False
    """Put the credentials the client sent into every error message, as careless servers do."""
    credentials: set[str] = field(default_factory=set)
    asked: Counter[str] = field(default_factory=Counter)
    times: dict[str, list[float]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._listen()

    def serve(self, handler: BaseHTTPRequestHandler, method: str) -> None:
        body = json.loads(read_body(handler))
        api = api_of(handler.path)
        text, _ = request_parts(body)
        match = QID.search(text)
        qid = match.group(1) if match else "?"
        sent = {
            value
            for name in ("authorization", "x-api-key", "x-goog-api-key")
            if (value := handler.headers.get(name))
        }
        self.credentials |= sent
        if api is None or api not in self.apis:  # not counted: no API was reached
            self._write(handler, Send(status("chat", 404)), sent)
            return
        with self._lock:
            seen = self.asked[qid]
            self.asked[qid] += 1
            self.times.setdefault(qid, []).append(time.monotonic())
        self._write(handler, self.plan(api, qid, seen), sent)

    def _write(self, handler: BaseHTTPRequestHandler, action: Action, sent: set[str]) -> None:
        response = action.response
        body = response.body
        if self.echo_credentials and response.status >= 400 and "error" in body:
            error = {**body["error"], "message": f"{body['error']['message']} (sent {sent})"}
            body = {**body, "error": error}
        payload = json.dumps(body).encode()
        if isinstance(action, Send) and action.delay:
            time.sleep(action.delay)
        cut = payload
        if isinstance(action, Truncate | Reset):
            cut = payload[: int(len(payload) * action.keep)]
        length = len(cut) if isinstance(action, Truncate) and action.honest_length else len(payload)
        handler.send_response(response.status)
        handler.send_header("Content-Type", "application/json")
        handler.send_header("Content-Length", str(length))
        for name, value in response.headers.items():
            handler.send_header(name, value)
        if not isinstance(action, Send):
            handler.send_header("Connection", "close")
        handler.end_headers()
        try:
            if isinstance(action, Trickle):
                for start in range(0, len(payload), action.chunk):
                    handler.wfile.write(payload[start : start + action.chunk])
                    handler.wfile.flush()
                    time.sleep(action.interval)
            else:
                handler.wfile.write(cut)
                handler.wfile.flush()
        except (BrokenPipeError, ConnectionResetError):
            return  # the client gave up first (its timeout): nothing more to send
        if isinstance(action, Reset):
            # linger 0: close() sends RST instead of FIN, as a crashed proxy does
            handler.connection.setsockopt(
                socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0)
            )
            handler.connection.close()
            handler.close_connection = True
        elif not isinstance(action, Send):
            handler.close_connection = True
