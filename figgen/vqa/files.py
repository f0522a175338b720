"""qa.jsonl, descriptions.jsonl and the manifest's QA counts for a build directory."""

from __future__ import annotations

import hashlib
import json
import logging
import shutil
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from figgen._util.version import __version__
from figgen.config.sections.balance import KeepTable
from figgen.errors import FiggenError
from figgen.schema.qa_item import QAItem
from figgen.schema.record import Record, read_record
from figgen.store.lock import folder_lock
from figgen.store.storage import atomic_text, atomic_write_text, remove_stale_temporaries
from figgen.vqa.describe.describe import describe_record
from figgen.vqa.questions.builder import questions_for_record
from figgen.vqa.questions.offered import balance_table, offered_kinds

log = logging.getLogger(__name__)

QA_FILE = "qa.jsonl"
DESCRIPTIONS_FILE = "descriptions.jsonl"
MANIFEST_FILE = "manifest.json"
PARTS_DIR = ".qa-parts"
"""Where build workers leave each figure's lines (``<id>.jsonl``, see :func:`figure_part`):
:func:`write_qa` joins them in figure order, makes any that are missing, then removes it."""


class QACounter:
    """Running counts of items by level, scope, level+scope and family."""

    def __init__(self) -> None:
        self.by_level: Counter[str] = Counter()
        self.by_scope: Counter[str] = Counter()
        self.by_level_scope: Counter[str] = Counter()
        self.by_family: Counter[str] = Counter()

    def add(self, item: QAItem) -> None:
        self.add_key(item.level, item.scope, item.family)

    def add_key(self, level: int, scope: str, family: str) -> None:
        self.by_level[str(level)] += 1
        self.by_scope[scope] += 1
        self.by_level_scope[f"{level}/{scope}"] += 1
        self.by_family[family] += 1

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


def _build_kinds(config: dict[str, Any]) -> tuple[str, ...] | None:
    """The kinds a build's config could draw, or None for the default."""
    weights = config.get("kinds")
    return offered_kinds(weights) if isinstance(weights, dict) else None


def _build_config(directory: Path) -> dict[str, Any]:
    """The config the build's manifest records, or {} (the defaults) if it records none."""
    try:
        manifest = json.loads((directory / MANIFEST_FILE).read_text(encoding="utf-8"))
        config = manifest["config"]
    except (OSError, json.JSONDecodeError, KeyError, TypeError):
        return {}
    return config if isinstance(config, dict) else {}


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
    with folder_lock(root):
        remove_stale_temporaries(root)  # left by a killed run; the lock says none is ours
        return _write_qa(root, paths)


def _write_qa(root: Path, paths: list[Path]) -> dict[str, Any]:
    counter = QACounter()
    n_descriptions = reused = 0
    parts = root / PARTS_DIR
    with (
        atomic_text(root / QA_FILE) as qa_out,
        atomic_text(root / DESCRIPTIONS_FILE) as descriptions_out,
    ):
        config = _build_config(root)
        kinds, keep = _build_kinds(config), balance_table(config)
        for path in paths:
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise FiggenError(f"cannot read record {path}: {exc.strerror or exc}") from None
            texts = _read_part(parts / f"{path.stem}.jsonl", data, kinds, keep)
            if texts is None:
                texts = FigureTexts.of(read_record(data, str(path)), kinds, keep)
            else:
                reused += 1
            for key in texts.keys:
                counter.add_key(*key)
            qa_out.writelines(line + "\n" for line in texts.qa)
            descriptions_out.writelines(line + "\n" for line in texts.descriptions)
            n_descriptions += len(texts.descriptions)
    shutil.rmtree(parts, ignore_errors=True)  # joined: qa.jsonl now holds every line
    counts = counter.summary(len(paths))
    counts["descriptions"] = n_descriptions
    update_manifest(root, counts)
    log.info(
        "wrote %d QA items for %d figures to %s (%d made by the build's workers)",
        counts["total"],
        len(paths),
        root / QA_FILE,
        reused,
    )
    return counts


@dataclass(frozen=True)
class FigureTexts:
    """One figure's lines of ``qa.jsonl`` and ``descriptions.jsonl``, and each item's
    (level, scope, family) for the counts."""

    qa: list[str]
    descriptions: list[str]
    keys: list[tuple[int, str, str]]

    @classmethod
    def of(
        cls, record: Record, kinds: tuple[str, ...] | None, keep: KeepTable | None = None
    ) -> FigureTexts:
        items = questions_for_record(record, kinds=kinds, keep=keep)
        return cls(
            qa=[json.dumps(item.to_dict(), ensure_ascii=False) for item in items],
            descriptions=[json.dumps(row, ensure_ascii=False) for row in describe_record(record)],
            keys=[(item.level, item.scope, item.family) for item in items],
        )


def figure_part(
    record_json: str, kinds: tuple[str, ...] | None, keep: KeepTable | None = None
) -> str:
    """The text of ``.qa-parts/<id>.jsonl`` for a record about to be written as
    ``record_json``: a header naming the record (digest), the figgen version, the plot-type
    choices and the balance table, then the figure's question lines and description lines.

    The questions come from the record as read back from ``record_json``, so they are the ones
    :func:`write_qa` would make from the file.
    """
    texts = FigureTexts.of(read_record(record_json, "the new record"), kinds, keep)
    header = {
        "record_sha256": hashlib.sha256(record_json.encode("utf-8")).hexdigest(),
        "figgen_version": __version__,
        "kinds": list(kinds) if kinds is not None else None,
        "keep": keep,
        "keys": texts.keys,
        "n_qa": len(texts.qa),
    }
    lines = [json.dumps(header), *texts.qa, *texts.descriptions]
    return "\n".join(lines) + "\n"


def _read_part(
    path: Path, record: bytes, kinds: tuple[str, ...] | None, keep: KeepTable | None
) -> FigureTexts | None:
    """The lines of the part at ``path`` if it was made from these record bytes by this
    figgen with these plot-type choices and balance table; None if it is missing, foreign or
    damaged."""
    try:
        # not splitlines(): JSON leaves U+2028 and U+0085 unescaped inside its strings
        lines = path.read_text(encoding="utf-8").split("\n")[:-1]
        header = json.loads(lines[0])
        if (
            header["record_sha256"] != hashlib.sha256(record).hexdigest()
            or header["figgen_version"] != __version__
            or header["kinds"] != (list(kinds) if kinds is not None else None)
            or header.get("keep") != keep
        ):
            return None
        n_qa = header["n_qa"]
        keys = [(int(level), str(scope), str(family)) for level, scope, family in header["keys"]]
    except (OSError, UnicodeDecodeError, IndexError, KeyError, TypeError, ValueError):
        return None
    if len(keys) != n_qa or len(lines) < 1 + n_qa:
        return None
    return FigureTexts(qa=lines[1 : 1 + n_qa], descriptions=lines[1 + n_qa :], keys=keys)
