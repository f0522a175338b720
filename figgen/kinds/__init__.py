"""Plot kinds, one module each; importing this package registers them all."""

from figgen.kinds import contour, histogram, line, pie, scatter, table  # noqa: F401  (registration)
from figgen.kinds.base import KINDS, Drawn, Mark, PlotKind, Sampled, register

__all__ = ["KINDS", "Drawn", "Mark", "PlotKind", "Sampled", "register"]
