"""The shipped scenario families: one TOML graph spec each."""

from __future__ import annotations

from importlib import resources

from figgen.errors import FiggenError
from figgen.multichart.graph import load_spec
from figgen.multichart.spec import GraphSpec


def scenario_names() -> list[str]:
    folder = resources.files(__name__)
    return sorted(
        p.name.removesuffix(".toml") for p in folder.iterdir() if p.name.endswith(".toml")
    )


def load_scenario(name: str) -> GraphSpec:
    """A shipped scenario by name, or a TOML file by path."""
    if name.endswith(".toml"):
        return load_spec(name)
    if name not in scenario_names():
        raise FiggenError(
            f"unknown scenario '{name}'; use one of {', '.join(scenario_names())} or a .toml file"
        )
    with resources.as_file(resources.files(__name__) / f"{name}.toml") as path:
        return load_spec(path)
