"""Recognising context-length errors from their messages, which vendors word differently."""

from __future__ import annotations

import re

_OVERFLOW = re.compile(
    r"too long|context[_ ]length|maximum context|context window|maximum model length"
    r"|too many (input )?tokens|token count.*exceed|exceeds? .*(context|token|limit)"
    r"|tokens? exceed|too large",
    re.IGNORECASE,
)


def says_context_overflow(message: str) -> bool:
    """Whether an error message reports a request too long for the model's context."""
    return _OVERFLOW.search(message) is not None
