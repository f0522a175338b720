"""figgen: synthetic multi-panel scientific figures with exact ground truth.

The pipeline is ``seed -> FigureSpec -> render -> record``; see ``figgen.build.dataset`` for the
dataset builder and ``figgen.vqa`` / ``figgen.eval`` for questions and scoring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen._util.lazy import lazy_exports
from figgen._util.version import __version__

if TYPE_CHECKING:
    from figgen.config.load import FigureConfig, load_config
    from figgen.errors import FiggenError
    from figgen.schema.spec import FigureSpec, PanelSpec

__getattr__ = lazy_exports(
    __name__,
    {
        "FigureConfig": "figgen.config.load",
        "load_config": "figgen.config.load",
        "FiggenError": "figgen.errors",
        "FigureSpec": "figgen.schema.spec",
        "PanelSpec": "figgen.schema.spec",
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
