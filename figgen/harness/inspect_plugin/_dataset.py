"""figgen questions as inspect_ai samples: the figure as an image part, then the question."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from inspect_ai.dataset import MemoryDataset, Sample
from inspect_ai.model import ChatMessageUser, ContentImage, ContentText

from figgen.eval.blind.fit import unseen_predictions
from figgen.eval.run.dataset import load_dataset, select_items
from figgen.eval.run.prompt import prompt_text
from figgen.schema.qa_item import QAItem


def qa_sample(item: QAItem, image: Path, blind: dict[str, Any] | None = None) -> Sample:
    """One question; ``metadata["item"]`` holds the whole QA item for the scorer, and
    ``metadata["blind"]`` each blind baseline's answer (fitted on the train split)."""
    message = ChatMessageUser(
        content=[ContentImage(image=str(image)), ContentText(text=prompt_text(item))]
    )
    return Sample(
        id=item.qid,
        input=[message],
        target=str(item.answer) if isinstance(item.answer, str) else repr(item.answer),
        metadata={
            "level": item.level,
            "family": item.family,
            "scope": item.scope,
            "figure_id": item.figure_id,
            "item": item.to_dict(),
            "blind": blind or {},
        },
    )


def qa_dataset(
    data_dir: str | Path,
    *,
    levels: Iterable[int] | None = None,
    families: Iterable[str] | None = None,
) -> MemoryDataset:
    """The build's questions (optionally some levels and families), in file order."""
    dataset = load_dataset(data_dir)
    items = select_items(dataset.items, levels=levels, families=families)
    images = {fid: dataset.image_path(fid).resolve() for fid in {i.figure_id for i in items}}
    predictions = unseen_predictions(dataset.items, items)
    return MemoryDataset(
        [
            qa_sample(
                item,
                images[item.figure_id],
                {name: values.get(item.qid) for name, values in predictions.items()},
            )
            for item in items
        ],
        name=Path(data_dir).resolve().name,
        location=str(Path(data_dir).resolve()),
    )
