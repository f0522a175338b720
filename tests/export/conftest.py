from __future__ import annotations

from pathlib import Path

import pytest

from tests.export.fixtures import make_dataset


@pytest.fixture(scope="session")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A small built dataset with questions, shared by the export tests (read-only)."""
    root = tmp_path_factory.mktemp("built") / "data"
    make_dataset(root, 6)
    return root
