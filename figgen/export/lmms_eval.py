"""Export an lmms-eval task (YAML + utils.py) that reads the ``qa`` config."""

from __future__ import annotations

import json
import shutil
from importlib.resources import files
from pathlib import Path

from figgen.errors import FiggenError
from figgen.export.hf import write_hf_folder
from figgen.export.source import BuiltDataset
from figgen.export.splits import Split, SplitFractions
from figgen.storage import staged_folder

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
  - metric: figgen_level_1
    aggregation: !function utils.aggregate_level_1
    higher_is_better: true
  - metric: figgen_level_2
    aggregation: !function utils.aggregate_level_2
    higher_is_better: true
  - metric: figgen_level_3
    aggregation: !function utils.aggregate_level_3
    higher_is_better: true
lmms_eval_specific_kwargs:
  default:
    pre_prompt: ""
    post_prompt: {post_prompt}
metadata:
  version: 1.0
"""

POST_PROMPT = ""
"""figgen's questions already state the answer format (a JSON object under ``answer_key``)."""


def task_yaml(task: str, dataset_path: str, split: str) -> str:
    """The task YAML; strings are written as JSON, which YAML reads unchanged."""
    if not task.isidentifier():
        raise FiggenError(f"task name {task!r} must be letters, digits and _; e.g. figgen_qa")
    return _TASK_YAML.format(
        task=task,
        dataset_path=json.dumps(dataset_path),
        split=split,
        post_prompt=json.dumps(POST_PROMPT),
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
                dataset, stage / HF_SUBDIR, fractions=fractions or SplitFractions()
            )
            if split not in facts.split_counts["qa"]:
                raise FiggenError(
                    f"the {split} split has no questions; pass --split with one of "
                    f"{sorted(facts.split_counts['qa'])} or give it a share with --splits"
                )
            dataset_path = str((out_path / HF_SUBDIR).resolve())
        (stage / f"{task}.yaml").write_text(task_yaml(task, dataset_path, split), encoding="utf-8")
        source = files("figgen.export").joinpath("lmms_task.py")
        with source.open("rb") as src, (stage / UTILS_FILE).open("wb") as dst:
            shutil.copyfileobj(src, dst)
    return out_path / f"{task}.yaml"
