"""``figgen perturb`` command."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def perturb(
    directory: Annotated[Path, typer.Argument(help="A built dataset (qa.jsonl, figures/).")],
    kinds: Annotated[
        str,
        typer.Option(
            help="Comma-separated perturbations, each KIND or KIND:KEY=VALUE[:KEY=VALUE] "
            "(example above). Kinds: noise, blur, jpeg, rescale, watermark, background_text, "
            "rotate, shear, crop, pad, style."
        ),
    ],
    out: Annotated[Path, typer.Option(help="Folder for one perturbed dataset per kind.")],
    seed: Annotated[int, typer.Option(help="Seed of every random choice.")] = 0,
    progress: Annotated[bool, typer.Option(help="Show progress bars.")] = True,
) -> None:
    """Write perturbed copies of a dataset (questions unchanged, boxes moved along).

    Example:

        figgen perturb dataset --out perturbed --kinds noise,jpeg:quality=20,rotate:degrees=8
    """
    from figgen.perturb.dataset import parse_kinds, perturb_dataset
    from figgen.perturb.sets import is_set_build, perturb_sets

    specs = parse_kinds(kinds)
    if is_set_build(directory):  # a multi-chart build: every image of every set
        written = perturb_sets(directory, out, specs, seed=seed, progress=progress)
    else:
        written = perturb_dataset(directory, out, specs, seed=seed, progress=progress)
    for label, n in written.items():
        typer.echo(f"{out / label}: {n} figures written")


def register(app: typer.Typer) -> None:
    """Add the perturb command to the top-level app."""
    app.command("perturb")(perturb)
