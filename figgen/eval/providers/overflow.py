"""Classifying vendor errors: context overflows (worded differently by each vendor), retries."""

from __future__ import annotations

import json
import re
from typing import Any

_OVERFLOW = re.compile(
    r"too long|context[_ ]length|maximum context|context window|maximum model length"
    r"|too many (input )?tokens|token count.*exceed|exceeds? .*(context|token|limit)"
    r"|tokens? exceed|too large",
    re.IGNORECASE,
)


def says_context_overflow(message: str) -> bool:
    """Whether an error message reports a request too long for the model's context."""
    return _OVERFLOW.search(message) is not None


# The openai and anthropic SDKs share their error classes (both are generated from the same
# toolkit), so both providers classify errors with these.


_TRANSPORT_ERRORS = {
    # the HTTP clients under the vendor SDKs, matched by name so none has to be installed
    "httpx": ("TransportError", "TimeoutException"),
    "httpx2": ("TransportError", "TimeoutException"),
    "aiohttp": ("ClientConnectionError", "ClientPayloadError", "ServerTimeoutError"),
}


def transient(error: Exception) -> bool:
    """A fault below the vendor's API that another try may not meet: a dropped or reset
    connection, a timeout, or a body cut short (JSON that does not parse)."""
    if isinstance(error, ConnectionError | TimeoutError | json.JSONDecodeError):
        return True
    for cls in type(error).__mro__:
        names = _TRANSPORT_ERRORS.get(cls.__module__.split(".")[0], ())
        if cls.__name__ in names:
            return True
    return False


def sdk_retryable(sdk: Any, error: Exception) -> bool:
    """Rate limits, dropped connections and server errors (5xx, Anthropic's 529 overload)."""
    if isinstance(error, sdk.RateLimitError | sdk.APIConnectionError) or transient(error):
        return True
    return isinstance(error, sdk.APIStatusError) and error.status_code >= 500


def sdk_context_overflow(sdk: Any, error: Exception) -> bool:
    """A 400/413 whose code or message says the request exceeds the context."""
    if not isinstance(error, sdk.APIStatusError) or error.status_code not in (400, 413):
        return False
    if getattr(error, "code", None) == "context_length_exceeded":
        return True
    return says_context_overflow(str(error))


def sdk_fatal(sdk: Any, error: Exception) -> bool:
    """Bad or unauthorised keys: retrying cannot help."""
    return isinstance(error, sdk.AuthenticationError | sdk.PermissionDeniedError)
