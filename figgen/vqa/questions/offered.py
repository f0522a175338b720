"""The plot kinds a build offers as plot-type choices, and a record's question context with
them: both read the kind registry, so they sit above the kinds, unlike the context itself.
Also the balance table a build's config names, the other thing a context takes from it."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from figgen.config.sections.balance import BalanceConfig, KeepTable
from figgen.errors import ConfigError
from figgen.kinds import KINDS, default_mix
from figgen.schema.record import Record
from figgen.vqa.api.context import FigureContext


def offered_kinds(weights: dict[str, float] | None = None) -> tuple[str, ...]:
    """The kinds a build can draw (weight > 0), in registry order: the plot-type choices."""
    weights = default_mix() if weights is None else weights
    return tuple(name for name in KINDS if weights.get(name, 0.0) > 0)


def balance_table(config: dict[str, Any]) -> KeepTable | None:
    """The keep table of a build config's JSON dump (a manifest's ``config``); None when it
    names none, which is the default's
    (:meth:`figgen.config.sections.shared.SharedConfig.to_dict`)."""
    section = config.get("balance")
    if section is None:
        return None
    try:
        return BalanceConfig.model_validate(section).keep
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in ("balance", *error["loc"]))
        raise ConfigError(f"bad build config {where}: {error['msg']}; rebuild it") from None


def figure_context(
    record: Record,
    kinds: tuple[str, ...] | None = None,
    keep: KeepTable | None = None,
) -> FigureContext:
    """The context of one record offering ``kinds`` (default: the default mix's) and balanced
    by ``keep`` (default: the default table); a record from a build with other weights offers
    the kinds it draws too, in registry order."""
    offered = offered_kinds() if kinds is None else kinds
    drawn = {p.kind for p in record.panels}
    if not drawn <= set(offered):
        offered = tuple(k for k in KINDS if k in offered or k in drawn)
    return FigureContext(record, offered, keep)
