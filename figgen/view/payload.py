"""What the viewer page shows of a build: figures, element boxes, questions and scored answers.

The page gets one JSON document; records are trimmed to what it draws (``data``, which can
hold thousands of samples per panel, is left out: hovering shows the element's own record).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from figgen._util.plain import as_plain_dict
from figgen.errors import FiggenError
from figgen.eval.report.aggregate import ScoredAnswer, score_rows
from figgen.eval.run.dataset import EvalDataset, load_dataset
from figgen.schema.answer_types import plain_question
from figgen.schema.answers import read_answers
from figgen.schema.qa_item import QAItem
from figgen.view.boxes_png import kind_colours

ImageUrl = Callable[[Path], str]
"""Maps a figure's image file to the URL the page loads it from."""

_PANEL_FIELDS = ("index", "row", "col", "kind", "distribution", "title", "xlabel", "ylabel")


def _question(item: QAItem) -> dict[str, Any]:
    return {
        "qid": item.qid,
        "level": item.level,
        "scope": item.scope,
        "location": item.location,
        "family": item.family,
        "question": item.question,
        "prompt": plain_question(item.question),
        "answer": item.answer,
        "choices": item.choices,
        "metric": item.metric,
        "evidence": item.evidence,
    }


def _answer(answer: ScoredAnswer) -> dict[str, Any]:
    score = answer.score
    return {
        "raw": answer.row.get("raw"),
        "error": answer.row.get("error"),
        "parsed": answer.parsed,
        "rejected": bool(score and score.rejected),
        "reason": score.reason if score else None,
        "value": score.value if score else None,
        "correct": score.correct if score else None,
    }


def _scored_models(
    dataset: EvalDataset, answers_files: Iterable[str | Path]
) -> dict[str, dict[str, dict[str, Any]]]:
    """model -> qid -> the model's answer and its score, scored the way ``eval score`` does."""
    by_model: dict[str, list[dict[str, Any]]] = {}
    for path in answers_files:
        rows = read_answers(path)
        if not rows:
            raise FiggenError(f"{path} holds no answers; pass a file written by figgen eval run")
        for row in rows:
            by_model.setdefault(str(row.get("model")), []).append(row)
    return {
        model: {a.item.qid: _answer(a) for a in score_rows(dataset, rows)}
        for model, rows in by_model.items()
    }


def _figure(
    dataset: EvalDataset, figure_id: str, items: list[QAItem], image_url: ImageUrl
) -> dict[str, Any]:
    record = dataset.record(figure_id)
    if record is None:
        raise FiggenError(f"figures/{figure_id}.json is missing; rebuild with figgen build")
    return {
        "id": figure_id,
        "image": image_url(dataset.image_path(figure_id)),
        "width": record.image.width,
        "height": record.image.height,
        "layout": as_plain_dict(record.layout),
        "panels": [{k: getattr(p, k) for k in _PANEL_FIELDS} for p in record.panels],
        "elements": [e.to_dict() for e in record.elements],
        "questions": [_question(item) for item in items],
    }


def view_payload(
    data_dir: str | Path,
    image_url: ImageUrl,
    *,
    answers: Iterable[str | Path] = (),
    figures: Iterable[str] | None = None,
) -> dict[str, Any]:
    """The page's document for the build in ``data_dir`` (only ``figures`` when given)."""
    # A build made with --no-questions still has boxes to show.
    has_qa = (Path(data_dir) / "qa.jsonl").is_file()
    dataset = load_dataset(data_dir) if has_qa else EvalDataset(Path(data_dir), [])
    by_figure: dict[str, list[QAItem]] = {}
    for item in dataset.items:
        by_figure.setdefault(item.figure_id, []).append(item)
    records = sorted(p.stem for p in (Path(data_dir) / "figures").glob("*.json"))
    if not records:
        raise FiggenError(f"{data_dir}/figures holds no records; pass a folder from figgen build")
    wanted = records if figures is None else list(figures)
    unknown = sorted(set(wanted) - set(records))
    if unknown:
        raise FiggenError(f"no figure {unknown[0]!r} in {data_dir}; ids look like {records[0]}")
    shown = {item.qid for fid in wanted for item in by_figure.get(fid, [])}
    models = {
        model: {qid: answer for qid, answer in scored.items() if qid in shown}
        for model, scored in _scored_models(dataset, answers).items()
    }
    return {
        "name": Path(data_dir).resolve().name,
        "colours": kind_colours(),
        "figures": [_figure(dataset, fid, by_figure.get(fid, []), image_url) for fid in wanted],
        "models": models,
    }
