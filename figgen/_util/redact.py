"""Keeping credentials out of everything figgen writes or prints.

What counts as a credential is declared by whoever reads one (a provider's registration,
the Hub push): :func:`declare_secret` names the environment variables that hold it and the
shape of its values, and :func:`redact` hides every declared one.
"""

from __future__ import annotations

import os
import re

_ENV: list[str] = []
"""Declared variables holding a credential, in declaration order."""
_SHAPES: list[str] = []
"""Declared key shapes (regular expressions), in declaration order."""
_shape: re.Pattern[str] | None = None


def declare_secret(*env: str, shape: str | None = None) -> None:
    """Declare that the environment variables ``env`` hold a credential whose values look
    like ``shape`` (a regular expression matched at a word start); declaring again is a no-op."""
    global _shape
    _ENV.extend(name for name in env if name not in _ENV)
    if shape is not None and shape not in _SHAPES:
        _SHAPES.append(shape)
        _shape = re.compile(r"\b(?:" + "|".join(_SHAPES) + ")")


def secret_env() -> tuple[str, ...]:
    """The declared environment variables, in declaration order."""
    return tuple(_ENV)


def redact(text: str, *secrets: str | None) -> str:
    """``text`` with every credential replaced by ``***``: the ``secrets`` given, the values
    of the declared environment variables, and anything shaped like a declared key."""
    known = [*secrets, *(os.environ.get(name) for name in _ENV)]
    for value in known:
        if value and len(value) >= 8:
            text = text.replace(value, "***")
    return text if _shape is None else _shape.sub("***", text)
