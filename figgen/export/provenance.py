"""What regenerates a built dataset: figgen version, seed, command and config, from its manifest."""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Any

from figgen.export.source import BuiltDataset
from figgen.schema.record import Record

CONFIG_FILE = "build_config.json"
"""Written beside the card when the build used a non-default config."""


@dataclass(frozen=True)
class Provenance:
    version: str
    seed: Any
    command: str
    config: dict[str, Any] | None
    """The build's config when it differs from the defaults (so the command needs it)."""


def _non_default(config: Any) -> dict[str, Any] | None:
    if not isinstance(config, dict):
        return None
    from figgen.config.load import config_from_dict

    return None if config == config_from_dict({}).to_dict() else config


def provenance(dataset: BuiltDataset, first_record: Record | None) -> Provenance:
    """Read the manifest (falling back to a record) for what regenerates ``dataset``."""
    manifest = dataset.manifest
    generator: dict[str, Any] = manifest.get("generator") or {}
    version = (
        manifest.get("figgen_version")
        or generator.get("version")
        or (first_record.generator.version if first_record else None)
        or "unknown"
    )
    seed = manifest.get("seed", first_record.seed if first_record else None)
    command = manifest.get("command")
    if isinstance(command, list):
        command = shlex.join(str(part) for part in command)
    if not command:
        n = manifest.get("n", len(dataset.figure_ids()))
        command = f"figgen build --n {n} --seed {seed}"
    # the reader has neither the builder's folder nor its config file: DIR and the shipped copy
    command = _without_options(str(command), ("--out", "--config")) + " --out DIR"
    config = _non_default(manifest.get("config"))
    if config is not None:
        command += f" --config {CONFIG_FILE}"
    return Provenance(str(version), seed, str(command), config)


def _without_options(command: str, names: tuple[str, ...]) -> str:
    """``command`` without the named ``--option value`` pairs."""
    kept: list[str] = []
    skip = False
    for part in shlex.split(command):
        if skip:
            skip = False
        elif part in names:
            skip = True
        elif not part.startswith(tuple(f"{name}=" for name in names)):
            kept.append(part)
    return shlex.join(kept)
