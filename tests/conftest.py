"""Shared fixtures: a small, fast generator config and a tiny built dataset."""

from __future__ import annotations

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
