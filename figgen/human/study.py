"""One person's study: the sampled questions, the answers file, and recording an answer.

Answers go through the runner's own :class:`~figgen.schema.answers.AnswerWriter`: one JSON
line per answer, written whole and flushed before the page is told it is saved, so a killed
server keeps every acknowledged answer and a line cut by the kill is skipped on reading.
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from figgen.errors import FiggenError
from figgen.eval.run.dataset import EvalDataset, load_dataset
from figgen.human.inputs import InvalidAnswer, answer_reply, page_question
from figgen.human.sample import StudyPlan, load_or_start_plan
from figgen.schema.answers import (
    HUMAN_PREFIX,
    AnswerRow,
    AnswerWriter,
    answered_qids,
    is_human,
    read_answers,
)
from figgen.schema.qa_item import QAItem

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


def human_model(annotator: str) -> str:
    """``human:NAME`` for a valid annotator name; a one-line error names the rule otherwise."""
    if not _NAME.fullmatch(annotator):
        raise FiggenError(
            f"--annotator {annotator!r} must be letters, digits, '.', '_' or '-' "
            "(at most 64, starting with a letter or digit)"
        )
    return HUMAN_PREFIX + annotator


@dataclass
class Study:
    """The questions one annotator answers and the answers file they go to."""

    dataset: EvalDataset
    plan: StudyPlan
    annotator: str
    out: Path
    items: dict[str, QAItem]
    answered: set[str]
    images: dict[str, Path] = field(default_factory=dict)
    """URL path -> image file: only the sample's own images are served."""
    _questions: list[dict[str, Any]] = field(default_factory=list, repr=False)
    _writer: AnswerWriter | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    @property
    def model(self) -> str:
        return HUMAN_PREFIX + self.annotator

    @property
    def key(self) -> str:
        """Names this study in the browser's storage (another study never reads its drafts)."""
        text = "\n".join([self.model, str(self.out.resolve()), *self.plan.qids])
        return hashlib.sha256(text.encode()).hexdigest()[:16]

    def payload(self) -> dict[str, Any]:
        """The page's document: every question with its images, and those already answered."""
        if not self._questions:
            url_of = {path: url for url, path in self.images.items()}
            for number, qid in enumerate(self.plan.qids, start=1):
                item = self.items[qid]
                question = page_question(item)
                question["number"] = number
                question["images"] = [url_of[p] for p in self.dataset.image_paths(item.figure_id)]
                self._questions.append(question)
        with self._lock:
            answered = [qid for qid in self.plan.qids if qid in self.answered]
        return {
            "name": self.dataset.root.resolve().name,
            "study": self.key,
            "annotator": self.annotator,
            "questions": self._questions,
            "answered": answered,
        }

    def record(self, qid: Any, value: Any, elapsed_s: Any, *, skipped: bool = False) -> int:
        """Append the answer to ``qid`` (once; a repeat is acknowledged, not written again).

        Returns how many of the sample are answered. Raises InvalidAnswer for input the
        person can fix and FiggenError for a request no page of this study would send.
        """
        item = self.items.get(qid) if isinstance(qid, str) else None
        if item is None:
            raise FiggenError(f"{qid!r} is not a question of this study")
        if isinstance(elapsed_s, bool) or not isinstance(elapsed_s, int | float):
            raise FiggenError("elapsed_s must be a number of seconds")
        if not math.isfinite(elapsed_s) or elapsed_s < 0:
            raise FiggenError("elapsed_s must be a finite number of seconds, at least 0")
        with self._lock:
            if qid in self.answered:  # sent again after a lost reply: already kept
                return len(self.answered)
        raw, parsed = answer_reply(item, value, skipped=skipped)
        record = self.dataset.record(item.figure_id)
        single = len(self.dataset.image_keys(item.figure_id)) == 1 and record is not None
        row = AnswerRow(
            qid=qid,
            model=self.model,
            raw=raw,
            parsed=parsed.value,
            rejected=parsed.rejected,
            reason=parsed.reason,
            image_size=[record.image.width, record.image.height] if single and record else None,
            image_media_type="image/png",
            latency_s=round(float(elapsed_s), 3),
            attempts=1,
        )
        with self._lock:
            if qid not in self.answered:
                if self._writer is None:
                    self._writer = AnswerWriter.for_build(self.out, self.dataset.root)
                self._writer.write(row)
                self.answered.add(qid)
            return len(self.answered)

    def close(self) -> None:
        with self._lock:
            if self._writer is not None:
                self._writer.close()
                self._writer = None


def open_study(
    data_dir: str | Path, *, annotator: str, sample: int, seed: int, out: str | Path
) -> Study:
    """The study in ``out``: resumed when it exists (the same sample and seed), else started."""
    model = human_model(annotator)
    dataset = load_dataset(data_dir)
    out = Path(out)
    # refuse another model's file before writing a plan beside it
    done = answered_qids(read_answers(out), model)
    plan = load_or_start_plan(dataset, out, sample, seed)
    items = {item.qid: item for item in dataset.items if item.qid in set(plan.qids)}
    images: dict[str, Path] = {}
    for qid in plan.qids:
        for path in dataset.image_paths(items[qid].figure_id):
            if path not in images.values():
                images[f"/images/{len(images)}{path.suffix}"] = path
    return Study(dataset, plan, annotator, out, items, done & set(plan.qids), images)


__all__ = ["InvalidAnswer", "Study", "human_model", "is_human", "open_study"]
