"""qa.jsonl, descriptions.jsonl and the manifest's QA counts for a build directory."""

from __future__ import annotations

import json
import logging
import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from figgen.errors import FiggenError
from figgen.vqa.builder import questions_for_record
from figgen.vqa.describe import describe_record
from figgen.vqa.item import QAItem

log = logging.getLogger(__name__)

QA_FILE = "qa.jsonl"
DESCRIPTIONS_FILE = "descriptions.jsonl"
MANIFEST_FILE = "manifest.json"


def qa_counts(items: Iterable[QAItem], *, n_figures: int) -> dict[str, Any]:
    """Item counts in total, per figure, and by level, scope, level+scope and family."""
    items = list(items)
    by_level = Counter(str(item.level) for item in items)
    by_scope = Counter(item.scope for item in items)
    by_level_scope = Counter(f"{item.level}/{item.scope}" for item in items)
    by_family = Counter(item.family for item in items)
    return {
        "total": len(items),
        "figures": n_figures,
        "per_figure": round(len(items) / n_figures, 2) if n_figures else 0.0,
        "by_level": dict(sorted(by_level.items())),
        "by_scope": dict(sorted(by_scope.items())),
        "by_level_scope": dict(sorted(by_level_scope.items())),
        "by_family": dict(sorted(by_family.items())),
    }


def _write_atomic(path: Path, lines: Iterable[str]) -> None:
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with temporary.open("w", encoding="utf-8") as handle:
            for line in lines:
                handle.write(line + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)


def record_paths(directory: Path) -> list[Path]:
    """The record files of a build, in figure-id order."""
    figures = directory / "figures"
    if not figures.is_dir():
        raise FiggenError(f"{figures} does not exist; run `figgen build --out {directory}` first")
    paths = sorted(p for p in figures.glob("*.json") if not p.name.startswith("."))
    if not paths:
        raise FiggenError(f"no records (*.json) in {figures}; run `figgen build` first")
    return paths


def _load(path: Path) -> dict[str, Any]:
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise FiggenError(f"cannot read record {path} ({exc}); rebuild that figure") from None
    if not isinstance(record, dict) or "panels" not in record or "layout" not in record:
        raise FiggenError(f"{path} is not a figure record; remove it or rebuild the figure")
    return record


def update_manifest(directory: Path, counts: dict[str, Any]) -> None:
    """Set the manifest's ``qa`` entry (read, modify, replace atomically), creating the file if
    needed."""
    path = directory / MANIFEST_FILE
    manifest: dict[str, Any] = {}
    if path.exists():
        try:
            manifest = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise FiggenError(f"{path} is not valid JSON ({exc}); rerun `figgen build`") from None
    manifest["qa"] = counts
    _write_atomic(path, [json.dumps(manifest, indent=2, ensure_ascii=False)])


def write_qa(directory: str | Path) -> dict[str, Any]:
    """Rebuild ``qa.jsonl`` and ``descriptions.jsonl`` from ``directory/figures/*.json``.

    Nothing is rendered. Both files are replaced atomically and the manifest's ``qa`` entry is
    updated; returns that entry (see :func:`qa_counts`).
    """
    root = Path(directory)
    paths = record_paths(root)
    items: list[QAItem] = []
    descriptions: list[dict[str, Any]] = []
    for path in paths:
        record = _load(path)
        items.extend(questions_for_record(record))
        descriptions.extend(describe_record(record))
    _write_atomic(
        root / QA_FILE, (json.dumps(item.to_dict(), ensure_ascii=False) for item in items)
    )
    _write_atomic(
        root / DESCRIPTIONS_FILE, (json.dumps(row, ensure_ascii=False) for row in descriptions)
    )
    counts = qa_counts(items, n_figures=len(paths))
    counts["descriptions"] = len(descriptions)
    update_manifest(root, counts)
    log.info("wrote %d QA items for %d figures to %s", len(items), len(paths), root / QA_FILE)
    return counts
