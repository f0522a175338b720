from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from figgen.multichart.build import build_sets
from figgen.multichart.graph import Graph, build_graph, spec_from_dict
from figgen.multichart.scenarios import scenario_names
from figgen.schema.record import Record, open_record

MINI = str(Path(__file__).parent / "data" / "mini.toml")
SCENARIOS = [MINI, *scenario_names()]


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six sets: the test graph and one of each shipped scenario (every chart kind)."""
    out = tmp_path_factory.mktemp("multichart") / "sets"
    build_sets(out, n=len(SCENARIOS), seed=3, scenarios=SCENARIOS)
    return out


@pytest.fixture(scope="session")
def stat_sets(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Two statanalysis sets: histograms, box plots, a range plot and a scatter plot."""
    out = tmp_path_factory.mktemp("statanalysis") / "sets"
    build_sets(out, n=2, seed=7, scenarios=["statanalysis"])
    return out


def set_images(root: Path, record: dict[str, Any]) -> tuple[Graph, dict[str, Record]]:
    """A set's graph and its images' records, by image node."""
    graph = build_graph(spec_from_dict(record["spec"]))
    records = {
        name: open_record(root / shown["record"]) for name, shown in record["images"].items()
    }
    return graph, records
