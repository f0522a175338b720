"""Serve a study's page on 127.0.0.1: the page, the sample's images, and an answers endpoint.

``GET /`` is the page with the questions (never their answers) and those already answered;
``GET /api/state`` the answered qids again (the page asks after the server comes back);
``POST /api/answer`` with ``{"qid", "value", "elapsed_s", "skipped"}`` records one answer
and replies ``{"answered": n}``, or 422 with ``{"error"}`` when the input cannot be read
(the page shows it and the person corrects it).
"""

from __future__ import annotations

import json
import logging
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from typing import Any

from figgen.errors import FiggenError
from figgen.human.inputs import InvalidAnswer
from figgen.human.study import Study
from figgen.view.page import render_json

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
MAX_BODY = 256 * 1024
"""An answer is a few hundred bytes; a larger request is refused unread."""


class HumanServer(ThreadingHTTPServer):
    """A threading HTTP server that knows its study (and closes its answers file)."""

    def __init__(self, port: int, study: Study) -> None:
        self.study = study  # before binding: a failed bind closes the server at once
        super().__init__((HOST, port), _Handler)

    def server_close(self) -> None:
        super().server_close()
        self.study.close()


def render_human_page(payload: dict[str, Any]) -> str:
    """The page for a study's payload (questions and progress inline as JSON)."""
    template = files("figgen.human").joinpath("page.html").read_text(encoding="utf-8")
    return template.replace("__PAYLOAD__", render_json(payload))


class _Handler(BaseHTTPRequestHandler):
    server: HumanServer

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        study = self.server.study
        path = self.path.split("?", 1)[0]
        if path in ("/", "/index.html"):
            page = render_human_page(study.payload())
            self._send(page.encode("utf-8"), "text/html; charset=utf-8", cache=False)
        elif path == "/api/state":
            self._json({"answered": study.payload()["answered"]})
        elif path in study.images:
            self._send(study.images[path].read_bytes(), "image/png", cache=True)
        else:
            self.send_error(HTTPStatus.NOT_FOUND)

    def do_POST(self) -> None:  # noqa: N802
        if self.path != "/api/answer":
            self.send_error(HTTPStatus.NOT_FOUND)
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 < length <= MAX_BODY:
            self._json({"error": "send one answer as a JSON body"}, HTTPStatus.BAD_REQUEST)
            return
        try:
            body = json.loads(self.rfile.read(length))
            if not isinstance(body, dict):
                raise ValueError("not an object")
        except ValueError:
            self._json({"error": "the body is not a JSON object"}, HTTPStatus.BAD_REQUEST)
            return
        try:
            answered = self.server.study.record(
                body.get("qid"),
                body.get("value"),
                body.get("elapsed_s"),
                skipped=bool(body.get("skipped")),
            )
        except InvalidAnswer as exc:
            self._json({"error": str(exc)}, HTTPStatus.UNPROCESSABLE_ENTITY)
        except FiggenError as exc:
            self._json({"error": str(exc)}, HTTPStatus.BAD_REQUEST)
        else:
            self._json({"answered": answered})

    def _json(self, value: Any, status: HTTPStatus = HTTPStatus.OK) -> None:
        self._send(json.dumps(value).encode("utf-8"), "application/json", status=status)

    def _send(
        self,
        content: bytes,
        media_type: str,
        *,
        status: HTTPStatus = HTTPStatus.OK,
        cache: bool = False,
    ) -> None:
        self.send_response(status)
        self.send_header("Content-Type", media_type)
        self.send_header("Content-Length", str(len(content)))
        # images never change; the page and state always may (answers arrive)
        self.send_header("Cache-Control", "max-age=3600" if cache else "no-store")
        self.end_headers()
        self.wfile.write(content)

    def log_message(self, format: str, *args: Any) -> None:
        logger.debug(format, *args)


def human_server(study: Study, *, port: int = 8766) -> HumanServer:
    """A server (not yet serving) for ``study``; ``port=0`` picks a free port."""
    try:
        return HumanServer(port, study)
    except OSError as exc:
        raise FiggenError(
            f"cannot listen on {HOST}:{port} ({exc.strerror}); pass another --port"
        ) from None
