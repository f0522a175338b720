"""The ``[balance]`` section of a config: which items of dominant answers a build keeps.

The default tables are the question families' own (each declares its
:class:`figgen.vqa.api.families.Balance`); they are read off the declarations above this layer,
in :mod:`figgen.vqa.api.balance`, which also says how a build uses them.
"""

from __future__ import annotations

from collections.abc import Mapping

from figgen.config.sections.fields import Probability, Section

KeepTable = Mapping[str, Mapping[str, float]]
"""Per family (or ``family/kind``), per answer class, the probability an item is kept."""


class BalanceConfig(Section):
    """The ``[balance]`` section: which items of dominant answers a build keeps.

    ``keep`` replaces the declared table as a whole (keys ``family`` or ``family/kind``, then
    answer class: probability; ``family = {}`` asks a family unbalanced); ``share_bounds``
    states the largest answer share each balanced family keeps on this config's figures (what
    the tests check a build against). None, the default of both: the families' declared
    tables (:func:`figgen.vqa.api.balance.declared_keep`, :func:`.declared_share_bounds`).
    """

    keep: dict[str, dict[str, Probability]] | None = None
    share_bounds: dict[str, Probability] | None = None
