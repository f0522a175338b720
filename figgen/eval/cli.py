"""``figgen eval ...`` commands."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from figgen.eval.cli_options import ModelArgs, model_options, model_setup
from figgen.eval.providers import batch_provider_names

if TYPE_CHECKING:
    from figgen.eval.providers.image import ImageFormat

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


def _image_format(text: str) -> ImageFormat:
    from figgen.errors import FiggenError
    from figgen.eval.providers.image import MEDIA_TYPES

    for name in MEDIA_TYPES:
        if text.strip().casefold() in (name, "jpg" if name == "jpeg" else name):
            return name
    raise FiggenError(f"--image-format {text!r} is not one of png, jpeg, webp")


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
    from dataclasses import replace

    from figgen.errors import FiggenError
    from figgen.eval.grounding.grounding import prompt_mode
    from figgen.eval.run.dataset import load_dataset, select_items
    from figgen.eval.run.prepare import ImagePreparer
    from figgen.eval.run.prompt import locatable
    from figgen.eval.run.runner import RunSummary, run_questions

    mode = prompt_mode(prompt)
    setup = model_setup(shared)
    options = replace(setup.options, mode=mode)
    dataset = load_dataset(data)
    chosen = select_items(dataset.items, levels=_levels(levels), families=_split(families) or None)
    items = [
        item
        for item in chosen
        if mode == "plain"
        or locatable(item, dataset.record(item.figure_id), mode, dataset.set_targets.get(item.qid))
    ]
    if len(items) < len(chosen):
        typer.echo(f"{len(chosen) - len(items)} questions have no evidence to locate; not asked")
    if setup.provider_name == "blind":  # fitted on train: it answers the other splits
        from figgen.eval.providers.blind import blind_items

        setup.factory_args["items"] = dataset.items
        unseen = blind_items(dataset.items, items)
        typer.echo(f"{len(items) - len(unseen)} train-split questions the baseline learns from")
        items = unseen
    items = items if limit is None else items[:limit]

    fmt = _image_format(image_format)
    if not 1 <= image_quality <= 100:
        raise FiggenError(f"--image-quality {image_quality} must be between 1 and 100")
    min_side = options.policy.min_image_side
    if max_image_side is not None and max_image_side < min_side:
        raise FiggenError(
            f"--max-image-side {max_image_side} is too small; give at least {min_side} pixels"
        )

    async def go() -> RunSummary:
        provider = setup.provider()
        limits = provider.image_limits
        if max_image_side is not None:
            limits = replace(limits, max_long_side=max_image_side)
        images = ImagePreparer(
            dataset.image_source,
            limits,
            image_format=fmt,
            quality=image_quality,
            min_side=min_side,
        )
        if batch:
            from figgen.eval.batch import batch_backend, run_batch

            return await run_batch(
                dataset, items, provider, batch_backend(provider), options, images=images
            )
        return await run_questions(dataset, items, provider, options, images=images)

    setup.run(go)


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
    from figgen.errors import FiggenError
    from figgen.eval.cost.prices import load_prices
    from figgen.eval.report.blind import near_blind_text
    from figgen.eval.report.report import write_report
    from figgen.eval.run.dataset import load_dataset

    if hourly_rate is not None and not hourly_rate >= 0:
        raise FiggenError(f"--hourly-rate {hourly_rate} must be a number of USD, at least 0")
    metrics = write_report(
        load_dataset(data),
        answers,
        load_prices(prices),
        out,
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
