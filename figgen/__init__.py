"""figgen: synthetic multi-panel scientific figures with exact ground truth.

The pipeline is ``seed -> FigureSpec -> render -> record``; see ``figgen.build`` for the
dataset builder and ``figgen.vqa`` / ``figgen.eval`` for questions and scoring.
"""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("figgen")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+unknown"

from figgen.config import FigureConfig, load_config
from figgen.errors import FiggenError
from figgen.spec import FigureSpec, PanelSpec

__all__ = [
    "FigureConfig",
    "FigureSpec",
    "FiggenError",
    "PanelSpec",
    "__version__",
    "load_config",
]
