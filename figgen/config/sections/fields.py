"""The building blocks of config sections: validated ranges, probabilities and weights.

:mod:`figgen.config.load` assembles the figure config from these; a plot kind declares its own
section with them in its module, so the kinds never import the assembled config.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, model_validator


def _ordered(pair: tuple[float, float]) -> tuple[float, float]:
    if pair[0] > pair[1]:
        raise ValueError(f"range must be [low, high] with low <= high, got {list(pair)}")
    return pair


def _probabilities(weights: dict[str, float]) -> dict[str, float]:
    if any(w < 0 for w in weights.values()) or sum(weights.values()) <= 0:
        raise ValueError("weights must be >= 0 and not all zero")
    return weights


def one_of(what: str, names: Iterable[str]) -> AfterValidator:
    """A weights check that every key is one of ``names`` (named ``what`` in the error)."""
    known = tuple(names)

    def check(weights: dict[str, float]) -> dict[str, float]:
        unknown = sorted(set(weights) - set(known))
        if unknown:
            raise ValueError(f"unknown {what} {unknown[0]!r}; known: {', '.join(known)}")
        return weights

    return AfterValidator(check)


def within(low: float, high: float) -> AfterValidator:
    """A range check that both ends lie in ``[low, high]``: what the generator can draw.

    The bounds stay readable on the check (``bounds_of``), so tests can probe every edge.
    """

    def check(pair: tuple[float, float]) -> tuple[float, float]:
        if pair[0] < low or pair[1] > high:
            raise ValueError(f"range must lie within [{low:g}, {high:g}], got {list(pair)}")
        return pair

    check.bounds = (low, high)  # type: ignore[attr-defined]
    return AfterValidator(check)


def bounds_of(metadata: Iterable[object]) -> tuple[float, float] | None:
    """The ``within`` bounds among a field's metadata, if any."""
    for item in metadata:
        bounds = getattr(getattr(item, "func", None), "bounds", None)
        if bounds is not None:
            return bounds  # type: ignore[no-any-return]
    return None


Range = Annotated[tuple[float, float], AfterValidator(_ordered)]
IntRange = Annotated[tuple[int, int], AfterValidator(_ordered)]
Probability = Annotated[float, Field(ge=0.0, le=1.0)]
Weights = Annotated[dict[str, float], AfterValidator(_probabilities)]


class Section(BaseModel):
    """One table of the config file: unknown keys, NaN and infinity are errors; frozen."""

    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)

    @model_validator(mode="before")
    @classmethod
    def _canonical_order(cls, data: Any) -> Any:
        """Weights in one order whatever order the file wrote them in.

        Sampling picks keys by position, and a config read back from a manifest (written
        with sorted keys) must draw the same figures: the default's keys come first, in its
        order, then the others sorted.
        """
        if not isinstance(data, dict):
            return data
        for name, field in cls.model_fields.items():
            value = data.get(name)
            if isinstance(value, dict) and field.default_factory is not None:
                default = field.get_default(call_default_factory=True)
                if isinstance(default, dict):
                    known = [key for key in default if key in value]
                    rest = sorted((key for key in value if key not in default), key=str)
                    data = {**data, name: {key: value[key] for key in known + rest}}
        return data
