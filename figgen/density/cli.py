"""``figgen density ...``: build compounds, ask a model for their tables, score the answers."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from figgen.density.match import X_TOLERANCE
from figgen.eval.cli_options import ModelArgs, model_options, model_setup, run_and_report

app = typer.Typer(
    help="ChartDensity-Bench: charts composed k at a time, table reconstruction, analysis.",
    no_args_is_help=True,
)


class MatchingRule(StrEnum):
    greedy = "greedy"
    hungarian = "hungarian"


class ComposeMode(StrEnum):
    paper = "paper"
    native = "native"


def _densities(text: str | None) -> list[int] | None:
    from figgen.errors import FiggenError

    if not text:
        return None
    try:
        values = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise FiggenError(f"--k {text!r} is not a comma-separated list like 1,3,6,9") from None
    if not values or min(values) < 1:
        raise FiggenError(f"--k {text!r} must list positive chart counts, e.g. 1,3,6,9")
    return values


@app.command("build")
def build(
    source: Annotated[
        Path, typer.Option(help="A figgen build, or a folder of NAME.png + NAME.csv.")
    ],
    out: Annotated[Path, typer.Option(help="Output folder (manifest.json, figures/).")],
    k: Annotated[str, typer.Option("--k", help="Charts per image, comma-separated.")] = "1,3,6,9",
    mode: Annotated[
        ComposeMode, typer.Option(help="paper: resize and paste; native: re-render panels.")
    ] = ComposeMode.paper,
    seed: Annotated[int, typer.Option(help="Seed of the grouping (the paper uses 42).")] = 42,
    kinds: Annotated[
        str,
        typer.Option(
            help="Plot kinds of a figgen build used as source charts, comma-separated: line and "
            "bar (the paper's), box, range, heatmap; 'all' for every kind with a table."
        ),
    ] = "line,bar",
    progress: Annotated[bool, typer.Option(help="Show progress bars.")] = True,
) -> None:
    """Compose the source charts 1, 3, 6 or 9 at a time and write the manifest."""
    from figgen.density.compose import build_density
    from figgen.density.tables import PAPER_KINDS, panel_tables

    chosen = [name.strip() for name in kinds.split(",") if name.strip()]
    if not chosen:
        from figgen.errors import FiggenError

        raise FiggenError("--kinds is empty; name plot kinds such as line,bar or write all")
    if chosen != list(PAPER_KINDS):  # the kinds' registry, only when another choice is made
        chosen = list(panel_tables(None if chosen == ["all"] else chosen))  # unknown: an error
    manifest = build_density(
        source,
        out,
        densities=_densities(k) or [1, 3, 6, 9],
        mode=mode.value,
        seed=seed,
        kinds=chosen,
        progress=progress,
    )
    counts = ", ".join(
        f"k={d}: {sum(c.density == d for c in manifest.compounds)}" for d in manifest.densities
    )
    typer.echo(f"{out}: {len(manifest.tables)} source charts, compounds {counts}")
    if manifest.skipped:
        reasons = "; ".join(f"{n} {why}" for why, n in sorted(manifest.skipped.items()))
        typer.echo(f"panels not used as source charts: {reasons}")
    if manifest.failed:
        typer.echo(f"left out (could not be rendered): {', '.join(sorted(manifest.failed))}")


@app.command("run")
@model_options()
def run(
    data: Annotated[Path, typer.Option(help="Folder made by figgen density build.")],
    shared: ModelArgs,
    k: Annotated[str | None, typer.Option("--k", help="Only these densities.")] = None,
    limit: Annotated[int | None, typer.Option(help="Ask at most N compounds.")] = None,
) -> None:
    """Ask for every compound's tables (one call per image) and append the answers."""

    from figgen.density.manifest import load_manifest
    from figgen.density.run import oracle_provider, run_density
    from figgen.eval.run.runner import RunSummary

    setup = model_setup(shared)
    manifest = load_manifest(data)

    async def go() -> RunSummary:
        provider = (
            oracle_provider(manifest, setup.model)
            if setup.provider_name == "oracle"
            else setup.provider()
        )
        return await run_density(
            data, provider, setup.options, densities=_densities(k), limit=limit
        )

    run_and_report(setup, go, rejected="without a table")


@app.command("score")
def score(
    data: Annotated[Path, typer.Option(help="Folder made by figgen density build.")],
    answers: Annotated[list[Path], typer.Option(help="Answers file(s) from figgen density run.")],
    out: Annotated[Path, typer.Option(help="Report folder (metrics.json, report.md, PNGs).")],
    x_tolerance: Annotated[
        float, typer.Option(help="Numeric x match tolerance, as a fraction of the x range.")
    ] = X_TOLERANCE,
    matching: Annotated[
        MatchingRule,
        typer.Option(help="greedy: A.1's literal rule; hungarian: optimal assignment."),
    ] = MatchingRule.greedy,
    reference_model: Annotated[
        str | None, typer.Option(help="Reference model of the mixed model (default: first).")
    ] = None,
) -> None:
    """Score every reply as appendix A.1 defines and write the paper's tables and plots."""
    from figgen.density.report import write_report
    from figgen.errors import FiggenError

    if not 0 < x_tolerance <= 1:
        raise FiggenError(f"--x-tolerance {x_tolerance} must be in (0, 1], e.g. 0.05")
    metrics = write_report(
        data,
        answers,
        out,
        x_tolerance=x_tolerance,
        matching=matching.value,
        reference_model=reference_model,
    )
    for model, values in metrics["models"].items():
        for density, e in values["by_density"].items():
            mae = "n/a" if e["mae"] is None else f"{e['mae']:.2f}"
            typer.echo(
                f"{model} k={density}: RFV {e['rfv']:.3f}, EC clipped {e['ec_clipped'] or 0:.3f} "
                f"(A.1 {e['ec'] or 0:.3f}), MAE {mae}"
            )
    typer.echo(f"report: {out / 'report.md'}")
