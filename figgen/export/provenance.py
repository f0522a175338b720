"""What regenerates a built dataset: figgen version, seed and command, from its manifest."""

from __future__ import annotations

import shlex
from typing import Any

from figgen.export.source import BuiltDataset


def provenance(dataset: BuiltDataset, first_record: dict[str, Any] | None) -> tuple[str, Any, str]:
    """The figgen version, seed and command that regenerate ``dataset``, from its manifest."""
    manifest = dataset.manifest
    generator: dict[str, Any] = manifest.get("generator") or {}
    version = (
        manifest.get("figgen_version")
        or manifest.get("version")
        or generator.get("version")
        or (first_record or {}).get("generator", {}).get("version")
        or "unknown"
    )
    seed = manifest.get("seed", (first_record or {}).get("seed"))
    command = manifest.get("command")
    if isinstance(command, list):
        command = shlex.join(str(part) for part in command)
    if not command:
        n = manifest.get("n", manifest.get("n_figures", len(dataset.figure_ids())))
        command = f"figgen build --n {n} --seed {seed} --out DIR"
    return str(version), seed, str(command)
