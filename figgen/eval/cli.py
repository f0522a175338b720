"""``figgen eval ...`` commands."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from figgen.eval.cli_options import ModelArgs, model_options
from figgen.eval.providers import batch_provider_names

app = typer.Typer(
    help="Ask models the questions of a dataset and score their answers.", no_args_is_help=True
)


def _split(values: list[str] | None) -> list[str]:
    return [part.strip() for value in values or [] for part in value.split(",") if part.strip()]


def _levels(text: str | None) -> list[int] | None:
    from figgen.errors import FiggenError

    if not text:
        return None
    try:
        levels = [int(part) for part in _split([text])]
    except ValueError:
        raise FiggenError(f"--levels {text!r} is not a comma-separated list like 1,2") from None
    if not set(levels) <= {1, 2, 3}:
        raise FiggenError(f"--levels {text!r} must name levels among 1, 2, 3")
    return levels


@app.command("run")
@model_options()
def run(
    data: Annotated[Path, typer.Option(help="Dataset directory (with qa.jsonl and figures/).")],
    shared: ModelArgs,
    levels: Annotated[str | None, typer.Option(help="Levels to ask, e.g. 1,2.")] = None,
    families: Annotated[
        list[str] | None, typer.Option(help="Families to ask (repeat or comma-separate).")
    ] = None,
    limit: Annotated[
        int | None, typer.Option(help="Ask at most N of the selected questions.")
    ] = None,
    prompt: Annotated[
        str,
        typer.Option(
            help="plain, grounded (answer + evidence boxes) or pointed (answer + points); "
            "grounded and pointed ask only questions with evidence to locate."
        ),
    ] = "plain",
    image_format: Annotated[
        str, typer.Option(help="png (lossless), or jpeg / webp at --image-quality.")
    ] = "png",
    image_quality: Annotated[int, typer.Option(help="JPEG/WebP quality, 1-100.")] = 95,
    max_image_side: Annotated[
        int | None,
        typer.Option(help="Shrink figures to this long side first (e.g. a local model's limit)."),
    ] = None,
    batch: Annotated[
        bool,
        typer.Option(
            help=f"Submit through the provider's batch API ({', '.join(batch_provider_names())}):"
            " half price, results within 24 hours; run again after a stop to resume its batches."
        ),
    ] = False,
) -> None:
    """Ask each question in one independent call (figure + question) and append the answers."""
    from figgen.eval.api import run_eval

    summary = run_eval(
        data,
        shared.model,
        shared.out,
        levels=_levels(levels),
        families=_split(families),
        limit=limit,
        prompt=prompt,
        image_format=image_format,
        image_quality=image_quality,
        max_image_side=max_image_side,
        batch=batch,
        **shared.settings(),
        announce=typer.echo,
    )
    for line in summary.report_lines(shared.model, shared.out):
        typer.echo(line)


@app.command("score")
def score(
    data: Annotated[Path, typer.Option(help="Dataset directory the answers belong to.")],
    answers: Annotated[list[Path], typer.Option(help="Answers file(s) from figgen eval run.")],
    out: Annotated[Path, typer.Option(help="Report directory (metrics.json, report.md, PNGs).")],
    prices: Annotated[Path | None, typer.Option(help="TOML price overrides.")] = None,
    hourly_rate: Annotated[
        float | None, typer.Option(help="USD per hour of a person's time (human:NAME answers).")
    ] = None,
    allow_other_build: Annotated[
        bool, typer.Option(help="Score answers made on another build (seed, config, version).")
    ] = False,
) -> None:
    """Score answers per level, family, plot kind and panel count; write metrics and report."""
    from figgen.eval.api import score_answers
    from figgen.eval.report.blind import near_blind_text

    metrics = score_answers(
        data,
        answers,
        out,
        prices=prices,
        hourly_rate=hourly_rate,
        allow_other_build=allow_other_build,
    )
    for name, values in metrics["models"].items():
        accuracy = values["accuracy"]
        typer.echo(
            f"{name}: n {values['n']}, answered {values['answered']}, rejected "
            f"{values['rejected']}, accuracy {'n/a' if accuracy is None else f'{accuracy:.3f}'}, "
            f"${values['cost_usd']:.4f}"
        )
        blind = values.get("blind")
        if blind and blind["lift"] is not None:
            near = near_blind_text(blind)
            typer.echo(
                f"{name}: best blind baseline {blind['blind_accuracy']:.3f}, lift over blind "
                f"{blind['lift']:+.3f}; near blind: {near}"
            )
    typer.echo(f"report: {out / 'report.md'}")


@app.command("robustness")
def robustness(
    data: Annotated[Path, typer.Option(help="The clean dataset the perturbed sets copy.")],
    clean: Annotated[Path, typer.Option(help="Answers to the clean dataset.")],
    perturbed: Annotated[
        list[str],
        typer.Option(help="NAME=ANSWERS.jsonl: answers to one perturbed copy (repeatable)."),
    ],
    out: Annotated[Path, typer.Option(help="Report directory.")],
) -> None:
    """Accuracy deltas per perturbation against the clean set, per level and family, paired."""
    from figgen.errors import FiggenError
    from figgen.eval.report.robustness import write_robustness
    from figgen.eval.run.dataset import load_dataset

    files: dict[str, str | Path] = {}
    for text in perturbed:
        name, sep, path = text.partition("=")
        if not sep or not name.strip() or not path.strip():
            raise FiggenError(f"--perturbed {text!r} is not NAME=ANSWERS.jsonl")
        files[name.strip()] = Path(path.strip())
    metrics = write_robustness(load_dataset(data), clean, files, out)
    for model, runs in metrics["models"].items():
        for name, entry in runs.items():
            delta = entry["delta"]
            typer.echo(
                f"{model} {name}: paired {entry['paired']}, delta "
                f"{'n/a' if delta is None else f'{delta:+.3f}'} "
                f"(lost {entry['lost']}, gained {entry['gained']})"
            )
    typer.echo(f"report: {out / 'robustness.md'}")


@app.command("providers")
def providers() -> None:
    """List the provider names usable in --model PROVIDER:MODEL."""
    from figgen.eval.providers import provider_names

    for name in provider_names():
        typer.echo(name)


class HarnessName(StrEnum):
    vlmevalkit = "vlmevalkit"
    lmms_eval = "lmms-eval"


@app.command("import")
def import_answers(
    predictions: Annotated[
        Path,
        typer.Argument(help="VLMEvalKit's PRED.xlsx / .tsv, or lmms-eval's samples_*.jsonl."),
    ],
    source: Annotated[HarnessName, typer.Option("--from", help="The harness that wrote it.")],
    data: Annotated[Path, typer.Option(help="The figgen build the predictions were made on.")],
    out: Annotated[Path, typer.Option(help="figgen answers file to write (JSONL).")],
    model: Annotated[
        str | None, typer.Option(help="Model name for the rows (default: from the file name).")
    ] = None,
) -> None:
    """Turn another harness's predictions into a figgen answers file for `figgen eval score`."""
    import json

    from figgen.errors import FiggenError
    from figgen.eval.run.dataset import load_dataset
    from figgen.harness.predictions import import_predictions
    from figgen.store.storage import atomic_write_text

    if out.exists():
        raise FiggenError(f"{out} exists; choose another --out (it is left as it was)")
    rows = import_predictions(predictions, source.value, load_dataset(data), model)
    atomic_write_text(out, "".join(json.dumps(row.to_dict()) + "\n" for row in rows))
    typer.echo(f"{out}: {len(rows)} answers of {rows[0].model}; score with figgen eval score")
