from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.export.fixtures import make_dataset

THIRDS = "0.34,0.33,0.33"


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small built dataset with questions, shared by the export tests (read-only)."""
    root = tmp_path_factory.mktemp("built") / "data"
    make_dataset(root, 4)
    return root


@pytest.fixture(scope="session")
def hf_dir(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``built`` exported as an HF folder with roughly equal splits (read-only)."""
    from figgen.export.hf import export_hf
    from figgen.export.splits import SplitFractions

    out = tmp_path_factory.mktemp("hf") / "hf"
    export_hf(built, out, fractions=SplitFractions.parse(THIRDS))
    return out


def read_qa(root: Path) -> list[dict[str, Any]]:
    with (root / "qa.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]
