"""Build a dataset folder: figures/<id>.png + <id>.json, manifest.json, and questions.

Each figure depends only on (config, seed, index), so any number of workers, any order and
any interruption give the same bytes; a rerun of the same command finishes what is missing.
"""

from __future__ import annotations

import json
import logging
import math
import os
import shlex
from collections import Counter
from collections.abc import Iterable
from contextlib import nullcontext
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Literal

from figgen._util.version import __version__
from figgen.build import shards
from figgen.build.executors import Executor, Task, make_executor
from figgen.build.sampling import sample_footprint
from figgen.config.load import PRESETS, FigureConfig
from figgen.errors import BuildDirError, BuildInterrupted, FiggenError
from figgen.render.png import PngSettings, check_encoder
from figgen.schema.record import Record, check_version, figure_id, read_record
from figgen.store.lock import LOCK_NAME, folder_lock
from figgen.store.storage import BuildStore
from figgen.vqa.files import PARTS_DIR, figure_part
from figgen.vqa.questions.offered import balance_table, offered_kinds

log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
FIGURES = "figures"

OutputFormat = Literal["files", "parquet"]


@dataclass(frozen=True)
class BuildSummary:
    out: Path | str
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
    scheduler: str | None = None,
    format: OutputFormat = "files",
    shard_size: int = shards.DEFAULT_SHARD_SIZE,
    config_source: str | None = None,
) -> BuildSummary:
    """Generate figures ``0..n-1`` of ``seed`` into ``out`` (resuming), then the manifest.

    ``out`` is a local folder or an fsspec URL. ``scheduler`` (``tcp://host:port``) runs the
    figures on that Dask cluster instead of local processes. ``format="parquet"`` writes
    shards of ``shard_size`` figures in the HF export's schema instead of loose files.
    ``config_source`` (the ``--config`` file or preset) goes into the manifest's command.
    """
    if n <= 0:
        raise FiggenError(f"--n must be a positive number of figures, got {n}")
    if workers is not None and workers <= 0:
        raise FiggenError(f"--workers must be at least 1, got {workers}")
    if shard_size <= 0:
        raise FiggenError(f"--shard-size must be at least 1, got {shard_size}")
    config = config or FigureConfig()
    _check_styles(config)
    check_encoder(PngSettings.of(config.image))
    store = BuildStore.open(out)
    if store.is_file():
        raise BuildDirError(f"{store} is a file, not a folder; choose another --out")
    # one writer per local folder (remote stores cannot be locked this way)
    claim = folder_lock(store.local_path()) if store.is_local else nullcontext()
    with claim:
        try:
            return _build_locked(
                out,
                store,
                n=n,
                seed=seed,
                workers=workers,
                config=config,
                progress=progress,
                questions=questions,
                scheduler=scheduler,
                format=format,
                shard_size=shard_size,
                config_source=config_source,
            )
        except KeyboardInterrupt:
            raise BuildInterrupted(_count_kept(store, n, format, shard_size)) from None


def _count_kept(store: BuildStore, n: int, format: OutputFormat, shard_size: int) -> int:
    """How many of the ``n`` figures are finished on disk (what a rerun keeps)."""
    if format == "parquet":
        return sum(
            len(shard.indices)
            for shard in shards.plan_shards(n, shard_size)
            if store.exists(shard.rel)
        )
    done = store.names(FIGURES)
    return sum(_is_done(done, i) for i in range(n))


def _build_locked(
    out: str | Path,
    store: BuildStore,
    *,
    n: int,
    seed: int,
    workers: int | None,
    config: FigureConfig,
    progress: bool,
    questions: bool,
    scheduler: str | None,
    format: OutputFormat,
    shard_size: int,
    config_source: str | None,
) -> BuildSummary:
    layout = {"format": "parquet", "shard_size": shard_size} if format == "parquet" else {}
    with make_executor(workers or os.cpu_count() or 1, scheduler) as executor:
        _prepare_dir(store, seed, config, layout)
        if format == "parquet":
            todo, generated = shards.shard_tasks(store, n, shard_size, seed, config)
        else:
            done = store.names(FIGURES)
            missing = [i for i in range(n) if not _is_done(done, i)]
            # workers make each figure's questions too (joined in figure order at the end)
            parts = questions and store.is_local
            if parts:
                store.makedirs(PARTS_DIR)
            todo = [
                partial(write_figure, store, seed, i, config, questions=parts)
                for i in largest_first(missing, config, seed)
            ]
            generated = len(todo)
        log.info("%d of %d figures to generate in %s", generated, n, store)
        for _ in _run(todo, executor, progress, unit="shard" if layout else "fig"):
            pass
    if format == "parquet":
        records = shards.built_records(store, n, shard_size)
    else:
        records = (_read_record(store, f"{FIGURES}/{figure_id(i)}.json") for i in range(n))
    manifest = {**_manifest(records, n, seed, config), **layout}
    manifest["command"] = build_command(
        out, n=n, seed=seed, config=config, config_source=config_source, layout=layout
    )
    store.write_text(MANIFEST, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    if questions and store.is_local and format == "files":
        from figgen.vqa.files import write_qa

        manifest["qa"] = write_qa(store.local_path())  # also records its counts in the manifest
    elif questions:
        log.info("questions are written for local file builds only; skipped for %s", store)
    return BuildSummary(
        Path(out) if store.is_local else store.url, n, generated, n - generated, manifest
    )


def _prepare_dir(
    store: BuildStore, seed: int, config: FigureConfig, layout: dict[str, Any]
) -> None:
    """Make sure ``store`` is empty or holds this same build; claim it with a manifest."""
    if store.exists(MANIFEST):
        try:
            existing = json.loads(store.read_text(MANIFEST))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            existing = None
        if not isinstance(existing, dict):
            raise BuildDirError(
                f"{store.path(MANIFEST)} is unreadable; move it away or use another --out"
            )
        check_version(existing.get("figgen_version"), f"the build in {store}")
        differences = _differences(existing, seed, config.to_dict())
        if differences:
            raise BuildDirError(
                f"{store} holds another build ({'; '.join(differences)}); "
                "rerun with its seed and config to resume, or choose another --out"
            )
        if existing.get("format", "files") != layout.get("format", "files") or (
            existing.get("shard_size") != layout.get("shard_size")
        ):
            raise BuildDirError(
                f"{store} holds a build in format {existing.get('format', 'files')} "
                f"(shard size {existing.get('shard_size')}); rerun with those options to resume"
            )
    elif store.names("") - {LOCK_NAME}:
        raise BuildDirError(f"{store} is not empty and holds no figgen build; choose another --out")
    try:
        store.makedirs(FIGURES)
        removed = store.remove_stale_temporaries(FIGURES) + store.remove_stale_temporaries("")
        if store.is_local and store.exists(PARTS_DIR):
            removed += store.remove_stale_temporaries(PARTS_DIR)
        if not store.exists(MANIFEST):
            claim = {
                "status": "in_progress",
                "seed": seed,
                "config": config.to_dict(),
                "figgen_version": __version__,
                **layout,
            }
            store.write_text(MANIFEST, json.dumps(claim, indent=2, sort_keys=True) + "\n")
    except OSError as exc:
        raise BuildDirError(
            f"cannot write to {store}: {exc.strerror or exc}; choose a writable --out"
        ) from None
    if removed:
        log.info("removed %d partial files left by an interrupted run", removed)


def build_command(
    out: str | Path,
    *,
    n: int,
    seed: int,
    config: FigureConfig,
    config_source: str | None,
    layout: dict[str, Any],
) -> str:
    """The ``figgen build`` command that writes this build again, byte for byte.

    ``--out DIR`` stands for wherever the build is: the same arguments give the same bytes in
    any folder, manifest included, so a build can be moved or copied. A non-default config
    with no named source is read back from the build's own manifest (``--config`` accepts a
    manifest.json); a shipped preset is named as such.
    """
    del out  # the folder is not part of what is built
    parts = ["figgen", "build", "--n", str(n), "--seed", str(seed), "--out", "DIR"]
    if config_source is not None and Path(config_source).parent.resolve() == PRESETS.resolve():
        config_source = Path(config_source).stem
    if config_source is None and config != FigureConfig():
        config_source = f"DIR/{MANIFEST}"
    if config_source is not None:
        parts += ["--config", config_source]
    if layout:
        parts += ["--format", "parquet", "--shard-size", str(layout["shard_size"])]
    return shlex.join(parts)


def _differences(existing: dict[str, Any], seed: int, config: dict[str, Any]) -> list[str]:
    """What differs between the build on disk and this one, worded 'there vs here'."""
    out = []
    if existing.get("seed") != seed:
        out.append(f"seed {existing.get('seed')} there, {seed} here")
    theirs = existing.get("config")
    changed = _changed_keys(theirs if isinstance(theirs, dict) else {}, config)
    if changed:
        key, there, here = changed[0]
        more = f" and {len(changed) - 1} more config values" if len(changed) > 1 else ""
        out.append(f"config {key} = {there} there, {here} here{more}")
    return out


def _changed_keys(
    theirs: dict[str, Any], mine: dict[str, Any], prefix: str = ""
) -> list[tuple[str, str, str]]:
    """(dotted key, value there, value here) for each config value that differs."""
    changed = []
    for key in sorted(set(theirs) | set(mine)):
        there, here = theirs.get(key), mine.get(key)
        if isinstance(there, dict) and isinstance(here, dict):
            changed += _changed_keys(there, here, f"{prefix}{key}.")
        elif there != here:
            changed.append((f"{prefix}{key}", json.dumps(there), json.dumps(here)))
    return changed


def _read_record(store: BuildStore, rel: str) -> Record:
    try:
        data = store.read_bytes(rel)
    except OSError as exc:
        raise FiggenError(f"cannot read record {store.path(rel)}: {exc.strerror or exc}") from None
    return read_record(data, store.path(rel))


def _is_done(done: set[str], index: int) -> bool:
    # The JSON is written after the PNG, so its presence means the figure is complete.
    name = figure_id(index)
    return f"{name}.json" in done and f"{name}.png" in done


def largest_first(indices: list[int], config: FigureConfig, seed: int) -> list[int]:
    """``indices`` by falling predicted cost (pixels x panels), ties in index order.

    Workers take the next figure when they finish one, so starting the longest first leaves
    only short figures for the end and no worker idles while another draws a 25-panel figure.
    """
    return sorted(indices, key=lambda i: -math.prod(sample_footprint(config, seed, i)))


def write_figure(
    store: BuildStore, seed: int, index: int, config: FigureConfig, *, questions: bool = False
) -> int:
    """Generate one figure and write its PNG, then its record; returns the index.

    With ``questions`` it also writes the figure's questions and descriptions to
    ``.qa-parts/`` (before the record), for :func:`figgen.vqa.write_qa` to join.
    """
    from figgen.build.figure import generate_figure

    figure = generate_figure(config, seed, index)
    name = figure_id(index)
    record_json = figure.record_json
    store.write_bytes(f"{FIGURES}/{name}.png", figure.png)
    if questions:
        values = config.to_dict()
        part = figure_part(record_json, offered_kinds(values["kinds"]), balance_table(values))
        store.write_text(f"{PARTS_DIR}/{name}.jsonl", part)
    store.write_text(f"{FIGURES}/{name}.json", record_json)
    return index


def _run(todo: list[Task[int]], executor: Executor, progress: bool, unit: str) -> Iterable[int]:
    from tqdm import tqdm

    bar = tqdm(total=len(todo), desc="figures", unit=unit, disable=not progress or not todo)
    with bar:
        for result in executor.run(todo):
            yield result
            bar.update()


def _manifest(records: Iterable[Record], n: int, seed: int, config: FigureConfig) -> dict[str, Any]:
    kinds: Counter[str] = Counter()
    dists: Counter[str] = Counter()
    panel_counts: Counter[int] = Counter()
    repaired = resampled = 0
    for record in records:
        panel_counts[record.layout.n_panels] += 1
        for panel in record.panels:
            kinds[panel.kind] += 1
            dists[panel.distribution] += 1
        repaired += record.repaired
        resampled += record.resampled
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
