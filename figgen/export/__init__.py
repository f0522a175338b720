"""Dataset exports: HuggingFace folders and Hub push, COCO, lmms-eval and VLMEvalKit.

The public names load on first use, so importing the CLI does not import ``datasets``.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_PUBLIC = {
    "export_hf": "figgen.export.hf",
    "HfOptions": "figgen.export.hf",
    "write_hf_folder": "figgen.export.hf",
    "export_coco": "figgen.export.coco",
    "export_lmms_eval": "figgen.harness.lmms.export",
    "export_vlmevalkit": "figgen.harness.vlmevalkit.export",
    "push_dataset": "figgen.export.hub",
    "SplitFractions": "figgen.schema.splits",
    "split_of": "figgen.schema.splits",
    "BuiltDataset": "figgen.export.source",
    "FIGURE_FEATURES": "figgen.export.schema",
    "QA_FEATURES": "figgen.export.schema",
    "figure_row": "figgen.export.schema",
    "qa_row": "figgen.export.schema",
}

__all__ = sorted(_PUBLIC)


def __getattr__(name: str) -> Any:
    if name not in _PUBLIC:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(import_module(_PUBLIC[name]), name)
