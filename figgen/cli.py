"""The ``figgen`` command: thin wrappers that parse options and call library functions."""

from __future__ import annotations

import logging

import typer

from figgen.corpora.cli import app as corpora_app
from figgen.errors import FiggenError
from figgen.eval.cli import app as eval_app
from figgen.export.cli import register as register_export_commands
from figgen.vqa.cli import register as register_qa_commands

app = typer.Typer(
    name="figgen",
    help="Build, question, evaluate and publish synthetic multi-panel figure benchmarks.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    add_completion=False,
)
app.add_typer(eval_app, name="eval")
app.add_typer(corpora_app, name="corpora")
register_qa_commands(app)
register_export_commands(app)


def main() -> None:
    """Console entry point: user errors become one line on stderr and exit code 2."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        app()
    except FiggenError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise SystemExit(2) from None
