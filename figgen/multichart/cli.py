"""``figgen multichart ...``: build sets, check a graph spec, ask in conversations, score."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from figgen.eval.cli_options import ModelArgs, model_options, model_setup, run_and_report

if TYPE_CHECKING:
    from figgen.eval.run.runner import RunSummary

app = typer.Typer(
    help="Multi-chart reasoning sets over a latent dependency graph (LongChart).",
    no_args_is_help=True,
)


@app.command("build")
def build(
    out: Annotated[Path, typer.Option(help="Output folder (resumed if it holds this build).")],
    sets: Annotated[int, typer.Option(help="Number of sets.")] = 5,
    seed: Annotated[int, typer.Option(help="Build seed; with --sets it fixes every byte.")] = 0,
    scenario: Annotated[
        list[str] | None,
        typer.Option(help="Scenario name or graph-spec TOML (repeat; default: all shipped)."),
    ] = None,
    workers: Annotated[int, typer.Option(help="Worker processes (default: all cores).")] = 0,
    progress: Annotated[bool, typer.Option(help="Show a progress bar.")] = True,
) -> None:
    """Build sets: charts, questions in both modes, qa.jsonl and image_sets.json."""
    import os

    from figgen.multichart.build import build_sets

    summary = build_sets(
        out,
        n=sets,
        seed=seed,
        scenarios=scenario or None,
        progress=progress,
        workers=workers or os.cpu_count() or 1,
    )
    typer.echo(
        f"{out}: {summary.n} sets ({summary.generated} new, {summary.skipped} kept), "
        f"{summary.questions} questions over both modes; evaluate with "
        f"figgen eval run --data {out} --model ..."
    )


@app.command("check")
def check(spec: Annotated[str, typer.Argument(help="Scenario name or graph-spec TOML.")]) -> None:
    """Validate a graph spec; print its equivalence classes, minimal sets and mode images."""
    from figgen.multichart.modes import plan_set
    from figgen.multichart.scenarios import load_scenario

    plan = plan_set(load_scenario(spec))
    typer.echo(f"classes: {' | '.join(', '.join(c) for c in plan.minimal.classes)}")
    typer.echo(f"minimal generative set: {', '.join(plan.minimal.selected)}")
    more = " (truncated)" if plan.minimal.truncated else ""
    typer.echo(f"alternatives: {len(plan.minimal.alternatives)}{more}")
    for alternative in plan.minimal.alternatives[:10]:
        typer.echo(f"  {', '.join(alternative)}")
    for mode, images in plan.modes.items():
        typer.echo(f"{mode}: {', '.join(images)}")
    if plan.compensated:
        typer.echo(f"added so the charts suffice: {', '.join(plan.compensated)}")


@app.command("score")
def score(
    data: Annotated[Path, typer.Option(help="The multichart build the answers belong to.")],
    answers: Annotated[list[Path], typer.Option(help="Answers file(s) from figgen eval run.")],
    out: Annotated[Path, typer.Option(help="Report folder (metrics.json, report.md, plots).")],
) -> None:
    """Accuracy by hops, type, mode, chart kind and scenario; tokens, cost and time per mode."""
    from figgen.multichart.report import write_report

    metrics = write_report(data, answers, out)
    for model, values in metrics["models"].items():
        parts = []
        for mode, m in values["modes"].items():
            acc = "n/a" if m["accuracy"] is None else f"{m['accuracy']:.3f}"
            first = m["initial_vs_final"]["initial_accuracy"]
            initial = "" if first is None else f", initial answers {first:.3f}"
            parts.append(f"{mode} {acc} (n {m['n']}{initial})")
        typer.echo(f"{model}: " + ", ".join(parts))
    typer.echo(f"report: {out / 'report.md'}")


@app.command("converse")
@model_options(progress=False, concurrency_help="Conversations in flight at once.")
def converse(
    data: Annotated[Path, typer.Option(help="The multichart build to ask.")],
    shared: ModelArgs,
) -> None:
    """Ask each set's questions in one conversation per mode (the paper's protocol): the
    images once with the retrieval prompt, then every question with its initial and final
    answer. One call per question is figgen eval run."""

    from figgen.eval.run.dataset import load_dataset
    from figgen.multichart.conversation import run_conversations

    setup = model_setup(shared)
    dataset = load_dataset(data)

    async def go() -> RunSummary:
        return await run_conversations(dataset, dataset.items, setup.provider(), setup.options)

    run_and_report(setup, go)


@app.command("example")
def example(
    name: Annotated[str, typer.Argument(help="Example spec name (starter).")] = "starter",
    out: Annotated[Path, typer.Option(help="TOML file to write.")] = Path("my_graph.toml"),
) -> None:
    """Write a commented example graph spec to edit, then `figgen multichart check FILE`."""
    from figgen.multichart.examples import write_example

    written = write_example(name, out)
    typer.echo(f"{written}: edit it, then run figgen multichart check {written}")
