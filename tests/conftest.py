"""Shared fixtures: a small, fast generator config and a tiny built dataset."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from figgen.config.load import FigureConfig, load_config


@pytest.fixture(scope="session")
def small_config() -> FigureConfig:
    """Few panels at low dpi: every code path, a fraction of the pixels."""
    return load_config("small")


@pytest.fixture(scope="session")
def small_build(tmp_path_factory: pytest.TempPathFactory, small_config: FigureConfig) -> Path:
    from figgen.build.dataset import build_dataset

    out = tmp_path_factory.mktemp("build") / "ds"
    build_dataset(out, n=6, seed=11, workers=1, config=small_config, progress=False)
    return out


@pytest.fixture(scope="module")
def unbalanced() -> Iterator[None]:
    """Ask every item the rules allow: no balancing draws (tests of a family's rules).

    Balancing at the source (``figgen.vqa.api.balance``) drops some items of dominant answers by
    a seeded draw; it is tested on its own in ``tests/vqa/api/test_balance.py``.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("figgen.vqa.api.balance.declared_keep", lambda: {})
        yield
