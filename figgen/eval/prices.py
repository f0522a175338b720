"""The dated price table (USD per million tokens) and the cost of a call."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from figgen.errors import FiggenError


class _ModelPriceFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    input: float
    output: float


class _PriceFile(BaseModel):
    model_config = ConfigDict(extra="forbid")
    as_of: str | None = None
    models: dict[str, _ModelPriceFile] = {}


@dataclass(frozen=True)
class ModelPrice:
    """USD per million input and output tokens."""

    input: float
    output: float

    def cost(self, input_tokens: int, output_tokens: int) -> float:
        return (input_tokens * self.input + output_tokens * self.output) / 1_000_000


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
            '[models."NAME"] input = USD_PER_M output = USD_PER_M'
        ) from None
    models = {name: ModelPrice(p.input, p.output) for name, p in parsed.models.items()}
    return PriceTable(models, parsed.as_of)


def default_prices() -> PriceTable:
    """The price table shipped with figgen."""
    text = resources.files("figgen.eval").joinpath("prices.toml").read_text(encoding="utf-8")
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
