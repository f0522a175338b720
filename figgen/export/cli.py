"""``figgen export`` and ``figgen push`` commands."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    """Add the export commands to the top-level app."""
