from __future__ import annotations

from pathlib import Path

import pytest

from figgen.multichart.build import build_sets

MINI = str(Path(__file__).parent / "data" / "mini.toml")


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two sets: the test graph and the dense single chart (charts of every kind but bar)."""
    out = tmp_path_factory.mktemp("multichart") / "sets"
    build_sets(out, n=2, seed=3, scenarios=[MINI, "dense"])
    return out
