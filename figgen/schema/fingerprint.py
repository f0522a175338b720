"""Tie an answers file to the build it answers: seed, config hash and figgen version.

``figgen eval run`` writes the dataset's fingerprint into every answers row; ``figgen eval
score`` refuses rows whose fingerprint differs from the dataset's (the qids of two builds
coincide, so answers to another build would otherwise score silently against the wrong
truths). Rows written before fingerprints existed are scored with a warning.
"""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from figgen.errors import FiggenError

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
FIELD = "build"
"""The key of the fingerprint in an answers row."""


@dataclass(frozen=True)
class BuildFingerprint:
    """What makes a build's questions what they are."""

    seed: int | None
    config_hash: str
    figgen_version: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, values: Any) -> BuildFingerprint | None:
        """The fingerprint stored in a row, or None when the row carries none (or a damaged one)."""
        if not isinstance(values, dict):
            return None
        try:
            return cls(
                values.get("seed"), str(values["config_hash"]), str(values["figgen_version"])
            )
        except KeyError:
            return None

    def describe(self) -> str:
        """One phrase naming the build, e.g. ``seed 31, config 3f2a9c01d4e6, figgen 0.1.0``."""
        return f"seed {self.seed}, config {self.config_hash}, figgen {self.figgen_version}"


def config_hash(config: Any) -> str:
    """A short, stable hash of a build config (canonical JSON)."""
    text = json.dumps(config, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


def build_fingerprint(root: str | Path) -> BuildFingerprint | None:
    """The fingerprint of the build in ``root`` from its manifest (None: no build manifest)."""
    path = Path(root) / MANIFEST
    try:
        manifest = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(manifest, dict) or "config" not in manifest:
        return None
    seed = manifest.get("seed")
    return BuildFingerprint(
        seed if isinstance(seed, int) else None,
        config_hash(manifest["config"]),
        str(manifest.get("figgen_version", "unknown")),
    )


def check_answers_build(
    dataset: BuildFingerprint | None,
    rows: Iterable[dict[str, Any]],
    path: str | Path,
    *,
    allow_other_build: bool = False,
) -> int:
    """Refuse ``rows`` answered on another build; return how many rows carry no fingerprint.

    A mismatch is a one-line FiggenError naming both builds, unless ``allow_other_build``
    (then a warning). Rows without a fingerprint (files written before figgen recorded one)
    are counted, logged once and scored.
    """
    if dataset is None:
        return 0
    unmarked = 0
    for row in rows:
        if FIELD not in row:
            unmarked += 1
            continue
        theirs = BuildFingerprint.from_dict(row[FIELD])
        if theirs == dataset:
            continue
        named = theirs.describe() if theirs else "an unreadable fingerprint"
        message = (
            f"{path} answers another build ({named}), not this dataset ({dataset.describe()}); "
            "score it against its own build, or pass --allow-other-build"
        )
        if not allow_other_build:
            raise FiggenError(message)
        log.warning("%s", message)
        break
    if unmarked:
        log.warning(
            "%s: %d answers carry no build fingerprint (written by an older figgen); "
            "scored against %s unchecked",
            path,
            unmarked,
            dataset.describe(),
        )
    return unmarked
