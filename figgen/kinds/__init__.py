"""Plot kinds, one module each; importing this package registers them all."""

from figgen.kinds.api import (
    KINDS,
    Drawn,
    KindHooks,
    Mark,
    PlotKind,
    Sampled,
    default_mix,
    noun,
    register,
)

# Registration order is the order of kind lists and choices everywhere (the core paper's four
# kinds first, so default builds keep their bytes).
# isort: off
from figgen.kinds import line, histogram, scatter, contour, bar, pie, table  # noqa: E402, F401
from figgen.kinds import box, ranges  # noqa: E402, F401
from figgen.kinds import heatmap, choropleth  # noqa: E402, F401

# isort: on
from figgen.kinds.derived import (  # noqa: E402
    ElementTables,
    element_tables,
    multichart_kind,
    multichart_kinds,
)

__all__ = [
    "KINDS",
    "Drawn",
    "ElementTables",
    "KindHooks",
    "Mark",
    "PlotKind",
    "Sampled",
    "default_mix",
    "element_tables",
    "multichart_kind",
    "multichart_kinds",
    "noun",
    "register",
]
