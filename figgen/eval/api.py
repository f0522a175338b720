"""Evaluation from Python: what ``figgen eval run`` and ``figgen eval score`` do, as functions.

    import figgen

    summary = figgen.run_eval("dataset", "oracle", "answers.jsonl", levels=[1, 2])
    metrics = figgen.score_answers("dataset", ["answers.jsonl"], "report")

The command line parses its options and calls these; everything it prints along the way goes
to ``announce`` here (the log by default).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from figgen.errors import FiggenError
from figgen.eval.cost.prices import load_prices
from figgen.eval.grounding.grounding import PromptMode, prompt_mode
from figgen.eval.providers.image import MEDIA_TYPES, ImageFormat
from figgen.eval.run.dataset import EvalDataset, load_dataset, select_items
from figgen.eval.run.prepare import ImagePreparer
from figgen.eval.run.prompt import locatable
from figgen.eval.run.runner import RunSummary, run_questions
from figgen.eval.run.setup import ModelSetup, model_setup
from figgen.schema.qa_item import QAItem

logger = logging.getLogger(__name__)


def _log(text: str) -> None:
    logger.info("%s", text)


def parse_image_format(text: str) -> ImageFormat:
    """``png``, ``jpeg`` (or ``jpg``) or ``webp``, in any case; anything else is one line."""
    for name in MEDIA_TYPES:
        if text.strip().casefold() in (name, "jpg" if name == "jpeg" else name):
            return name
    raise FiggenError(f"--image-format {text!r} is not one of png, jpeg, webp")


def _asked(
    dataset: EvalDataset,
    setup: ModelSetup,
    *,
    mode: PromptMode,
    levels: Sequence[int] | None,
    families: Sequence[str] | None,
    limit: int | None,
    announce: Callable[[str], None],
) -> list[QAItem]:
    """The questions the run asks: the selected levels and families, those with evidence to
    locate when the prompt asks for it, the blind baseline's unseen splits, at most ``limit``."""
    chosen = select_items(dataset.items, levels=levels, families=list(families or ()) or None)
    items = [
        item
        for item in chosen
        if mode == "plain"
        or locatable(item, dataset.record(item.figure_id), mode, dataset.set_targets.get(item.qid))
    ]
    if len(items) < len(chosen):
        announce(f"{len(chosen) - len(items)} questions have no evidence to locate; not asked")
    if setup.provider_name == "blind":  # fitted on train: it answers the other splits
        from figgen.eval.providers.blind import blind_items

        setup.factory_args["items"] = dataset.items
        unseen = blind_items(dataset.items, items)
        announce(f"{len(items) - len(unseen)} train-split questions the baseline learns from")
        items = unseen
    return items if limit is None else items[:limit]


def run_eval(
    data: str | Path,
    model: str,
    out: str | Path,
    *,
    levels: Sequence[int] | None = None,
    families: Sequence[str] | None = None,
    limit: int | None = None,
    prompt: str = "plain",
    image_format: str = "png",
    image_quality: int = 95,
    max_image_side: int | None = None,
    batch: bool = False,
    base_url: str | None = None,
    concurrency: int = 4,
    max_cost: float | None = None,
    prices: str | Path | None = None,
    options: Sequence[str] | dict[str, Any] = (),
    retries: int = 6,
    retry_wait: float = 1.0,
    timeout: float = 600.0,
    cache: bool | None = None,
    progress: bool = False,
    announce: Callable[[str], None] = _log,
) -> RunSummary:
    """Ask ``model`` (``PROVIDER:MODEL``, or an offline one: ``oracle``, ``chance``, ...) the
    questions of the build at ``data`` and append its answers to ``out`` (an existing file of
    the same model and prompt is resumed). The options are ``figgen eval run``'s."""
    setup = model_setup(
        model,
        out,
        base_url=base_url,
        concurrency=concurrency,
        max_cost=max_cost,
        prices=prices,
        options=options,
        retries=retries,
        retry_wait=retry_wait,
        timeout=timeout,
        progress=progress,
        cache=cache,
        announce=announce,
    )
    mode = prompt_mode(prompt)
    run_options = replace(setup.options, mode=mode)
    dataset = load_dataset(Path(data))
    items = _asked(
        dataset,
        setup,
        mode=mode,
        levels=levels,
        families=families,
        limit=limit,
        announce=announce,
    )
    fmt = parse_image_format(image_format)
    if not 1 <= image_quality <= 100:
        raise FiggenError(f"--image-quality {image_quality} must be between 1 and 100")
    min_side = run_options.policy.min_image_side
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
                dataset, items, provider, batch_backend(provider), run_options, images=images
            )
        return await run_questions(dataset, items, provider, run_options, images=images)

    return setup.run(go)


def score_answers(
    data: str | Path,
    answers: Sequence[str | Path],
    out: str | Path,
    *,
    prices: str | Path | None = None,
    hourly_rate: float | None = None,
    allow_other_build: bool = False,
) -> dict[str, Any]:
    """Score answers files of the build at ``data`` per level, family, plot kind and panel
    count, write ``metrics.json``, ``report.md`` and the plots to ``out``, and return the
    metrics. ``hourly_rate`` prices people's time (``human:NAME`` answers); answers made on
    another build are refused unless ``allow_other_build``."""
    from figgen.eval.report.report import write_report

    if hourly_rate is not None and not hourly_rate >= 0:
        raise FiggenError(f"--hourly-rate {hourly_rate} must be a number of USD, at least 0")
    return write_report(
        load_dataset(Path(data)),
        [Path(path) for path in answers],
        load_prices(prices),
        Path(out),
        hourly_rate=hourly_rate,
        allow_other_build=allow_other_build,
    )


__all__ = ["parse_image_format", "run_eval", "score_answers"]
