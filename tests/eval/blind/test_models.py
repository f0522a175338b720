"""Blind baselines: predictions against hand-computed ones, and fitting only on unseen figures."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from figgen.eval.blind.compare import balanced_accuracy, chance_accuracy, compare_with
from figgen.eval.blind.fit import cross_fit, figure_folds, unseen_predictions
from figgen.eval.blind.mask import masked_question
from figgen.eval.blind.models import BlindBaseline
from figgen.schema.qa_item import QAItem
from figgen.schema.splits import SplitFractions, assign_splits

CHOICES = ["none", "x only", "y only", "x and y"]


def item(
    qid: str,
    answer: Any,
    *,
    figure: str | None = None,
    family: str = "error_bars",
    question: str = "Which error bars are drawn in the left panel?",
    choices: list[str] | None = CHOICES,
    answer_type: str = "choice",
    metric: str = "exact",
    location: str | None = "the left panel",
) -> QAItem:
    return QAItem.from_dict(
        {
            "qid": qid,
            "figure_id": figure or f"fig-{qid}",
            "level": 1,
            "scope": "panel",
            "panel": 0,
            "location": location,
            "family": family,
            "question": question,
            "answer": answer,
            "answer_type": answer_type,
            "answer_key": family,
            "metric": metric,
            "choices": choices,
            "evidence": [],
        }
    )


def test_majority_is_the_most_common_offered_answer_and_the_median_for_numbers() -> None:
    train = [item(f"t{i}", a) for i, a in enumerate(["none", "none", "none", "y only", "x only"])]
    train += [
        item(f"n{i}", v, family="mean_y", choices=None, answer_type="number", metric="ssmape")
        for i, v in enumerate([1.0, 2.0, 10.0, 4.0])
    ]
    model = BlindBaseline("majority").fit(train)
    assert model.predict(item("a", "x only")) == "none"
    # "none" not offered: the most common answer among the offered ones
    assert model.predict(item("b", "x only", choices=["x only", "y only"])) in ("x only", "y only")
    assert model.predict(item("c", 3.0, family="mean_y", choices=None, answer_type="number",
                              metric="ssmape")) == 3.0  # median of 1, 2, 4, 10  # fmt: skip
    assert model.predict(item("d", "x", family="unseen")) is None


def test_choice_prior_picks_the_choice_most_often_right_when_offered() -> None:
    pool = [
        item("1", "cool", choices=["cool", "hot"]),
        item("2", "hot", choices=["cool", "hot"]),
        item("3", "hot", choices=["cool", "hot"]),
        item("4", "warm", choices=["cool", "warm"]),
        item("5", "warm", choices=["cool", "warm"]),
        item("6", "warm", choices=["cool", "warm", "dry"]),
    ]
    model = BlindBaseline("choice").fit(pool)
    # right when offered: cool 1 of 6, hot 2 of 3, warm 3 of 3, dry 0 of 1
    assert model.predict(item("a", "cool", choices=["cool", "hot", "warm"])) == "warm"
    assert model.predict(item("a", "cool", choices=["cool", "hot"])) == "hot"
    assert model.predict(item("b", "cool", choices=["cool", "dry"])) == "cool"
    majority = BlindBaseline("majority").fit(pool)
    assert majority.predict(item("c", "cool", choices=["cool", "dry"])) == "cool"


def test_template_masks_locations_quotes_and_numbers() -> None:
    counts: dict[str, Any] = {"choices": None, "answer_type": "integer", "family": "n_peaks"}
    a = item("a", "1", question='In the left panel, how many "alpha" peaks above 3.5?', **counts)
    b = item("b", "1", question='In the right panel, how many "beta" peaks above 7?',
             location="the right panel", **counts)  # fmt: skip
    assert masked_question(a) == masked_question(b) == "In <loc>, how many <q> peaks above <n>?"
    pool = [
        item("1", 2, question="Wide question?", choices=None, answer_type="integer"),
        item("2", 2, question="Wide question?", choices=None, answer_type="integer"),
        item("3", 1, question="Narrow question?", choices=None, answer_type="integer"),
    ]
    model = BlindBaseline("template").fit(pool)
    assert model.predict(item("x", 1, question="Narrow question?", choices=None,
                              answer_type="integer")) == 1  # fmt: skip
    assert model.predict(item("y", 1, question="Other?", choices=None,
                              answer_type="integer")) == 2  # fmt: skip


def test_text_model_learns_a_word_that_gives_the_answer_away() -> None:
    pool = [item(f"r{i}", "y only", question=f"Panel red {i}: which error bars?")
            for i in range(10)]  # fmt: skip
    pool += [item(f"b{i}", "x only", question=f"Panel blue {i}: which error bars?")
             for i in range(10)]  # fmt: skip
    model = BlindBaseline("text").fit(pool)
    asked = [
        item("p", "?", question="Panel red 99: which error bars?"),
        item("q", "?", question="Panel blue 99: which error bars?"),
        item("r", "?", question="Panel blue 99: which error bars?", choices=["none", "y only"]),
    ]
    assert model.predict_all(asked) == ["y only", "x only", "y only"]


def test_cross_fit_never_answers_a_figure_with_a_model_that_saw_it() -> None:
    # every figure's answer is unique, so a model that saw the figure could only repeat it
    items = [item(f"q{i}", f"answer {i}", choices=None, answer_type="string", metric="cer")
             for i in range(10)]  # fmt: skip
    folds = figure_folds([i.figure_id for i in items], 5)
    assert Counter(folds.values()) == Counter({0: 2, 1: 2, 2: 2, 3: 2, 4: 2})
    predictions = cross_fit(items, folds=5)["majority"]
    for it in items:
        assert predictions[it.qid] != it.answer
        same_fold = {o.answer for o in items if folds[o.figure_id] == folds[it.figure_id]}
        assert predictions[it.qid] not in same_fold


def test_unseen_predictions_fit_on_train_only() -> None:
    items = [item(f"q{i:02d}", "none" if i % 3 else "y only") for i in range(60)]
    split = assign_splits([i.figure_id for i in items], SplitFractions())
    train = [i for i in items if split[i.figure_id] == "train"]
    test = [i for i in items if split[i.figure_id] != "train"]
    expected = Counter(i.answer for i in train).most_common(1)[0][0]
    predictions = unseen_predictions(items, test)["majority"]
    assert set(predictions) == {i.qid for i in test}
    assert set(predictions.values()) == {expected}


def test_chance_and_balanced_accuracy_by_hand() -> None:
    two = [item("a", "x", choices=["x", "y"]), item("b", "y", choices=["x", "y", "z", "w"])]
    assert chance_accuracy(two) == pytest.approx((1 / 2 + 1 / 4) / 2)
    counts = [item(str(i), i % 3, choices=None, answer_type="integer") for i in range(6)]
    assert chance_accuracy(counts, classes=3) == pytest.approx(1 / 3)
    assert chance_accuracy([item("n", 1.5, choices=None, answer_type="number")]) is None
    # classes 1: 2 of 2 right, 2: 0 of 1 right -> (1 + 0) / 2
    three = [item(str(i), a, choices=None, answer_type="integer") for i, a in enumerate([1, 1, 2])]
    assert balanced_accuracy(three, [True, True, False]) == pytest.approx(0.5)


def test_comparison_marks_near_blind_and_small_families() -> None:
    items = [item(f"q{i}", "none" if i < 8 else "x only") for i in range(10)]
    predictions = {"majority": {i.qid: "none" for i in items}}
    answered = [(i, True) for i in items[:9]] + [(items[9], False)]
    result = compare_with(items, answered, predictions)  # type: ignore[arg-type]
    entry = result["by_family"]["error_bars"]
    assert entry["accuracy"] == pytest.approx(0.9)
    assert entry["blind_accuracy"] == pytest.approx(0.8) and entry["best_blind"] == "majority"
    assert entry["lift"] == pytest.approx(0.1) and not entry["near_blind"]
    assert entry["too_few"] and entry["chance"] == pytest.approx(0.25)
    assert result["lift"] == pytest.approx(0.1)


def test_small_build_majority_matches_a_direct_count(small_build: Path) -> None:
    from figgen.eval.run.dataset import load_dataset

    items = load_dataset(small_build).items
    model = BlindBaseline("majority").fit(items)
    for family in ("plot_type", "axis_scale", "panel_count"):
        group = [i for i in items if i.family == family]
        if not group:
            continue
        counts = Counter(str(i.answer) for i in group)
        top = max(counts.values())
        winners = {a for a, n in counts.items() if n == top}
        assert str(model.predict(group[0])) in winners


def test_near_blind_families_are_named_when_few_and_counted_when_many() -> None:
    from figgen.eval.report.blind import near_blind_text

    few = {"near_blind": ["n_lines"], "by_family": {"n_lines": {}, "titles": {}}}
    assert near_blind_text(few) == "n_lines"
    many = {
        "near_blind": [f"f{i}" for i in range(9)],
        "by_family": {f"f{i}": {} for i in range(12)},
    }
    assert near_blind_text(many) == "9 of 12 families"
    assert near_blind_text({"near_blind": [], "by_family": {}}) == "none"
