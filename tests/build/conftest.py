"""Reference builds that every scaled build must equal byte for byte."""

from __future__ import annotations

from pathlib import Path

import pytest

from figgen.config.load import FigureConfig, load_config

SEED = 5
N = 3


@pytest.fixture(scope="session")
def tiny_config() -> FigureConfig:
    """One or two panels at low dpi: the cheapest figures that still run every step."""
    return load_config("tiny")


def _files_build(root: Path, config: FigureConfig) -> Path:
    from figgen.build.dataset import build_dataset

    out = root / "ds"
    build_dataset(out, n=N, seed=SEED, workers=1, config=config, progress=False)
    return out


@pytest.fixture(scope="session")
def small_reference(tmp_path_factory: pytest.TempPathFactory, small_config: FigureConfig) -> Path:
    """``N`` small figures of ``SEED`` built in this process as loose files (read-only)."""
    return _files_build(tmp_path_factory.mktemp("small-reference"), small_config)


@pytest.fixture(scope="session")
def tiny_reference(tmp_path_factory: pytest.TempPathFactory, tiny_config: FigureConfig) -> Path:
    """``N`` tiny figures of ``SEED`` built in this process as loose files (read-only)."""
    return _files_build(tmp_path_factory.mktemp("tiny-reference"), tiny_config)


@pytest.fixture(scope="session")
def tiny_parquet(tmp_path_factory: pytest.TempPathFactory, tiny_config: FigureConfig) -> Path:
    """The same figures as ``tiny_reference`` in parquet shards of 2 (read-only)."""
    from figgen.build.dataset import build_dataset

    out = tmp_path_factory.mktemp("tiny-parquet") / "ds"
    build_dataset(
        out,
        n=N,
        seed=SEED,
        workers=1,
        config=tiny_config,
        progress=False,
        format="parquet",
        shard_size=2,
    )
    return out


def tree_bytes(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by relative path."""
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }
