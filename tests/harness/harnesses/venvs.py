"""Cached virtual environments that hold a real evaluation harness, for the slow tests.

A harness (lmms-eval and its torch) is too heavy for the dev extras, so a slow test installs it
into its own venv, keyed by what it asks pip for, and reuses that venv on later runs. figgen is
not installed there: the harness runs with this checkout on ``PYTHONPATH`` (figgen's own
dependencies are installed), so the code under test is always the checkout's.

The venvs live under ``$FIGGEN_HARNESS_VENVS``, else ``$XDG_CACHE_HOME/figgen/harness-venvs``
(``~/.cache/...``). A venv is used only once its install has finished (a marker file written
last), so a killed install is redone rather than half used.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[3]
READY = "figgen-harness-ready.json"


def figgen_dependencies() -> list[str]:
    """figgen's runtime requirements, as pyproject.toml states them."""
    with (REPO / "pyproject.toml").open("rb") as handle:
        return list(tomllib.load(handle)["project"]["dependencies"])


def venvs_root() -> Path:
    if os.environ.get("FIGGEN_HARNESS_VENVS"):
        return Path(os.environ["FIGGEN_HARNESS_VENVS"])
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return cache / "figgen" / "harness-venvs"


@dataclass(frozen=True)
class HarnessVenv:
    """A finished venv: its interpreter and how long its install took (0 when reused)."""

    python: Path
    install_seconds: float

    def run(self, *args: str, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess:
        """Run this venv's python with the checkout importable; output is captured."""
        full_env = {**os.environ, **env, "PYTHONPATH": str(REPO)}
        return subprocess.run(
            [str(self.python), *args],
            env=full_env,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )


def harness_venv(name: str, install: list[str], *, remove: list[str] = ()) -> HarnessVenv:
    """The venv ``name`` with ``install`` (pip arguments) installed and ``remove`` uninstalled."""
    spec = {"python": sys.version, "install": install, "remove": list(remove)}
    key = hashlib.sha256(json.dumps(spec, sort_keys=True).encode()).hexdigest()[:12]
    folder = venvs_root() / f"{name}-{key}"
    python = folder / "bin" / "python"
    if (folder / READY).is_file():
        return HarnessVenv(python, 0.0)
    for stale in folder.parent.glob(f"{name}-*"):  # older specs: a venv is gigabytes
        shutil.rmtree(stale, ignore_errors=True)
    folder.parent.mkdir(parents=True, exist_ok=True)
    start = time.monotonic()
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True)
    pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
    _run([*pip, "install", "--quiet", *install])
    if remove:
        _run([*pip, "uninstall", "--yes", "--quiet", *remove])
    seconds = time.monotonic() - start
    (folder / READY).write_text(json.dumps({**spec, "install_seconds": seconds}))
    return HarnessVenv(python, seconds)


def _run(command: list[str]) -> None:
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        tail = "\n".join(done.stderr.splitlines()[-15:])
        raise RuntimeError(f"{' '.join(command[:6])} ... failed ({done.returncode}):\n{tail}")
