"""``figgen corpora ...`` commands."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Build the word and formula lists from arXiv source files.", no_args_is_help=True
)
