"""Package namespaces that import their parts on first use (PEP 562).

``import figgen.<package>.<module>`` runs the package's ``__init__`` first; where that
``__init__`` re-exported its parts eagerly, every command paid for matplotlib, scipy and
the drawing code just to start. A package lists what it exports and where each name lives,
and :func:`lazy_exports` gives it the module ``__getattr__`` that imports a part when one of
its names is first asked for.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: name -> the module it is imported from
    (a name that is a submodule maps to that submodule itself)."""

    def __getattr__(name: str) -> Any:
        where = exports.get(name)
        if where is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = importlib.import_module(where)
        return module if where == f"{package}.{name}" else getattr(module, name)

    return __getattr__
