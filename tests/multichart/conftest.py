from __future__ import annotations

from pathlib import Path

import pytest

from figgen.multichart.build import build_sets
from figgen.multichart.scenarios import scenario_names

MINI = str(Path(__file__).parent / "data" / "mini.toml")
SCENARIOS = [MINI, *scenario_names()]


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six sets: the test graph and one of each shipped scenario (every chart kind)."""
    out = tmp_path_factory.mktemp("multichart") / "sets"
    build_sets(out, n=len(SCENARIOS), seed=3, scenarios=SCENARIOS)
    return out
