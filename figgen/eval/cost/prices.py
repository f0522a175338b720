"""The dated price table (USD per million tokens per token class) and the cost of a call."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from figgen.errors import FiggenError


@dataclass(frozen=True)
class Rates:
    """USD per million tokens of each class billed by one kind of call (list or batch)."""

    input: float
    cached_input: float
    cache_write: float
    output: float


@dataclass(frozen=True)
class ModelPrice:
    """USD per million tokens: input, output, cached reads, cache writes, and in a batch.

    A class left out costs what its plain counterpart costs: no ``cached_input`` means no
    caching discount, no ``cache_write`` means writes bill as input (OpenAI, Gemini's
    implicit caching), no batch price means no batch discount. Batch cache classes default to
    the cache price times the batch discount on input. ``cache_min_tokens`` is the shortest
    prefix the vendor caches for this model (None: the model caches nothing).
    """

    input: float
    output: float
    cached_input: float | None = None
    cache_write: float | None = None
    batch_input: float | None = None
    batch_output: float | None = None
    batch_cached_input: float | None = None
    batch_cache_write: float | None = None
    cache_min_tokens: int | None = None

    # the price file is validated against these fields (an unknown key is an error)
    __pydantic_config__ = ConfigDict(extra="forbid")

    @property
    def caches(self) -> bool:
        """Whether the table knows a cached-input price (so caching is predicted)."""
        return self.cached_input is not None and self.cache_min_tokens is not None

    @property
    def has_batch(self) -> bool:
        return self.batch_input is not None

    def rates(self, batch: bool = False) -> Rates:
        """The price of each token class, at list price or in a batch."""
        cached = self.input if self.cached_input is None else self.cached_input
        write = self.input if self.cache_write is None else self.cache_write
        if not batch or self.batch_input is None:
            return Rates(self.input, cached, write, self.output)
        discount = self.batch_input / self.input if self.input else 1.0
        return Rates(
            self.batch_input,
            cached * discount if self.batch_cached_input is None else self.batch_cached_input,
            write * discount if self.batch_cache_write is None else self.batch_cache_write,
            self.output if self.batch_output is None else self.batch_output,
        )

    def cost(
        self,
        input_tokens: int,
        output_tokens: int,
        cached_input_tokens: int = 0,
        cache_write_tokens: int = 0,
        *,
        batch: bool = False,
    ) -> float:
        """USD for a call; ``input_tokens`` counts every input token, cached ones included."""
        rates = self.rates(batch)
        plain = max(0, input_tokens - cached_input_tokens - cache_write_tokens)
        return (
            plain * rates.input
            + cached_input_tokens * rates.cached_input
            + cache_write_tokens * rates.cache_write
            + output_tokens * rates.output
        ) / 1_000_000


class _PriceFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    as_of: str | None = None
    models: dict[str, ModelPrice] = {}


@dataclass
class PriceTable:
    """Prices by model name; ``as_of`` dates the shipped table."""

    models: dict[str, ModelPrice] = field(default_factory=dict)
    as_of: str | None = None

    def lookup(self, model: str) -> ModelPrice | None:
        """Price of ``model`` ("gpt-4o" or "openai:gpt-4o"), or None when unlisted.

        An exact name wins; else the longest listed name the model starts with, so dated
        snapshots ("gpt-4o-2024-08-06") take their family's price.
        """
        names = [model]
        if ":" in model:
            names.append(model.split(":", 1)[1])
        for name in names:
            if name in self.models:
                return self.models[name]
        for name in names:
            prefixes = [key for key in self.models if name.startswith(key + "-")]
            if prefixes:
                return self.models[max(prefixes, key=len)]
        return None

    def cost(self, model: str, input_tokens: int, output_tokens: int) -> float | None:
        price = self.lookup(model)
        return None if price is None else price.cost(input_tokens, output_tokens)

    def merged(self, other: PriceTable) -> PriceTable:
        """This table with ``other``'s entries taking precedence."""
        return PriceTable({**self.models, **other.models}, other.as_of or self.as_of)


def _parse(text: str, source: str) -> PriceTable:
    try:
        parsed = _PriceFile.model_validate(tomllib.loads(text))
    except (tomllib.TOMLDecodeError, ValidationError) as exc:
        first = str(exc).splitlines()[0]
        raise FiggenError(
            f"price file {source} is invalid ({first}); expected "
            '[models."NAME"] input = USD_PER_M output = USD_PER_M (optional: cached_input, '
            "cache_write, batch_input, batch_output, cache_min_tokens)"
        ) from None
    return PriceTable(dict(parsed.models), parsed.as_of)


def default_prices() -> PriceTable:
    """The price table shipped with figgen."""
    text = resources.files("figgen.eval.cost").joinpath("prices.toml").read_text(encoding="utf-8")
    return _parse(text, "figgen/eval/prices.toml")


def load_prices(path: str | Path | None = None) -> PriceTable:
    """The shipped table, overridden entry by entry by the TOML file at ``path``."""
    table = default_prices()
    if path is None:
        return table
    path = Path(path)
    if not path.is_file():
        raise FiggenError(f"price file {path} does not exist; pass an existing TOML file")
    return table.merged(_parse(path.read_text(encoding="utf-8"), str(path)))
