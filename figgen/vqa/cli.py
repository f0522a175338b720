"""``figgen qa`` command."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the question commands to the top-level app."""
