"""``figgen qa`` command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer


def qa(
    directory: Annotated[Path, typer.Argument(help="A build directory (holds figures/*.json).")],
) -> None:
    """Rebuild DIR/qa.jsonl and DIR/descriptions.jsonl from the records, without rendering."""
    from figgen.vqa.files import write_qa

    counts = write_qa(directory)
    typer.echo(
        f"{counts['total']} questions for {counts['figures']} figures "
        f"({counts['per_figure']} per figure), {counts['descriptions']} descriptions"
    )
    typer.echo(f"by level: {json.dumps(counts['by_level'])}")
    typer.echo(f"by scope: {json.dumps(counts['by_scope'])}")


def register(app: typer.Typer) -> None:
    """Add the question commands to the top-level app."""
    app.command("qa")(qa)
