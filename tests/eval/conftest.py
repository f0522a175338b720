from __future__ import annotations

from pathlib import Path

import pytest

from tests.eval.fixtures import make_dataset


@pytest.fixture
def dataset_dir(tmp_path: Path) -> Path:
    return make_dataset(tmp_path / "data")
