"""Check a dataset card's metadata offline, the way the Hub's YAML validation does.

``DatasetCard.validate()`` posts the card to the Hub; this check needs no network, so exports
are checked before anything is written or pushed.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from huggingface_hub import DatasetCard

from figgen.errors import FiggenError

HUB_LICENSES = frozenset(
    """apache-2.0 mit openrail bigscience-openrail-m creativeml-openrail-m bigscience-bloom-rail-1.0
    bigcode-openrail-m afl-3.0 artistic-2.0 bsl-1.0 bsd bsd-2-clause bsd-3-clause
    bsd-3-clause-clear c-uda cc cc0-1.0 cc-by-2.0 cc-by-2.5 cc-by-3.0 cc-by-4.0 cc-by-sa-3.0
    cc-by-sa-4.0 cc-by-nc-2.0 cc-by-nc-3.0 cc-by-nc-4.0 cc-by-nd-4.0 cc-by-nc-nd-3.0
    cc-by-nc-nd-4.0 cc-by-nc-sa-2.0 cc-by-nc-sa-3.0 cc-by-nc-sa-4.0 cdla-sharing-1.0
    cdla-permissive-1.0 cdla-permissive-2.0 wtfpl ecl-2.0 epl-1.0 epl-2.0 eupl-1.1 agpl-3.0 gfdl
    gpl gpl-2.0 gpl-3.0 lgpl lgpl-2.1 lgpl-3.0 isc lppl-1.3c ms-pl mpl-2.0 odc-by odbl openrail++
    osl-3.0 postgresql ofl-1.1 ncsa unlicense zlib pddl lgpl-lr unknown other""".split()  # noqa: SIM905
)
"""License ids the Hub accepts in card metadata (the common subset)."""

HUB_TASK_CATEGORIES = frozenset(
    """visual-question-answering image-to-text object-detection document-question-answering
    image-classification image-text-to-text question-answering text-generation
    image-segmentation zero-shot-image-classification image-feature-extraction
    table-question-answering other""".split()  # noqa: SIM905
)

HUB_SIZE_CATEGORIES = frozenset(
    ("n<1K", "1K<n<10K", "10K<n<100K", "100K<n<1M", "1M<n<10M", "10M<n<100M", "100M<n<1B")
    + ("1B<n<10B", "10B<n<100B", "100B<n<1T", "n>1T")
)

_SPLIT_NAME = re.compile(r"^\w+(\.\w+)*$")


def _as_list(value: Any) -> list[Any]:
    if value is None:
        return []
    return value if isinstance(value, list) else [value]


def card_problems(text: str, root: str | Path | None = None) -> list[str]:
    """Every problem with the card's YAML metadata; empty when it is valid.

    With ``root`` (the export folder), each ``data_files`` path must also match a file there.
    """
    try:
        card = DatasetCard(text)
    except ValueError as exc:
        return [f"YAML header does not parse: {exc}"]
    data = card.data.to_dict()
    problems: list[str] = []
    for license_id in _as_list(data.get("license")):
        if license_id not in HUB_LICENSES:
            problems.append(f"license {license_id!r} is not a Hub license id")
    if not data.get("license"):
        problems.append("license is missing")
    for task in _as_list(data.get("task_categories")):
        if task not in HUB_TASK_CATEGORIES:
            problems.append(f"task category {task!r} is not a Hub task")
    sizes = _as_list(data.get("size_categories"))
    if len(sizes) != 1 or sizes[0] not in HUB_SIZE_CATEGORIES:
        problems.append(f"size_categories must be one Hub size label, got {sizes}")
    if not isinstance(data.get("pretty_name"), str) or not data["pretty_name"].strip():
        problems.append("pretty_name is missing")
    problems.extend(_config_problems(data.get("configs"), None if root is None else Path(root)))
    return problems


def _config_problems(configs: Any, root: Path | None) -> list[str]:
    if not isinstance(configs, list) or not configs:
        return ["configs must be a non-empty list"]
    problems: list[str] = []
    names = [c.get("config_name") for c in configs if isinstance(c, dict)]
    if len(names) != len(configs) or not all(isinstance(n, str) and n for n in names):
        problems.append("every config needs a config_name")
    if len(set(names)) != len(names):
        problems.append(f"config names repeat: {names}")
    if sum(bool(c.get("default")) for c in configs if isinstance(c, dict)) > 1:
        problems.append("more than one config is marked default")
    for config in configs:
        if not isinstance(config, dict):
            continue
        name = config.get("config_name")
        entries = config.get("data_files")
        if not isinstance(entries, list) or not entries:
            problems.append(f"config {name!r} has no data_files list")
            continue
        for entry in entries:
            split, paths = entry.get("split"), _as_list(entry.get("path"))
            if not isinstance(split, str) or not _SPLIT_NAME.match(split):
                problems.append(f"config {name!r} has a bad split name {split!r}")
            if not paths or not all(isinstance(p, str) for p in paths):
                problems.append(f"config {name!r} split {split!r} has no path")
                continue
            if root is not None:
                problems.extend(
                    f"config {name!r} split {split!r}: no file matches {p!r}"
                    for p in paths
                    if not any(root.glob(p))
                )
    return problems


def check_card(text: str, root: str | Path | None = None) -> DatasetCard:
    """Parse the card and raise a one-line error naming its first metadata problem."""
    problems = card_problems(text, root)
    if problems:
        raise FiggenError(f"dataset card metadata is invalid: {problems[0]}")
    return DatasetCard(text)
