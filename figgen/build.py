"""Build a dataset folder: figures/<id>.png + <id>.json, manifest.json, and questions.

Each figure depends only on (config, seed, index), so any number of workers, any order and
any interruption give the same bytes; a rerun of the same command finishes what is missing.
"""

from __future__ import annotations

import json
import logging
import os
from collections import Counter
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from figgen import __version__
from figgen.config import FigureConfig
from figgen.errors import BuildDirError, FiggenError
from figgen.record import figure_id
from figgen.store import atomic_write_bytes, atomic_write_text, remove_stale_temporaries

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
FIGURES = "figures"


@dataclass(frozen=True)
class BuildSummary:
    out: Path
    n: int
    generated: int
    skipped: int
    manifest: dict[str, Any]


def build_dataset(
    out: str | Path,
    *,
    n: int,
    seed: int = 0,
    workers: int | None = None,
    config: FigureConfig | None = None,
    progress: bool = True,
    questions: bool = True,
) -> BuildSummary:
    """Generate figures ``0..n-1`` of ``seed`` into ``out`` (resuming), then the manifest."""
    if n <= 0:
        raise FiggenError(f"--n must be a positive number of figures, got {n}")
    if workers is not None and workers <= 0:
        raise FiggenError(f"--workers must be at least 1, got {workers}")
    config = config or FigureConfig()
    _check_styles(config)
    out = Path(out)
    figures = _prepare_dir(out, seed, config)
    todo = [i for i in range(n) if not _is_done(figures, i)]
    log.info("%d of %d figures to generate in %s", len(todo), n, out)
    for _ in _run(todo, seed, config, figures, workers or os.cpu_count() or 1, progress):
        pass
    manifest = _manifest(out, n, seed, config)
    if questions:
        manifest["qa"] = _write_questions(out)
    atomic_write_text(out / MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return BuildSummary(out, n, len(todo), n - len(todo), manifest)


def _prepare_dir(out: Path, seed: int, config: FigureConfig) -> Path:
    """Make sure ``out`` is empty or holds this same build; claim it with a manifest."""
    if out.exists() and not out.is_dir():
        raise BuildDirError(f"{out} is a file, not a folder; choose another --out")
    manifest_path = out / MANIFEST
    if manifest_path.exists():
        try:
            existing = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError):
            raise BuildDirError(
                f"{manifest_path} is unreadable; move it away or use another --out"
            ) from None
        if existing.get("seed") != seed or existing.get("config") != config.to_dict():
            raise BuildDirError(
                f"{out} holds another build (seed {existing.get('seed')}, different config); "
                "rerun with its seed and config to resume, or choose another --out"
            )
    elif out.exists() and any(out.iterdir()):
        raise BuildDirError(f"{out} is not empty and holds no figgen build; choose another --out")
    figures = out / FIGURES
    try:
        figures.mkdir(parents=True, exist_ok=True)
        removed = remove_stale_temporaries(figures)
        if not manifest_path.exists():
            claim = {
                "status": "in_progress",
                "seed": seed,
                "config": config.to_dict(),
                "figgen_version": __version__,
            }
            atomic_write_text(manifest_path, json.dumps(claim, indent=2, sort_keys=True) + "\n")
    except OSError as exc:
        raise BuildDirError(
            f"cannot write to {out}: {exc.strerror}; choose a writable --out"
        ) from None
    if removed:
        log.info("removed %d partial files left by an interrupted run", removed)
    return figures


def _is_done(figures: Path, index: int) -> bool:
    # The JSON is written after the PNG, so its presence means the figure is complete.
    name = figure_id(index)
    return (figures / f"{name}.json").exists() and (figures / f"{name}.png").exists()


def write_figure(figures: Path, seed: int, index: int, config: FigureConfig) -> int:
    """Generate one figure and write its PNG, then its record; returns the index."""
    from figgen.generate import generate_figure

    figure = generate_figure(config, seed, index)
    name = figure.record["id"]
    atomic_write_bytes(figures / f"{name}.png", figure.png)
    atomic_write_text(figures / f"{name}.json", figure.record_json)
    return index


def _run(
    todo: list[int],
    seed: int,
    config: FigureConfig,
    figures: Path,
    workers: int,
    progress: bool,
) -> Iterable[int]:
    from tqdm import tqdm

    bar = tqdm(total=len(todo), desc="figures", unit="fig", disable=not progress or not todo)
    with bar:
        if workers == 1 or len(todo) <= 1:
            for index in todo:
                yield write_figure(figures, seed, index, config)
                bar.update()
            return
        ctx = get_context("spawn")  # no inherited matplotlib or thread state in workers
        with ProcessPoolExecutor(max_workers=min(workers, len(todo)), mp_context=ctx) as pool:
            futures = [pool.submit(write_figure, figures, seed, i, config) for i in todo]
            for future in as_completed(futures):
                yield future.result()
                bar.update()


def _manifest(out: Path, n: int, seed: int, config: FigureConfig) -> dict[str, Any]:
    kinds: Counter[str] = Counter()
    dists: Counter[str] = Counter()
    panel_counts: Counter[int] = Counter()
    repaired = resampled = 0
    for index in range(n):
        record = json.loads((out / FIGURES / f"{figure_id(index)}.json").read_text("utf-8"))
        panel_counts[record["layout"]["n_panels"]] += 1
        for panel in record["panels"]:
            kinds[panel["kind"]] += 1
            dists[panel["distribution"]] += 1
        repaired += bool(record["repair"]["actions"])
        resampled += bool(record["repair"]["resampled"])
    multi = sum(c for k, c in panel_counts.items() if k > 1) / n
    if multi < config.panels.min_multi_panel_share:
        log.warning(
            "multi-panel share %.2f is below %.2f", multi, config.panels.min_multi_panel_share
        )
    return {
        "status": "complete",
        "figgen_version": __version__,
        "seed": seed,
        "n": n,
        "command": f"figgen build --n {n} --seed {seed}",
        "config": config.to_dict(),
        "counts": {
            "figures": n,
            "panels": sum(kinds.values()),
            "by_kind": dict(sorted(kinds.items())),
            "by_distribution": dict(sorted(dists.items())),
            "by_panel_count": {str(k): v for k, v in sorted(panel_counts.items())},
            "multi_panel_share": round(multi, 4),
            "repaired": repaired,
            "resampled": resampled,
        },
    }


def _write_questions(out: Path) -> dict[str, Any] | None:
    """Questions for the build, when the question builder is available."""
    writer: Callable[[Path], dict[str, Any]] | None = None
    try:
        from figgen.vqa import write_qa as writer  # type: ignore[attr-defined, no-redef]
    except ImportError:
        return None
    return writer(out)


def _check_styles(config: FigureConfig) -> None:
    import matplotlib.style

    unknown = sorted(
        set(config.style.styles) - set(matplotlib.style.available) - {"default", "classic"}
    )
    if unknown:
        raise FiggenError(
            f"config style.styles names unknown matplotlib styles {unknown}; "
            "see matplotlib.style.available"
        )
