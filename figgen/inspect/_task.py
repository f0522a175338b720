"""The ``figgen_qa`` inspect_ai task: ``inspect eval figgen/figgen_qa -T data=DIR``."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

from figgen.errors import FiggenError
from figgen.inspect._dataset import qa_dataset
from figgen.inspect._scorer import figgen_scorer


def _numbers(text: str | None, what: str) -> list[int] | None:
    if not text:
        return None
    try:
        return [int(part) for part in str(text).split(",")]
    except ValueError:
        raise FiggenError(f"{what} {text!r} is not a comma-separated list; e.g. 1,2") from None


def _names(text: str | None) -> list[str] | None:
    return [part.strip() for part in str(text).split(",")] if text else None


@task
def figgen_qa(
    data: str = "dataset", levels: str | None = None, families: str | None = None
) -> Task:
    """One independent question per sample about one figure, scored by figgen's metrics.

    Args:
        data: a folder written by ``figgen build``.
        levels: comma-separated levels to ask (default all), e.g. ``1,2``.
        families: comma-separated question families (default all), e.g. ``titles,mean_y``.
    """
    dataset = qa_dataset(data, levels=_numbers(levels, "levels"), families=_names(families))
    if len(dataset) == 0:
        raise FiggenError(f"no questions in {data} at levels {levels} and families {families}")
    return Task(
        dataset=dataset,
        solver=generate(),
        scorer=figgen_scorer(),
        config=GenerateConfig(temperature=0.0),
        name="figgen_qa",
    )
