"""The blind-baseline part of ``figgen eval score``: metrics.json entries and report section."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from figgen._util.markdown import table_text
from figgen.eval.blind.compare import NEAR, TOO_FEW, compare_with
from figgen.eval.blind.fit import unseen_predictions

if TYPE_CHECKING:
    from figgen.eval.report.aggregate import ScoredAnswer
    from figgen.eval.run.dataset import EvalDataset


def add_blind_metrics(
    metrics: dict[str, Any], dataset: EvalDataset, scored: dict[str, list[ScoredAnswer]]
) -> None:
    """Add each model's ``blind`` entry (per family and headline) to ``metrics["models"]``.

    The baselines are fitted once on the dataset's train split and answer every question any
    model was asked (train questions by folds within train).
    """
    asked = {a.item.qid: a.item for answers in scored.values() for a in answers}
    if not asked:
        return
    predictions = unseen_predictions(dataset.items, list(asked.values()))
    for label, answers in scored.items():
        pairs = [(a.item, a.outcome == "correct") for a in answers]
        if pairs:
            metrics["models"][label]["blind"] = compare_with(dataset.items, pairs, predictions)


def near_blind_text(blind: dict[str, Any], most: int = 8) -> str:
    """The families near blind, named when few, else counted ("41 of 41 families")."""
    near = blind["near_blind"]
    if len(near) > most:
        return f"{len(near)} of {len(blind['by_family'])} families"
    return ", ".join(near) or "none"


def _num(value: float | None) -> str:
    return "–" if value is None else f"{value + 0.0:.3f}"


def _lift(value: float | None) -> str:
    return "–" if value is None else f"{value + 0.0:+.3f}"


def _mark(entry: dict[str, Any]) -> str:
    marks = []
    if entry["near_blind"]:
        marks.append("near blind")
    if entry["too_few"]:
        marks.append("too few to rank")
    if entry.get("fixed_by_paper"):
        marks.append(
            f"fixed by paper: balanced accuracy {_num(entry.get('balanced_accuracy'))} "
            f"(blind {_num(entry.get('blind_balanced_accuracy'))})"
        )
    return "; ".join(marks)


def blind_markdown(metrics: dict[str, Any]) -> list[str]:
    """The report's "Against blind baselines" section (empty when no model has one)."""
    models = {m: v["blind"] for m, v in metrics["models"].items() if v.get("blind")}
    if not models:
        return []
    headline = table_text(
        ["model", "accuracy", "best blind", "lift over blind", "families near blind"],
        [
            [m, _num(b["accuracy"]), _num(b["blind_accuracy"]), _lift(b["lift"]),
             near_blind_text(b)]
            for m, b in models.items()
        ],
    )  # fmt: skip
    families = table_text(
        ["model", "family", "n", "accuracy", "best blind", "blind accuracy", "chance", "lift",
         "mark"],
        [
            [m, f, e["n"], _num(e["accuracy"]), e["best_blind"] or "–",
             _num(e["blind_accuracy"]), _num(e["chance"]), _lift(e["lift"]), _mark(e)]
            for m, b in models.items()
            for f, e in b["by_family"].items()
        ],
    )  # fmt: skip
    return [
        "## Against blind baselines",
        "",
        "A blind baseline answers from the question alone: `majority` (the family's most "
        "common answer), `template` (the most common answer of the same question with "
        "locations, quotes and numbers masked), `text` (TF-IDF + logistic regression) and "
        "`choice` (the offered choice most often right). They are fitted on the train split "
        "(train questions by 5 folds grouped by figure) and answer the same questions as the "
        "model; **best blind** is the best of them per family, so **lift over blind** is what "
        "the model read from the picture. **chance** is a uniform guess over the offered "
        "choices (or the family's answers); `–` for free-form answers. Marked: *near blind* "
        f"(lift under {NEAR:.2f}), *too few to rank* (under {TOO_FEW} questions), *fixed by "
        "paper* (the paper's figure distribution leaves the answers unbalanced; balanced "
        "accuracy, the mean recall over answer classes, beside it).",
        "",
        headline,
        "",
        families,
        "",
    ]
