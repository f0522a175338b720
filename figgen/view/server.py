"""Serve the viewer page and the build's images on 127.0.0.1 only."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from figgen.errors import FiggenError
from figgen.view.page import render_page
from figgen.view.payload import view_payload

logger = logging.getLogger(__name__)

HOST = "127.0.0.1"
IMAGES = "/images/"


def view_server(
    data_dir: str | Path,
    *,
    port: int = 8765,
    answers: Iterable[str | Path] = (),
    figures: Iterable[str] | None = None,
) -> ThreadingHTTPServer:
    """A server (not yet serving) for the page at ``/`` and the images it names.

    Only the build's own images are served, by name; no other path of the disk is reachable.
    ``port=0`` picks a free port (``server.server_address[1]``).
    """
    images: dict[str, Path] = {}

    def image_url(path: Path) -> str:
        images[path.name] = path
        return f"{IMAGES}{path.name}"

    page = render_page(view_payload(data_dir, image_url, answers=answers, figures=figures))
    body = page.encode("utf-8")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
            path = self.path.split("?", 1)[0]
            if path in ("/", "/index.html"):
                self._send(body, "text/html; charset=utf-8")
            elif path.startswith(IMAGES) and path[len(IMAGES) :] in images:
                self._send(images[path[len(IMAGES) :]].read_bytes(), "image/png")
            else:
                self.send_error(HTTPStatus.NOT_FOUND)

        def _send(self, content: bytes, media_type: str) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", media_type)
            self.send_header("Content-Length", str(len(content)))
            self.end_headers()
            self.wfile.write(content)

        def log_message(self, format: str, *args: Any) -> None:
            logger.debug(format, *args)

    try:
        return ThreadingHTTPServer((HOST, port), Handler)
    except OSError as exc:
        raise FiggenError(
            f"cannot listen on {HOST}:{port} ({exc.strerror}); pass another --port"
        ) from None


def serve_until_interrupted(server: ThreadingHTTPServer) -> None:
    """Serve until Ctrl-C, then close the server (and whatever its ``server_close`` closes)."""
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
