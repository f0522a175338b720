"""qa.jsonl, descriptions.jsonl and the manifest's QA counts for a build directory."""

from __future__ import annotations

import json
import logging
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from figgen.errors import FiggenError
from figgen.store import atomic_text, atomic_write_text
from figgen.vqa.builder import questions_for_record
from figgen.vqa.context import offered_kinds
from figgen.vqa.describe import describe_record
from figgen.vqa.item import QAItem

log = logging.getLogger(__name__)

QA_FILE = "qa.jsonl"
DESCRIPTIONS_FILE = "descriptions.jsonl"
MANIFEST_FILE = "manifest.json"


class QACounter:
    """Running counts of items by level, scope, level+scope and family."""

    def __init__(self) -> None:
        self.by_level: Counter[str] = Counter()
        self.by_scope: Counter[str] = Counter()
        self.by_level_scope: Counter[str] = Counter()
        self.by_family: Counter[str] = Counter()

    def add(self, item: QAItem) -> None:
        self.by_level[str(item.level)] += 1
        self.by_scope[item.scope] += 1
        self.by_level_scope[f"{item.level}/{item.scope}"] += 1
        self.by_family[item.family] += 1

    def summary(self, n_figures: int) -> dict[str, Any]:
        total = sum(self.by_level.values())
        return {
            "total": total,
            "figures": n_figures,
            "per_figure": round(total / n_figures, 2) if n_figures else 0.0,
            "by_level": dict(sorted(self.by_level.items())),
            "by_scope": dict(sorted(self.by_scope.items())),
            "by_level_scope": dict(sorted(self.by_level_scope.items())),
            "by_family": dict(sorted(self.by_family.items())),
        }


def qa_counts(items: Iterable[QAItem], *, n_figures: int) -> dict[str, Any]:
    """Item counts in total, per figure, and by level, scope, level+scope and family."""
    counter = QACounter()
    for item in items:
        counter.add(item)
    return counter.summary(n_figures)


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


def _build_kinds(directory: Path) -> tuple[str, ...] | None:
    """The kinds the build's config could draw (from its manifest), or None for the default."""
    try:
        manifest = json.loads((directory / MANIFEST_FILE).read_text(encoding="utf-8"))
        weights = manifest["config"]["kinds"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError):
        return None
    return offered_kinds(weights) if isinstance(weights, dict) else None


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
    atomic_write_text(path, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")


def write_qa(directory: str | Path) -> dict[str, Any]:
    """Rebuild ``qa.jsonl`` and ``descriptions.jsonl`` from ``directory/figures/*.json``.

    Nothing is rendered. Both files are replaced atomically and the manifest's ``qa`` entry is
    updated; returns that entry (see :func:`qa_counts`).
    """
    root = Path(directory)
    paths = record_paths(root)
    counter = QACounter()
    n_descriptions = 0
    with (
        atomic_text(root / QA_FILE) as qa_out,
        atomic_text(root / DESCRIPTIONS_FILE) as descriptions_out,
    ):
        kinds = _build_kinds(root)
        for path in paths:
            record = _load(path)
            for item in questions_for_record(record, kinds=kinds):
                counter.add(item)
                qa_out.write(json.dumps(item.to_dict(), ensure_ascii=False) + "\n")
            for row in describe_record(record):
                n_descriptions += 1
                descriptions_out.write(json.dumps(row, ensure_ascii=False) + "\n")
    counts = counter.summary(len(paths))
    counts["descriptions"] = n_descriptions
    update_manifest(root, counts)
    log.info("wrote %d QA items for %d figures to %s", counts["total"], len(paths), root / QA_FILE)
    return counts
