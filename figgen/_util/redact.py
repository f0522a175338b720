"""Keeping credentials out of everything figgen writes or prints."""

from __future__ import annotations

import os
import re

SECRET_ENV = (
    "OPENAI_API_KEY",
    "ANTHROPIC_API_KEY",
    "GEMINI_API_KEY",
    "GOOGLE_API_KEY",
    "HF_TOKEN",
    "HUGGING_FACE_HUB_TOKEN",
)
_SECRET_SHAPE = re.compile(
    r"\b(?:sk-[A-Za-z0-9_\-]{8,}|AIza[A-Za-z0-9_\-]{20,}|hf_[A-Za-z0-9]{16,})"
)


def redact(text: str, *secrets: str | None) -> str:
    """``text`` with every credential replaced by ``***``: the ``secrets`` given, those in
    the environment, and anything shaped like an OpenAI, Google or Hub key."""
    known = [*secrets, *(os.environ.get(name) for name in SECRET_ENV)]
    for value in known:
        if value and len(value) >= 8:
            text = text.replace(value, "***")
    return _SECRET_SHAPE.sub("***", text)
