"""The ``figgen`` command: thin wrappers that parse options and call library functions."""

from __future__ import annotations

import errno
import logging
import os
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from figgen.corpora.cli import app as corpora_app
from figgen.density.cli import app as density_app
from figgen.errors import BuildInterrupted, FiggenError
from figgen.eval.cli import app as eval_app
from figgen.export.cli import register as register_export_commands
from figgen.human.cli import register as register_human_command
from figgen.multichart.cli import app as multichart_app
from figgen.perturb.cli import register as register_perturb_commands
from figgen.view.cli import register as register_view_command
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
app.add_typer(multichart_app, name="multichart")
app.add_typer(density_app, name="density")
register_qa_commands(app)
register_export_commands(app)
register_perturb_commands(app)
register_view_command(app)
register_human_command(app)


class OutputFormat(StrEnum):
    files = "files"
    parquet = "parquet"


@app.command()
def build(
    n: Annotated[int, typer.Option("--n", help="Number of figures.")] = 200,
    out: Annotated[
        str, typer.Option("--out", help="Dataset folder: a path or an fsspec URL (s3://...).")
    ] = "dataset",
    seed: Annotated[int, typer.Option(help="Build seed; with --n it fixes every byte.")] = 0,
    workers: Annotated[int, typer.Option(help="Worker processes (default: all cores).")] = 0,
    config: Annotated[
        Path | None,
        typer.Option(
            help="TOML/JSON overrides, a preset (tiny, small), or a build's manifest.json."
        ),
    ] = None,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
    questions: Annotated[bool, typer.Option(help="Also write qa.jsonl.")] = True,
    scheduler: Annotated[
        str | None,
        typer.Option(help="Run on this Dask scheduler (tcp://HOST:PORT) instead of --workers."),
    ] = None,
    format: Annotated[
        OutputFormat,
        typer.Option("--format", help="files: PNG + JSON per figure; parquet: shards."),
    ] = OutputFormat.files,
    shard_size: Annotated[int, typer.Option(help="Figures per shard with --format parquet.")] = 100,
) -> None:
    """Generate a dataset (resumes an interrupted build of the same arguments)."""
    from figgen.build.dataset import build_dataset
    from figgen.config.load import load_config

    summary = build_dataset(
        out,
        n=n,
        seed=seed,
        workers=workers or os.cpu_count() or 1,
        config=load_config(config),
        progress=progress,
        questions=questions,
        scheduler=scheduler,
        format=format.value,
        shard_size=shard_size,
        config_source=str(config) if config is not None else None,
    )
    counts = summary.manifest["counts"]
    typer.echo(
        f"{out}: {summary.n} figures ({summary.generated} new, {summary.skipped} kept), "
        f"{counts['panels']} panels, multi-panel share {counts['multi_panel_share']:.0%}"
    )


@app.command()
def show(
    dataset: Annotated[Path, typer.Argument(help="Dataset folder.")],
    figure: Annotated[str, typer.Argument(help="Figure id, e.g. fig-000003.")],
    out: Annotated[Path, typer.Option("--out", help="PNG to write.")] = Path("boxes.png"),
    kind: Annotated[list[str] | None, typer.Option(help="Only these element kinds.")] = None,
) -> None:
    """Draw a figure's recorded boxes over its image, coloured by kind."""
    from figgen.view.boxes_png import show_boxes

    typer.echo(show_boxes(dataset, figure, out, kinds=set(kind) if kind else None))


_ENVIRONMENT_FIXES = {
    errno.ENOSPC: "free some space and run the same command again to finish",
    errno.EDQUOT: "free some space and run the same command again to finish",
    errno.EROFS: "write to a writable folder instead",
    errno.EACCES: "write to a folder you may write to instead",
    errno.EPERM: "write to a folder you may write to instead",
}
"""Failures of the machine rather than of figgen: one line, and what to do about them."""


def main() -> None:
    """Console entry point: user errors become one line on stderr and exit code 2."""
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        app()
    except BuildInterrupted as exc:
        typer.echo(str(exc), err=True)
        raise SystemExit(130) from None
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        raise SystemExit(130) from None
    except FiggenError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise SystemExit(2) from None
    except OSError as exc:
        fix = _ENVIRONMENT_FIXES.get(exc.errno or 0)
        if fix is None:
            raise
        where = f" {exc.filename}" if exc.filename else ""
        typer.echo(
            f"error: cannot write{where}: {exc.strerror}; {fix} (finished work is kept)", err=True
        )
        raise SystemExit(2) from None
