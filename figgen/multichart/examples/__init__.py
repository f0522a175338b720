"""Example graph specs to copy and edit (``figgen multichart example NAME --out FILE``)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from figgen.errors import FiggenError


def example_names() -> list[str]:
    folder = resources.files(__name__)
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )


def example_text(name: str) -> str:
    """The shipped example spec ``name``, as TOML text."""
    if name not in example_names():
        raise FiggenError(f"no example spec {name!r}; examples: {', '.join(example_names())}")
    return (resources.files(__name__) / f"{name}.toml").read_text(encoding="utf-8")


def write_example(name: str, out: Path) -> Path:
    """Copy example ``name`` to ``out`` (never over an existing file)."""
    text = example_text(name)
    if out.exists():
        raise FiggenError(f"{out} exists; choose another --out (it is left as it was)")
    if not out.parent.is_dir():
        raise FiggenError(f"folder {out.parent} does not exist; create it or choose another --out")
    out.write_text(text, encoding="utf-8")
    return out
