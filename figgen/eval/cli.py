"""``figgen eval ...`` commands."""

from __future__ import annotations

import typer

app = typer.Typer(
    help="Ask models the questions of a dataset and score their answers.", no_args_is_help=True
)
