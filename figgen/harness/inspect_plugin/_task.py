"""The ``figgen_qa`` inspect_ai task: ``inspect eval figgen/figgen_qa -T data=DIR``."""

from __future__ import annotations

from inspect_ai import Task, task
from inspect_ai.model import GenerateConfig
from inspect_ai.solver import generate

from figgen.errors import FiggenError
from figgen.harness.inspect_plugin._dataset import qa_dataset
from figgen.harness.inspect_plugin._scorer import figgen_scorer

Listed = str | int | list[str] | list[int] | None
"""A task argument naming several values: ``1,2`` on the command line (``-T levels=1,2``)
arrives as a list, a single ``1`` as an int, a Python caller may pass a string."""


def _parts(value: Listed) -> list[str] | None:
    if value is None or value == "":
        return None
    if isinstance(value, list):
        return [str(part).strip() for part in value]
    return [part.strip() for part in str(value).split(",")]


def _levels(value: Listed) -> list[int] | None:
    parts = _parts(value)
    try:
        return None if parts is None else [int(part) for part in parts]
    except ValueError:
        raise FiggenError(f"levels {value!r} is not a comma-separated list; e.g. 1,2") from None


@task
def figgen_qa(data: str = "dataset", levels: Listed = None, families: Listed = None) -> Task:
    """One independent question per sample about one figure, scored by figgen's metrics.

    Args:
        data: a folder written by ``figgen build``.
        levels: comma-separated levels to ask (default all), e.g. ``1,2``.
        families: comma-separated question families (default all), e.g. ``titles,mean_y``.
    """
    dataset = qa_dataset(data, levels=_levels(levels), families=_parts(families))
    if len(dataset) == 0:
        raise FiggenError(f"no questions in {data} at levels {levels} and families {families}")
    return Task(
        dataset=dataset,
        solver=generate(),
        scorer=figgen_scorer(),
        config=GenerateConfig(temperature=0.0),
        name="figgen_qa",
    )
