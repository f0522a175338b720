"""A browser view of a build: figures with their element boxes, questions and scored answers."""

from figgen.view.page import render_page, write_view
from figgen.view.payload import view_payload
from figgen.view.server import view_server

__all__ = ["render_page", "view_payload", "view_server", "write_view"]
