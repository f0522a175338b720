"""Read a built dataset: its questions (qa.jsonl), figure records and images."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from figgen.errors import FiggenError
from figgen.eval.grounding.set_grounding import SetTarget, load_set_targets
from figgen.eval.scoring.scoring import METRICS
from figgen.schema.qa_item import QAItem, read_items
from figgen.schema.record import Record, open_record


@dataclass
class EvalDataset:
    """Questions in file order, with lazy access to each figure's record and image."""

    root: Path
    items: list[QAItem]
    image_sets: dict[str, list[str]] = field(default_factory=dict)
    """Several images per "figure" (a multi-chart set and mode), from ``image_sets.json``."""
    set_targets: dict[str, SetTarget] = field(default_factory=dict)
    """A multi-chart question's evidence per image of its set, from ``set_evidence.json``."""
    _records: dict[str, Record] = field(default_factory=dict, repr=False)
    _kinds: dict[tuple[str, int | None], str] = field(default_factory=dict, repr=False)

    def record(self, figure_id: str) -> Record | None:
        """The figure's record, or None when the dataset has no JSON for it."""
        if figure_id not in self._records:
            path = self.root / "figures" / f"{figure_id}.json"
            if not path.is_file():
                return None
            self._records[figure_id] = open_record(path)
        return self._records[figure_id]

    def image_path(self, figure_id: str) -> Path:
        record = self.record(figure_id)
        if record is not None and record.image.file:
            path = self.root / record.image.file
        else:
            path = self.root / "figures" / f"{figure_id}.png"
        if not path.is_file():
            raise FiggenError(f"image {path} is missing; rebuild the dataset with figgen build")
        return path

    def image_keys(self, figure_id: str) -> list[str]:
        """The images a question about ``figure_id`` is sent with, in order, as keys for
        :meth:`image_source`: the figure itself, or each file of its image set."""
        return list(self.image_sets.get(figure_id, [figure_id]))

    def image_source(self, key: str) -> Path:
        """The file of an image key (a figure id, or a file named by an image set)."""
        if key not in self._set_files:
            return self.image_path(key)
        path = self.root / key
        if not path.is_file():
            raise FiggenError(f"image {path} is missing; rebuild the dataset")
        return path

    def image_paths(self, figure_id: str) -> list[Path]:
        """Every image a question about ``figure_id`` is sent with, in order."""
        return [self.image_source(key) for key in self.image_keys(figure_id)]

    @property
    def _set_files(self) -> set[str]:
        return {name for names in self.image_sets.values() for name in names}

    def n_panels(self, figure_id: str) -> int | None:
        record = self.record(figure_id)
        return None if record is None else record.layout.n_panels

    def plot_kind(self, item: QAItem) -> str:
        """The plot kind a panel question is about; figure-level questions give "figure"."""
        key = (item.figure_id, item.panel)
        if key not in self._kinds:
            self._kinds[key] = self._plot_kind(item)
        return self._kinds[key]

    def _plot_kind(self, item: QAItem) -> str:
        record = self.record(item.figure_id)
        if item.panel is None or record is None:
            return "figure" if item.panel is None else "unknown"
        for panel in record.panels:
            if panel.index == item.panel:
                return panel.kind
        return "unknown"


def load_dataset(root: str | Path) -> EvalDataset:
    """Load ``root/qa.jsonl``; records and images are read when first needed."""
    root = Path(root)
    qa_path = root / "qa.jsonl"
    if not qa_path.is_file():
        raise FiggenError(
            f"{qa_path} is missing; pass --data a dataset directory built by figgen build"
        )
    items = list(read_items(qa_path))
    unknown = sorted({item.metric for item in items} - set(METRICS))
    if unknown:  # said before any model is asked: scoring could not judge the answers
        raise FiggenError(
            f"{qa_path} scores questions by metric {unknown[0]!r}, which this figgen does not "
            f"have (known: {', '.join(METRICS)}); rebuild it with `figgen qa {root}`"
        )
    spanless = next(
        (i for i in items if METRICS[i.metric].tolerance == "axis_span" and i.axis_span is None),
        None,
    )
    if spanless is not None:  # its error is a share of a span the file does not give
        raise FiggenError(
            f"{qa_path}: question {spanless.qid} is scored by {spanless.metric!r} but gives no "
            f"axis_span; rebuild it with `figgen qa {root}`"
        )
    sets_path = root / "image_sets.json"
    image_sets = json.loads(sets_path.read_text(encoding="utf-8")) if sets_path.is_file() else {}
    return EvalDataset(root, items, image_sets, load_set_targets(root))


def select_items(
    items: Iterable[QAItem],
    *,
    levels: Iterable[int] | None = None,
    families: Iterable[str] | None = None,
    limit: int | None = None,
) -> list[QAItem]:
    """The items at the given levels and families, in file order, at most ``limit``."""
    level_set = set(levels) if levels else None
    family_set = set(families) if families else None
    chosen = [
        item
        for item in items
        if (level_set is None or item.level in level_set)
        and (family_set is None or item.family in family_set)
    ]
    return chosen if limit is None else chosen[:limit]
