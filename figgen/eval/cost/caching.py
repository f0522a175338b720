"""Prompt caching: which input tokens a run should find cached, and warming the cache.

Every question of a figure starts with the same image(s), so after the figure's first
question has written that prefix to the vendor's cache, its other questions read it at the
cached-input price. The prefix is cached only when it is at least the model's
``cache_min_tokens`` long, and only once the first reply has come back, so the first
question of each figure goes alone (:class:`CacheWarmer`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass

from figgen.eval.cost.prices import ModelPrice
from figgen.schema.qa_item import QAItem


@dataclass(frozen=True)
class CacheSplit:
    """How many of a question's input tokens are read from, or written to, the cache."""

    read: int = 0
    written: int = 0


def predict_cache(
    items: Iterable[QAItem], prefix_tokens: dict[str, int], price: ModelPrice | None
) -> dict[str, CacheSplit]:
    """The cache split of each question asked in ``items`` order, one figure's together.

    ``prefix_tokens`` gives the tokens of each figure's images (the shared prefix). The first
    question of a figure writes the prefix, the rest read it; a model the price table lists
    without caching, or a prefix shorter than the model caches, gets no split.
    """
    splits: dict[str, CacheSplit] = {}
    if price is None or not price.caches:
        return splits
    minimum = price.cache_min_tokens or 0
    warm: set[str] = set()
    for item in items:
        tokens = prefix_tokens.get(item.figure_id, 0)
        if tokens < minimum or tokens == 0:
            continue
        if item.figure_id in warm:
            splits[item.qid] = CacheSplit(read=tokens)
        else:
            warm.add(item.figure_id)
            splits[item.qid] = CacheSplit(written=tokens)
    return splits


def grouped_by_figure(items: list[QAItem]) -> list[QAItem]:
    """The items with each figure's questions together, figures in order of first mention
    (a cache lives minutes, so a figure's questions must not be spread over the run)."""
    order = {figure: i for i, figure in enumerate(dict.fromkeys(it.figure_id for it in items))}
    return sorted(items, key=lambda item: order[item.figure_id])


class CacheWarmer:
    """Lets a figure's first question go alone; the others wait until its reply is back.

    A cache entry can be read only once the request that writes it has been answered, so
    questions sent together with the first would each pay to write the image again.
    """

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self._warm: dict[str, asyncio.Event] = {}

    @asynccontextmanager
    async def turn(self, figure_id: str) -> AsyncIterator[None]:
        """Hold the figure's first question until it is answered; let later ones through."""
        if not self.enabled:
            yield
            return
        event = self._warm.get(figure_id)
        if event is None:
            event = self._warm[figure_id] = asyncio.Event()
            try:
                yield
            finally:  # a failed first question lets the others try (and write) themselves
                event.set()
            return
        await event.wait()
        yield
