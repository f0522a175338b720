"""Export an lmms-eval task (YAML + utils.py) that reads the ``qa`` config."""

from __future__ import annotations

import json
import shlex
from importlib.resources import files
from pathlib import Path

from figgen.errors import FiggenError
from figgen.export.hf import HfOptions, write_hf_folder
from figgen.export.source import BuiltDataset
from figgen.schema.splits import Split, SplitFractions, assign_splits
from figgen.store.storage import staged_folder

INSTALL_PACKAGES = ("torch==2.13.0", "lmms-eval==0.7.3", "filelock<4")
"""What to install beside figgen: the CPU torch build (a bare ``torch`` pulls a CUDA build of
gigabytes), and a filelock that still has ``filelock._api``, which lmms-eval 0.7.3 imports."""
INSTALL_REMOVE = ("torchvision",)
"""lmms-eval pulls PyPI's torchvision, which does not load beside the CPU torch ("operator
torchvision::nms does not exist") and which transformers imports whenever it is installed;
task loading and evaluation never need it."""
INSTALL_COMMAND = (
    f"pip install {shlex.join(INSTALL_PACKAGES)} && pip uninstall -y {shlex.join(INSTALL_REMOVE)}"
)
"""The install line the docs give; the slow harness test installs exactly this."""

UTILS_FILE = "utils.py"
HF_SUBDIR = "hf"

_TASK_YAML = """\
# lmms-eval task for a figgen dataset (written by `figgen export --format lmms-eval`).
# Run: python -m lmms_eval --model MODEL --tasks {task} --include_path THIS_FOLDER
task: {task}
dataset_path: {dataset_path}
dataset_name: qa
test_split: {split}
output_type: generate_until
doc_to_visual: !function utils.doc_to_visual
doc_to_text: !function utils.doc_to_text
doc_to_target: !function utils.doc_to_target
generation_kwargs:
  max_new_tokens: 256
  temperature: 0
  do_sample: false
process_results: !function utils.process_results
metric_list:
  - metric: figgen_score
    aggregation: mean
    higher_is_better: true
{level_metrics}lmms_eval_specific_kwargs:
  default:
    pre_prompt: ""
    post_prompt: {post_prompt}
metadata:
  version: 1.0
"""

POST_PROMPT = ""
"""figgen's questions already state the answer format (a JSON object under ``answer_key``)."""


_LEVEL_METRIC = """\
  - metric: figgen_level_{level}
    aggregation: !function utils.aggregate_level_{level}
    higher_is_better: true
"""
ALL_LEVELS = (1, 2, 3)
_UTILS_LEVELS = "LEVELS = (1, 2, 3)"


def task_yaml(
    task: str, dataset_path: str, split: str, levels: tuple[int, ...] = ALL_LEVELS
) -> str:
    """The task YAML; strings are written as JSON, which YAML reads unchanged.

    Only ``levels`` get a per-level metric: a level with no question would report NaN.
    """
    if not task.isidentifier():
        raise FiggenError(f"task name {task!r} must be letters, digits and _; e.g. figgen_qa")
    return _TASK_YAML.format(
        task=task,
        dataset_path=json.dumps(dataset_path),
        split=split,
        post_prompt=json.dumps(POST_PROMPT),
        level_metrics="".join(_LEVEL_METRIC.format(level=level) for level in levels),
    )


def utils_source(levels: tuple[int, ...]) -> str:
    """The task's ``utils.py``: :mod:`figgen.harness.lmms.task_utils`, emitting only ``levels``."""
    text = files("figgen.harness.lmms").joinpath("task_utils.py").read_text(encoding="utf-8")
    if _UTILS_LEVELS not in text:  # the line this rewrites must stay as it is
        raise RuntimeError(f"figgen/harness/lmms/task_utils.py lost its line {_UTILS_LEVELS!r}")
    return text.replace(_UTILS_LEVELS, f"LEVELS = {levels!r}", 1)


def split_levels(dataset: BuiltDataset, split: Split, fractions: SplitFractions) -> tuple[int, ...]:
    """The levels that have questions in ``split``."""
    splits = assign_splits(dataset.figure_ids(), fractions)
    return tuple(
        sorted({item.level for item in dataset.qa_items() if splits.get(item.figure_id) == split})
    )


def export_lmms_eval(
    data_dir: str | Path,
    out: str | Path,
    *,
    dataset_path: str | None = None,
    task: str = "figgen_qa",
    split: Split = "test",
    fractions: SplitFractions | None = None,
    overwrite: bool = False,
) -> Path:
    """Write ``out/<task>.yaml`` and ``out/utils.py``.

    Without ``dataset_path`` (a Hub id or folder holding an HF export) the HF export is written
    to ``out/hf`` and the YAML points at its absolute path.
    """
    dataset = BuiltDataset.open(data_dir)
    out_path = Path(out)
    with staged_folder(out_path, overwrite=overwrite) as stage:
        if dataset_path is None:
            facts = write_hf_folder(
                dataset, stage / HF_SUBDIR, HfOptions(fractions=fractions or SplitFractions())
            )
            if split not in facts.split_counts["qa"]:
                raise FiggenError(
                    f"the {split} split has no questions; pass --split with one of "
                    f"{sorted(facts.split_counts['qa'])} or give it a share with --splits"
                )
            dataset_path = str((out_path / HF_SUBDIR).resolve())
        levels = split_levels(dataset, split, fractions or SplitFractions()) or ALL_LEVELS
        yaml = task_yaml(task, dataset_path, split, levels)
        (stage / f"{task}.yaml").write_text(yaml, encoding="utf-8")
        (stage / UTILS_FILE).write_text(utils_source(levels), encoding="utf-8")
    return out_path / f"{task}.yaml"
