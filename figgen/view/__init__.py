"""A browser view of a build: figures with their element boxes, questions and scored answers."""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen._util.lazy import lazy_exports

if TYPE_CHECKING:
    from figgen.view.page import render_page, write_view
    from figgen.view.payload import view_payload
    from figgen.view.server import view_server

__getattr__ = lazy_exports(
    __name__,
    {
        "render_page": "figgen.view.page",
        "write_view": "figgen.view.page",
        "view_payload": "figgen.view.payload",
        "view_server": "figgen.view.server",
    },
)

__all__ = ["render_page", "view_payload", "view_server", "write_view"]
