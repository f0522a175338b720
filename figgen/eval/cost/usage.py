"""Token usage and cost of model calls, as a value that adds up."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Usage:
    """Tokens billed for one or more calls and what they cost in USD.

    ``input_tokens`` counts every input token; ``cached_input_tokens`` (read from the prompt
    cache) and ``cache_write_tokens`` (written to it) are the parts of it billed at their own
    price. Run totals are ``sum(usages, Usage())``.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0
    cached_input_tokens: int = 0
    cache_write_tokens: int = 0

    def __add__(self, other: Usage) -> Usage:
        if not isinstance(other, Usage):
            return NotImplemented
        return Usage(
            self.input_tokens + other.input_tokens,
            self.output_tokens + other.output_tokens,
            self.cost_usd + other.cost_usd,
            self.cached_input_tokens + other.cached_input_tokens,
            self.cache_write_tokens + other.cache_write_tokens,
        )

    def __radd__(self, other: Any) -> Usage:
        # lets the builtin ``sum`` start from its default 0
        if other == 0:
            return self
        return NotImplemented

    def to_dict(self) -> dict[str, Any]:
        return {
            "input_tokens": self.input_tokens,
            "output_tokens": self.output_tokens,
            "cost_usd": self.cost_usd,
        }
