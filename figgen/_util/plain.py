"""Dataclasses as plain data: ``dataclasses.asdict`` without its per-number cost, and field names.

``asdict`` walks every element of every list and deep-copies each number on its own; a
figure's spec holds tens of thousands of drawn values, so that walk is a visible share of a
figure's CPU. :func:`as_plain_dict` returns an equal, equally independent result, copying a
list (or tuple) of plain scalars in one call.
"""

from __future__ import annotations

import copy
from dataclasses import fields, is_dataclass
from typing import Any

_SCALARS = frozenset({float, int, str, bool, type(None)})


def as_plain_dict(obj: Any) -> dict[str, Any]:
    """``dataclasses.asdict(obj)``: the same nested dicts, lists and values, shared with
    nothing in ``obj``."""
    if not is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("as_plain_dict() should be called on dataclass instances")
    return _plain(obj)  # type: ignore[no-any-return]


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is list or kind is tuple:
        if all(type(item) in _SCALARS for item in value):
            return kind(value)
        return kind(_plain(item) for item in value)
    if kind is dict:
        return {_plain(key): _plain(item) for key, item in value.items()}
    if is_dataclass(value) and not isinstance(value, type):
        return {field.name: _plain(getattr(value, field.name)) for field in fields(value)}
    return _plain_other(value)


def _plain_other(value: Any) -> Any:
    # What asdict does with the rest: subclasses of list/tuple/dict rebuilt as their type
    # (named tuples field by field), anything else deep-copied.
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*[_plain(item) for item in value])
    if isinstance(value, (list, tuple)):
        return type(value)(_plain(item) for item in value)
    if isinstance(value, dict):
        return type(value)((_plain(key), _plain(item)) for key, item in value.items())
    return copy.deepcopy(value)


_NAMES: dict[type, frozenset[str]] = {}


def field_names(cls: type) -> frozenset[str]:
    """The field names of a dataclass, computed once per class."""
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = frozenset(f.name for f in fields(cls))
    return names
