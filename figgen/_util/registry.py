"""One registry type for every name-to-thing table (plot kinds, question families, providers,
multi-chart operators, density tables, metrics): registering a taken name is an error, and
looking up an unknown one names what is registered."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import TypeVar

from figgen.errors import FiggenError

T = TypeVar("T")


class Registry(Mapping[str, T]):
    """Names mapped to things in registration order; a read-only mapping once filled.

    ``what`` names the things in messages ("plot kind", "provider").
    """

    def __init__(self, what: str) -> None:
        self.what = what
        self._items: dict[str, T] = {}

    def add(self, name: str, item: T) -> T:
        """Register ``item`` under ``name``; a name registered twice is a programming error."""
        if name in self._items:
            raise ValueError(f"{self.what} {name!r} is registered twice")
        self._items[name] = item
        return item

    def decorator(self, name: str) -> Callable[[T], T]:
        """``@registry.decorator("name")``: register the decorated thing under ``name``."""

        def decorate(item: T) -> T:
            return self.add(name, item)

        return decorate

    def get_or_fail(self, name: str) -> T:
        """The thing under ``name``, or a one-line error listing the registered names."""
        try:
            return self._items[name]
        except KeyError:
            known = ", ".join(self._items) or "none"
            raise FiggenError(f"unknown {self.what} {name!r}; known: {known}") from None

    def __getitem__(self, name: str) -> T:
        return self._items[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Registry({self.what!r}, {list(self._items)!r})"
