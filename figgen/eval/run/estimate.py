"""The pre-flight estimate of tokens and cost, computed before anything is sent."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from figgen.eval.cost.caching import CacheSplit, predict_cache
from figgen.eval.cost.prices import ModelPrice
from figgen.eval.cost.tokens import OUTPUT_TOKENS_ESTIMATE, text_tokens
from figgen.eval.grounding.grounding import PromptMode, with_mode
from figgen.eval.run.dataset import EvalDataset
from figgen.eval.run.prompt import prompt_text
from figgen.schema.qa_item import QAItem


@dataclass
class Estimate:
    """Estimated tokens and cost of asking some questions; per-question costs for budgeting."""

    n: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    per_question_usd: dict[str, float] = field(default_factory=dict)
    per_question_tokens: dict[str, tuple[int, int]] = field(default_factory=dict)
    cached_input_tokens: int = 0
    """Of ``input_tokens``, those predicted to be read from the prompt cache."""
    cache_write_tokens: int = 0
    per_question_cache: dict[str, CacheSplit] = field(default_factory=dict)
    plain_cost_usd: float | None = None
    """The cost with no caching and no batch discount, to show the saving."""
    batch: bool = False

    def describe(self, model: str) -> str:
        cost = (
            "unknown (no price; pass --prices)"
            if self.cost_usd is None
            else (f"${self.cost_usd:.4f}")
        )
        ways = [
            way
            for way, on in (("prompt caching", self.cache_write_tokens), ("batch", self.batch))
            if on
        ]
        if ways and self.cost_usd is not None and self.plain_cost_usd:
            cost += (
                f" with {' and '.join(ways)} (${self.plain_cost_usd:.4f} without, "
                f"{self.cost_usd / self.plain_cost_usd:.2f} of it)"
            )
        cached = (
            f" (~{self.cached_input_tokens:,} read from the prompt cache, "
            f"~{self.cache_write_tokens:,} written)"
            if self.cache_write_tokens
            else ""
        )
        return (
            f"estimate for {self.n} questions to {model}: ~{self.input_tokens:,} input{cached} "
            f"and ~{self.output_tokens:,} output tokens, cost {cost}"
        )


def _image_sizes(dataset: EvalDataset, figure_id: str) -> list[tuple[int, int]]:
    record = dataset.record(figure_id)
    if record is not None:
        return [(record.image.width, record.image.height)]
    from PIL import Image

    sizes = []
    for path in dataset.image_paths(figure_id):
        with Image.open(path) as img:
            sizes.append(img.size)
    return sizes


def estimate_run(
    dataset: EvalDataset,
    items: list[QAItem],
    *,
    image_tokens: Callable[[int, int], int],
    price: ModelPrice | None,
    output_tokens: int = OUTPUT_TOKENS_ESTIMATE,
    mode: PromptMode = "plain",
    prompt_of: Callable[[QAItem], str] = prompt_text,
    output_tokens_of: Callable[[QAItem], int] | None = None,
    cache: bool = False,
    batch: bool = False,
) -> Estimate:
    """Estimate tokens by the provider's image rule (``image_tokens(width, height)``, e.g.
    ``provider.image_tokens``) plus ~4 characters per text token.

    ``output_tokens_of`` gives a per-item reply length instead of the flat ``output_tokens``.
    With ``cache`` the items are taken to be asked in this order and each figure's images to
    be cached after its first question (``figgen.eval.cost.caching``); with ``batch`` they are
    priced at the batch prices.
    """
    estimate = Estimate(n=len(items), cost_usd=None if price is None else 0.0, batch=batch)
    if price is not None:
        estimate.plain_cost_usd = 0.0
    sizes: dict[str, list[tuple[int, int]]] = {}
    prefix: dict[str, int] = {}
    for item in items:
        if item.figure_id not in sizes:
            sizes[item.figure_id] = _image_sizes(dataset, item.figure_id)
            prefix[item.figure_id] = sum(
                image_tokens(width, height) for width, height in sizes[item.figure_id]
            )
    splits = predict_cache(items, prefix, price) if cache else {}
    for item in items:
        width, height = sizes[item.figure_id][0]
        text = with_mode(prompt_of(item), mode, width, height)
        n_in = text_tokens(text) + prefix[item.figure_id]
        n_out = output_tokens if output_tokens_of is None else output_tokens_of(item)
        split = splits.get(item.qid, CacheSplit())
        estimate.input_tokens += n_in
        estimate.output_tokens += n_out
        estimate.cached_input_tokens += split.read
        estimate.cache_write_tokens += split.written
        estimate.per_question_tokens[item.qid] = (n_in, n_out)
        estimate.per_question_cache[item.qid] = split
        if price is not None:
            cost = price.cost(n_in, n_out, split.read, split.written, batch=batch)
            estimate.per_question_usd[item.qid] = cost
            estimate.cost_usd = (estimate.cost_usd or 0.0) + cost
            estimate.plain_cost_usd = (estimate.plain_cost_usd or 0.0) + price.cost(n_in, n_out)
    return estimate
