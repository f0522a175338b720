"""Render the dataset card (README.md of a HuggingFace export) from the Jinja template."""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass, field
from importlib.resources import files
from typing import Any

from huggingface_hub import DatasetCard, DatasetCardData

TEMPLATE = "dataset_card.jinja"

LICENSE_NAMES = {
    "cc-by-sa-4.0": "CC BY-SA 4.0 (share-alike, because the figure text draws on unarXive)",
    "cc-by-4.0": "CC BY 4.0",
    "cc0-1.0": "CC0 1.0",
    "mit": "the MIT license",
    "apache-2.0": "the Apache 2.0 license",
    "other": "a custom license (see the repository)",
}

TASK_CATEGORIES = ["visual-question-answering", "image-to-text", "object-detection"]

_SIZE_BOUNDS = [
    (1_000, "n<1K"),
    (10_000, "1K<n<10K"),
    (100_000, "10K<n<100K"),
    (1_000_000, "100K<n<1M"),
    (10_000_000, "1M<n<10M"),
    (100_000_000, "10M<n<100M"),
    (1_000_000_000, "100M<n<1B"),
]


def size_category(n_rows: int) -> str:
    """The Hub's ``size_categories`` label for a dataset of ``n_rows`` rows."""
    for bound, label in _SIZE_BOUNDS:
        if n_rows < bound:
            return label
    return "n>1B"


@dataclass
class CardFacts:
    """Everything the card states about one export."""

    pretty_name: str
    license: str
    figgen_version: str
    seed: int | str | None
    command: str
    fractions: Any
    split_files: dict[str, dict[str, str]]
    """config name -> split -> data file path (glob) inside the export."""
    split_counts: dict[str, dict[str, int]]
    """config name -> split -> rows."""
    by_level: dict[int, int] = field(default_factory=dict)
    by_family: dict[str, int] = field(default_factory=dict)
    by_plot_kind: dict[str, dict[str, int]] = field(default_factory=dict)
    """plot kind -> {"panels": n, "figures": n}."""
    by_panel_count: dict[int, int] = field(default_factory=dict)
    repo_id: str | None = None
    config_file: str | None = None
    """File beside the card holding the build's non-default config, if any."""
    default_config: str = "qa"

    @property
    def n_figures(self) -> int:
        return sum(self.split_counts.get("figures", {}).values())

    @property
    def n_questions(self) -> int:
        return sum(self.split_counts.get("qa", {}).values())


def card_data(facts: CardFacts) -> DatasetCardData:
    """The YAML header: license, tasks, size, name and one ``configs`` entry per config."""
    configs = []
    for config, files_by_split in facts.split_files.items():
        entry: dict[str, Any] = {"config_name": config}
        if config == facts.default_config:
            entry["default"] = True
        entry["data_files"] = [
            {"split": split, "path": path} for split, path in files_by_split.items()
        ]
        configs.append(entry)
    largest = max((sum(c.values()) for c in facts.split_counts.values()), default=0)
    return DatasetCardData(
        language="en",
        license=facts.license,
        task_categories=TASK_CATEGORIES,
        size_categories=size_category(largest),
        pretty_name=facts.pretty_name,
        tags=["charts", "scientific-figures", "accessibility", "synthetic", "multi-panel"],
        configs=configs,
    )


def render_card(facts: CardFacts) -> DatasetCard:
    """Fill the card template with ``facts``."""
    template = files("figgen.hf_card").joinpath(TEMPLATE).read_text(encoding="utf-8")
    splits = [
        s
        for s in ("train", "validation", "test")
        if any(s in counts for counts in facts.split_counts.values())
    ]
    slug = re.sub(r"[^a-z0-9]+", "_", facts.pretty_name.lower()).strip("_") or "figgen"
    url = (
        f"https://huggingface.co/datasets/{facts.repo_id}"
        if facts.repo_id
        else "https://pypi.org/project/figgen/"
    )
    card: DatasetCard = DatasetCard.from_template(
        card_data(facts),
        template_str=template,
        pretty_name=facts.pretty_name,
        license_name=LICENSE_NAMES.get(facts.license, facts.license),
        figgen_version=facts.figgen_version,
        seed=facts.seed if facts.seed is not None else "unknown",
        command=facts.command,
        config_file=facts.config_file,
        fractions=facts.fractions,
        split_names=splits,
        split_counts=facts.split_counts,
        n_figures=facts.n_figures,
        n_questions=facts.n_questions,
        by_level=facts.by_level,
        by_family=facts.by_family,
        by_plot_kind=facts.by_plot_kind,
        by_panel_count=facts.by_panel_count,
        load_path=facts.repo_id or "path/to/export",
        citation_key=slug,
        citation_url=url,
        year=dt.date.today().year,
    )
    return card
