"""figgen: synthetic multi-panel scientific figures with exact ground truth, the questions
they answer at description Levels 1-3, and the evaluation of multimodal models on them.

    import figgen

    figgen.build_dataset("dataset", n=20, seed=0)               # figures, records, questions
    record = figgen.open_record("dataset/figures/fig-000000.json")
    items = figgen.questions_for_record(record)                # what figgen asks of it
    figgen.run_eval("dataset", "oracle", "answers.jsonl")      # or "openai:gpt-5-mini", ...
    metrics = figgen.score_answers("dataset", ["answers.jsonl"], "report")

Every name is imported on first use, so ``import figgen`` loads no matplotlib (the command
line starts its build workers before it imports the drawing code).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from figgen._util.lazy import lazy_exports
from figgen._util.version import __version__

if TYPE_CHECKING:
    from figgen.build.dataset import build_dataset
    from figgen.build.figure import generate_figure
    from figgen.config.load import FigureConfig, load_config
    from figgen.errors import FiggenError
    from figgen.eval.api import run_eval, score_answers
    from figgen.schema.qa_item import QAItem
    from figgen.schema.record import Record, open_record
    from figgen.schema.spec import FigureSpec, PanelSpec
    from figgen.vqa.describe.describe import describe_record
    from figgen.vqa.questions.builder import questions_for_record

__getattr__ = lazy_exports(
    __name__,
    {
        "FigureConfig": "figgen.config.load",
        "FigureSpec": "figgen.schema.spec",
        "FiggenError": "figgen.errors",
        "PanelSpec": "figgen.schema.spec",
        "QAItem": "figgen.schema.qa_item",
        "Record": "figgen.schema.record",
        "build_dataset": "figgen.build.dataset",
        "describe_record": "figgen.vqa.describe.describe",
        "generate_figure": "figgen.build.figure",
        "load_config": "figgen.config.load",
        "open_record": "figgen.schema.record",
        "questions_for_record": "figgen.vqa.questions.builder",
        "run_eval": "figgen.eval.api",
        "score_answers": "figgen.eval.api",
    },
)

__all__ = [
    "FigureConfig",
    "FigureSpec",
    "FiggenError",
    "PanelSpec",
    "QAItem",
    "Record",
    "__version__",
    "build_dataset",
    "describe_record",
    "generate_figure",
    "load_config",
    "open_record",
    "questions_for_record",
    "run_eval",
    "score_answers",
]
