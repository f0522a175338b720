"""``figgen view`` command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def view(
    data_dir: Annotated[Path, typer.Argument(help="Dataset folder written by `figgen build`.")],
    answers: Annotated[
        list[Path] | None,
        typer.Option("--answers", help="Answers file of `figgen eval run` (repeatable)."),
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write this static HTML page instead of serving."),
    ] = None,
    port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1 to serve on.")] = 8765,
    figure: Annotated[
        list[str] | None, typer.Option("--figure", help="Only these figures (repeatable).")
    ] = None,
) -> None:
    """Browse a build: boxes by kind, element records on hover, questions with their evidence."""
    if out is not None:
        from figgen.view.page import write_view

        path = write_view(data_dir, out, answers=answers or (), figures=figure)
        typer.echo(f"wrote {path}; open it in a browser (it loads the images from {data_dir})")
        return
    from figgen.view.server import serve_until_interrupted, view_server

    server = view_server(data_dir, port=port, answers=answers or (), figures=figure)
    bound = server.server_address[1]
    typer.echo(f"serving {data_dir} at http://127.0.0.1:{bound}/ (Ctrl-C stops)")
    serve_until_interrupted(server)


def register(app: typer.Typer) -> None:
    """Add the view command to the top-level app."""
    app.command("view")(view)
