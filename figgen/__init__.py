"""figgen: synthetic multi-panel scientific figures with exact ground truth.

The pipeline is ``seed -> FigureSpec -> render -> record``; see ``figgen.build`` for the
dataset builder and ``figgen.vqa`` / ``figgen.eval`` for questions and scoring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen.lazy import lazy_exports
from figgen.version import __version__

if TYPE_CHECKING:
    from figgen.config import FigureConfig, load_config
    from figgen.errors import FiggenError
    from figgen.spec import FigureSpec, PanelSpec

__getattr__ = lazy_exports(
    __name__,
    {
        "FigureConfig": "figgen.config",
        "load_config": "figgen.config",
        "FiggenError": "figgen.errors",
        "FigureSpec": "figgen.spec",
        "PanelSpec": "figgen.spec",
    },
)
"""Imported on first use, so ``import figgen.<part>`` does not load matplotlib for every part
(the command line starts its build workers before it imports the drawing code)."""

__all__ = [
    "FigureConfig",
    "FigureSpec",
    "FiggenError",
    "PanelSpec",
    "__version__",
    "load_config",
]
