"""Export a built dataset as a Hub-ready folder: parquet shards per config and split + card."""

from __future__ import annotations

import json
import logging
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from figgen.errors import FiggenError
from figgen.export.provenance import CONFIG_FILE, provenance
from figgen.export.schema import CONFIG_FEATURES, description_row, figure_row, qa_row
from figgen.export.shards import DEFAULT_SHARD_BYTES, ShardWriter
from figgen.export.source import BuiltDataset
from figgen.hf_card import CardFacts, check_card, render_card
from figgen.schema.record import Record
from figgen.schema.splits import SPLITS, SplitFractions, assign_splits
from figgen.store.storage import staged_folder

logger = logging.getLogger(__name__)

CONFIGS = ("figures", "qa", "descriptions")


@dataclass(frozen=True)
class HfOptions:
    """How an HF folder is laid out and described, the same for ``export --format hf``,
    ``push`` and the folder an lmms-eval task loads: split shares, the card's pretty name,
    licence and Hub id (named in its examples), and the largest parquet shard."""

    fractions: SplitFractions = SplitFractions()
    pretty_name: str = "figgen multi-panel charts"
    license: str = "cc-by-sa-4.0"
    repo_id: str | None = None
    max_shard_bytes: int = DEFAULT_SHARD_BYTES


@dataclass
class HfExport:
    """What an HF export wrote: row counts per config and split, and the card facts."""

    path: Path
    facts: CardFacts

    @property
    def split_counts(self) -> dict[str, dict[str, int]]:
        return self.facts.split_counts


class _PngCache:
    """The last figure's PNG: questions arrive grouped by figure."""

    def __init__(self, dataset: BuiltDataset) -> None:
        self.dataset = dataset
        self.figure_id: str | None = None
        self.png = b""

    def __call__(self, figure_id: str) -> bytes:
        if figure_id != self.figure_id:
            self.png, self.figure_id = self.dataset.png(figure_id), figure_id
        return self.png


def write_hf_folder(dataset: BuiltDataset, folder: Path, options: HfOptions) -> CardFacts:
    """Write shards and README.md into an empty ``folder``; return what the card states."""
    fractions = options.fractions
    figure_ids = dataset.figure_ids()
    if not figure_ids:
        raise FiggenError(f"{dataset.root}/figures holds no figures; run `figgen build` first")
    folder.mkdir(parents=True, exist_ok=True)
    split_by_figure = assign_splits(figure_ids, fractions)
    writers = {
        (config, split): ShardWriter(
            folder / "data" / config,
            split,
            CONFIG_FEATURES[config],
            max_shard_bytes=options.max_shard_bytes,
        )
        for config in CONFIGS
        for split in SPLITS
    }
    plot_panels: Counter[str] = Counter()
    plot_figures: Counter[str] = Counter()
    panel_counts: Counter[int] = Counter()
    first_record: Record | None = None
    for figure_id in figure_ids:
        record = dataset.record(figure_id)
        first_record = first_record or record
        writers["figures", split_by_figure[figure_id]].add(
            figure_row(record, dataset.png(figure_id))
        )
        kinds = [panel.kind for panel in record.panels]
        plot_panels.update(kinds)
        plot_figures.update(set(kinds))
        panel_counts[record.layout.n_panels] += 1

    levels: Counter[int] = Counter()
    families: Counter[str] = Counter()
    png = _PngCache(dataset)
    for item in dataset.qa_items():
        split = split_by_figure.get(item.figure_id)
        if split is None:
            raise FiggenError(
                f"question {item.qid} is about {item.figure_id}, which is not in "
                f"{dataset.root}/figures; rebuild qa.jsonl with `figgen qa {dataset.root}`"
            )
        writers["qa", split].add(qa_row(item, png(item.figure_id)))
        levels[item.level] += 1
        families[item.family] += 1

    for row in dataset.descriptions():
        split = split_by_figure.get(row.get("figure_id", ""))
        if split is None:
            raise FiggenError(
                f"a description is about {row.get('figure_id')}, which is not in "
                f"{dataset.root}/figures; rebuild it with `figgen qa {dataset.root}`"
            )
        writers["descriptions", split].add(description_row(row, png(row["figure_id"])))

    split_files: dict[str, dict[str, str]] = {}
    split_counts: dict[str, dict[str, int]] = {}
    for (config, split), writer in writers.items():
        if writer.close():
            split_files.setdefault(config, {})[split] = f"data/{config}/{split}-*.parquet"
            split_counts.setdefault(config, {})[split] = writer.rows
    if "qa" not in split_files:
        raise FiggenError(f"{dataset.qa_path} holds no questions; run `figgen qa {dataset.root}`")
    for config in CONFIGS:
        missing = [s for s in SPLITS if s not in split_files[config]]
        if missing:
            logger.warning("config %s has no rows in split(s) %s", config, ", ".join(missing))

    origin = provenance(dataset, first_record)
    if origin.config is not None:
        (folder / CONFIG_FILE).write_text(
            json.dumps(origin.config, indent=2, sort_keys=True) + "\n", encoding="utf-8"
        )
    facts = CardFacts(
        pretty_name=options.pretty_name,
        license=options.license,
        figgen_version=origin.version,
        seed=origin.seed,
        command=origin.command,
        config_file=CONFIG_FILE if origin.config is not None else None,
        fractions=fractions,
        split_files=split_files,
        split_counts=split_counts,
        by_level=dict(sorted(levels.items())),
        by_family=dict(sorted(families.items())),
        by_plot_kind={
            kind: {"panels": plot_panels[kind], "figures": plot_figures[kind]}
            for kind in sorted(plot_panels)
        },
        by_panel_count=dict(sorted(panel_counts.items())),
        repo_id=options.repo_id,
    )
    text = str(render_card(facts))
    check_card(text, folder)
    (folder / "README.md").write_text(text, encoding="utf-8")
    return facts


def export_hf(
    data_dir: str | Path,
    out: str | Path,
    options: HfOptions | None = None,
    *,
    overwrite: bool = False,
) -> HfExport:
    """Write ``out`` as a folder that ``datasets.load_dataset(out, "qa")`` reads.

    ``out`` appears only when the export is complete; a failure leaves it as it was.
    """
    dataset = BuiltDataset.open(data_dir)
    with staged_folder(out, overwrite=overwrite) as stage:
        facts = write_hf_folder(dataset, stage, options or HfOptions())
    return HfExport(Path(out), facts)
