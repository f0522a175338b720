"""Export a split as supervised fine-tuning records: the figure, figgen's prompt, the answer.

One JSON line per question in ``SFT_DIR/<split>.jsonl``, each figure once as
``SFT_DIR/images/<figure_id>.png``:

- ``messages``: TRL's conversational vision format, a user turn of an image part and figgen's
  prompt (the question and its answer format, as ``figgen eval run`` sends it), then an
  assistant turn whose text is the answer as that JSON object (what an oracle replies);
- ``conversations``: the same turns in LLaMA-Factory's ``sharegpt`` layout with OpenAI-style
  tags, plain-string contents and the ``<image>`` placeholder where the image goes;
- ``images``: the image path, relative to ``SFT_DIR``.

``dataset_info.json`` registers the file with LLaMA-Factory (``--dataset_dir SFT_DIR
--dataset figgen_sft``); :func:`load_sft` gives the records as a ``datasets.Dataset`` with the
images decoded, which is what TRL's ``SFTTrainer`` takes for a vision model.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import TYPE_CHECKING, Any

from figgen.errors import FiggenError
from figgen.eval.providers.offline import oracle_reply
from figgen.eval.run.prompt import prompt_text
from figgen.export.source import BuiltDataset
from figgen.schema.qa_item import QAItem
from figgen.schema.splits import Split, SplitFractions, assign_splits
from figgen.store.storage import staged_folder

if TYPE_CHECKING:
    from datasets import Dataset

DATASET_NAME = "figgen_sft"
IMAGE_TOKEN = "<image>"
"""LLaMA-Factory's placeholder for an image in a plain-string turn."""


def sft_record(item: QAItem, image: str) -> dict[str, Any]:
    """One training example: ``item`` asked about the image at ``image``, answered right."""
    prompt, answer = prompt_text(item), oracle_reply(item)
    return {
        "id": item.qid,
        "figure_id": item.figure_id,
        "images": [image],
        "messages": [
            {"role": "user", "content": [{"type": "image"}, {"type": "text", "text": prompt}]},
            {"role": "assistant", "content": [{"type": "text", "text": answer}]},
        ],
        "conversations": [
            {"role": "user", "content": f"{IMAGE_TOKEN}{prompt}"},
            {"role": "assistant", "content": answer},
        ],
    }


def _dataset_info(file_name: str) -> dict[str, Any]:
    """LLaMA-Factory's registration of the file (its data/README's sharegpt, OpenAI tags)."""
    return {
        DATASET_NAME: {
            "file_name": file_name,
            "formatting": "sharegpt",
            "columns": {"messages": "conversations", "images": "images"},
            "tags": {
                "role_tag": "role",
                "content_tag": "content",
                "user_tag": "user",
                "assistant_tag": "assistant",
            },
        }
    }


def export_sft(
    data_dir: str | Path,
    out: str | Path,
    *,
    fractions: SplitFractions | None = None,
    split: Split = "train",
    overwrite: bool = False,
) -> Path:
    """Write ``out/<split>.jsonl``, ``out/images/`` and ``out/dataset_info.json``."""
    dataset = BuiltDataset.open(data_dir)
    splits = assign_splits(dataset.figure_ids(), fractions or SplitFractions())
    items = [item for item in dataset.qa_items() if splits.get(item.figure_id) == split]
    if not items:
        raise FiggenError(
            f"the {split} split has no questions; pass --split with another split or give it "
            "a share with --splits"
        )
    file_name = f"{split}.jsonl"
    with staged_folder(out, overwrite=overwrite) as stage:
        (stage / "images").mkdir()
        with (stage / file_name).open("w", encoding="utf-8") as lines:
            for item in items:
                image = f"images/{item.figure_id}.png"
                if not (stage / image).exists():
                    shutil.copyfile(dataset.png_path(item.figure_id), stage / image)
                lines.write(json.dumps(sft_record(item, image), ensure_ascii=False) + "\n")
        info = json.dumps(_dataset_info(file_name), indent=2) + "\n"
        (stage / "dataset_info.json").write_text(info, encoding="utf-8")
    return Path(out) / file_name


def load_sft(folder: str | Path, split: Split = "train") -> Dataset:
    """The exported records as a ``datasets.Dataset``, images decoded (TRL's SFT input)."""
    from datasets import Image, Sequence, load_dataset

    root = Path(folder)
    path = root / f"{split}.jsonl"
    if not path.is_file():
        raise FiggenError(f"{path} does not exist; write it with figgen export --format sft")
    records = load_dataset("json", data_files=str(path), split="train")
    # paths are relative to the export; datasets opens them from the working directory
    records = records.map(lambda r: {"images": [str(root / p) for p in r["images"]]})
    return records.cast_column("images", Sequence(Image()))
