"""Pre-flight token estimates: each vendor's published image-token rule, and text length.

These are estimates for budgeting only; billed tokens come from each API response. A
provider applies its vendor's rule in its ``image_tokens`` hook.
"""

from __future__ import annotations

import math

CHARS_PER_TOKEN = 4
"""Rough English text rate, used for the question and the format instruction."""

OUTPUT_TOKENS_ESTIMATE = 60
"""Assumed reply length without reasoning; reasoning models bill more (see docs/eval.md)."""


def text_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def openai_image_tokens(width: int, height: int) -> int:
    """OpenAI high-detail rule: fit in 2048 square, shortest side 768, 170 per 512 tile + 85."""
    scale = min(1.0, 2048 / max(width, height))
    w, h = width * scale, height * scale
    scale = min(1.0, 768 / min(w, h))
    w, h = w * scale, h * scale
    return 85 + 170 * math.ceil(w / 512) * math.ceil(h / 512)


def anthropic_image_tokens(width: int, height: int) -> int:
    """Anthropic rule: long edge at most 1568 px, then width * height / 750."""
    scale = min(1.0, 1568 / max(width, height))
    return math.ceil(width * scale * height * scale / 750)


def gemini_image_tokens(width: int, height: int) -> int:
    """Gemini rule: 258 tokens if both sides <= 384 px, else 258 per 768 x 768 tile."""
    if width <= 384 and height <= 384:
        return 258
    return 258 * math.ceil(width / 768) * math.ceil(height / 768)
