from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.export.fixtures import write_hand_qa

THIRDS = "0.34,0.33,0.33"


@pytest.fixture(scope="session")
def built(small_build: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The shared small build (real figures) with questions, for the export tests (read-only).

    Questions are the build's own when ``figgen.vqa`` wrote ``qa.jsonl``, else hand-written ones.
    """
    root = tmp_path_factory.mktemp("built") / "data"
    shutil.copytree(small_build, root)
    if not (root / "qa.jsonl").is_file():
        write_hand_qa(root)
    return root


@pytest.fixture(scope="session")
def hf_dir(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``built`` exported as an HF folder with roughly equal splits (read-only)."""
    from figgen.export.hf import HfOptions, export_hf
    from figgen.schema.splits import SplitFractions

    out = tmp_path_factory.mktemp("hf") / "hf"
    export_hf(built, out, HfOptions(SplitFractions.parse(THIRDS)))
    return out


def read_qa(root: Path) -> list[dict[str, Any]]:
    with (root / "qa.jsonl").open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]
