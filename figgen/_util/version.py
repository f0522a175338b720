"""The installed figgen's version: a leaf module, so record readers can check versions without
importing the package's lazy exports."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("figgen")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0.0.0+unknown"
