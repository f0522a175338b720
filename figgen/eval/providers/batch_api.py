"""What every vendor's batch API offers the batch runner: submit, find, poll, collect.

A provider with a batch API returns its backend from ``Provider.batch_backend``, handing it
the provider's own request builder and reply reader, so a batch asks exactly what a live
call asks and reads its results alike.
"""

from __future__ import annotations

import abc
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from figgen.eval.providers.exchange import AskConfig, Prompt, Reply

Outcome = Literal["reply", "error", "missing"]

RequestBody = Callable[[Prompt, AskConfig], dict[str, Any]]
"""The request a live call sends for ``prompt``, as the vendor's batch entry carries it."""

ReadReply = Callable[[Any], Reply]
"""Text and billed tokens of one of the vendor's responses (as the SDK types it)."""


@dataclass(frozen=True)
class BatchStatus:
    """Where a batch stands: ``done`` when no more results will come; ``state`` is the vendor's
    word for it, shown to the user."""

    done: bool
    state: str


@dataclass(frozen=True)
class BatchResult:
    """One request's outcome: a reply, an error (written as an error row, asked again by the
    next run), or missing (the batch expired or was cancelled first: submitted again)."""

    key: str
    outcome: Outcome
    reply: Reply | None = None
    error: str | None = None


class BatchBackend(abc.ABC):
    """One vendor's batch endpoints, driven through its official SDK."""

    name: str = "batch"
    max_requests: int = 10_000
    """Requests per batch the vendor accepts."""
    max_bytes: int = 190 * 2**20
    """Bytes of requests per batch (under the vendor's file limit, and bounding memory)."""

    @abc.abstractmethod
    def request(self, key: str, prompt: Prompt, config: AskConfig) -> dict[str, Any]:
        """The batch entry asking ``prompt`` under ``key`` (the same body a live call sends)."""

    @abc.abstractmethod
    async def submit(self, requests: list[dict[str, Any]], token: str) -> str:
        """Upload and create one batch labelled ``token``; return its id."""

    @abc.abstractmethod
    async def find(self, token: str, n_requests: int, since: float) -> str | None:
        """The id of a batch created under ``token`` (at or after ``since``, a Unix time) by a
        run killed before it could record the id, if the vendor has one."""

    @abc.abstractmethod
    async def status(self, batch_id: str) -> BatchStatus:
        """Where the batch stands."""

    @abc.abstractmethod
    async def results(self, batch_id: str) -> list[BatchResult]:
        """Every result of a finished batch."""

    async def aclose(self) -> None:  # noqa: B027  (a hook with a default, not abstract)
        """Release connections."""


def entry_bytes(entry: dict[str, Any]) -> bytes:
    """One JSONL line of a request file."""
    return (json.dumps(entry, ensure_ascii=False) + "\n").encode()


def error_text(error: Any) -> str:
    """``type: message`` of a vendor's error object or dict, on one line."""
    if error is None:
        return "no result"
    if isinstance(error, dict):
        kind = error.get("type") or error.get("code") or "error"
        message = error.get("message") or json.dumps(error)
    else:
        kind = getattr(error, "type", None) or getattr(error, "code", None) or "error"
        message = getattr(error, "message", None) or str(error)
    return " ".join(f"{kind}: {message}".split())[:300]
