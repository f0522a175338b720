"""How VLMEvalKit reads a custom TSV, restated from its source for the export tests.

From open-compass/VLMEvalKit (commit e8e78f0, Aug 2026): ``vlmeval/dataset/__init__.py``
(``build_dataset``, ``DATASET_TYPE``), ``vlmeval/dataset/image_base.py``
(``ImageBaseDataset.__init__``), ``vlmeval/dataset/image_mcq.py``
(``ImageMCQDataset.build_prompt``) and ``vlmeval/smp/file.py`` (``load``: ``pd.read_csv(f,
sep='\\t')`` with pandas' defaults). VLMEvalKit is not on the package registry, so its loading
steps are written out here; each step names the code it restates.
"""

from __future__ import annotations

import base64
import string
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

MAX_REF_LENGTH = 64  # image_base.py: a cell of 1..64 characters names another row's index


@dataclass
class LoadedDataset:
    name: str
    cls: str  # which class build_dataset picks
    type: str  # DATASET_TYPE(name)
    data: pd.DataFrame  # after ImageBaseDataset.__init__


def dataset_class(data: pd.DataFrame) -> str:
    """``build_dataset`` for a name it does not know: the class from the columns."""
    assert "question" in [c.lower() for c in data.columns]
    if "A" in data and "B" in data:
        return "CustomMCQDataset" if "image" in data or "image_path" in data else "TextMCQ"
    return "CustomVQADataset"


def dataset_type(name: str) -> str:
    """``DATASET_TYPE`` for a custom name."""
    return "VQA" if "openended" in name.lower() else "MCQ"


def load_custom(path: Path) -> LoadedDataset:
    """``build_dataset(path.stem)`` with the TSV in ``$LMUData``, then ``__init__``'s steps."""
    data = pd.read_csv(path, sep="\t")
    cls = dataset_class(data)
    data = data[~pd.isna(data["image"])]  # skip_noimg
    data["index"] = [str(x) for x in data["index"]]
    data["image"] = [str(x) if not pd.isna(x) else "" for x in data["image"]]
    image_map = dict(zip(data["index"], data["image"], strict=True))
    for key in image_map:
        if 0 < len(image_map[key]) <= MAX_REF_LENGTH:
            ref = image_map[key]
            assert ref in image_map and len(image_map[ref]) > MAX_REF_LENGTH
            image_map[key] = image_map[ref]
    data["image"] = [image_map[k] for k in data["index"]]
    if np.all([x.isdigit() for x in data["index"]]):  # istype(x, int)
        data["index"] = [int(x) for x in data["index"]]
    return LoadedDataset(path.stem, cls, dataset_type(path.stem), data)


def mcq_options(line: pd.Series) -> dict[str, Any]:
    """``ImageMCQDataset.build_prompt``'s options: every letter column that is not NaN."""
    return {c: line[c] for c in string.ascii_uppercase if c in line and not pd.isna(line[c])}


def decoded_image(line: pd.Series) -> bytes:
    """``decode_base64_to_image_file``'s input, decoded."""
    return base64.b64decode(line["image"])
