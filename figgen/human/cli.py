"""``figgen human`` command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def human(
    data_dir: Annotated[Path, typer.Argument(help="Dataset folder written by `figgen build`.")],
    annotator: Annotated[
        str, typer.Option("--annotator", help="Your name in the report: model human:NAME.")
    ],
    sample: Annotated[
        int,
        typer.Option("--sample", help="Questions to answer (stratified by level, family, panels)."),
    ] = 40,
    seed: Annotated[
        int,
        typer.Option("--seed", help="Sample seed: the same seed gives everyone the same items."),
    ] = 0,
    out: Annotated[
        Path | None,
        typer.Option(
            "--out", help="Answers file (default human-NAME.jsonl); an existing one is resumed."
        ),
    ] = None,
    port: Annotated[int, typer.Option("--port", help="Port on 127.0.0.1 to serve on.")] = 8766,
) -> None:
    """Serve a page where a person answers a stratified sample, saved as an answers file."""
    from figgen.human.sample import sample_counts
    from figgen.human.server import human_server
    from figgen.human.study import open_study
    from figgen.view.server import serve_until_interrupted

    answers = out or Path(f"human-{annotator}.jsonl")
    study = open_study(data_dir, annotator=annotator, sample=sample, seed=seed, out=answers)
    server = human_server(study, port=port)
    counts = sample_counts(list(study.items.values()), study.dataset)
    total = len(study.plan.qids)
    typer.echo(
        f"{total} questions over {len(counts['level'])} levels, {len(counts['family'])} "
        f"families and {len(counts['panels'])} panel counts; {len(study.answered)} answered "
        f"already -> {answers}"
    )
    typer.echo(
        f"open http://127.0.0.1:{server.server_address[1]}/ (Ctrl-C stops; answers are kept)"
    )
    serve_until_interrupted(server)
    typer.echo(f"{len(study.answered)} of {total} answered -> {answers}")


def register(app: typer.Typer) -> None:
    """Add the human command to the top-level app."""
    app.command("human")(human)
