"""Where the repository's files are, for tests that read its docs or run its code."""

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
"""The repository root: ``docs/``, ``figgen/`` and ``tests/`` sit in it."""
