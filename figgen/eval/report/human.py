"""The human part of ``figgen eval score``: time and cost per person, agreement between
people, the items most of them got wrong, and the models on the same items.

People's answers are scored like any model's (their rows are ordinary answer rows with the
model ``human:NAME``); this adds what only people have: time as the cost (``--hourly-rate``),
and, with two or more people on the same items, how far they agree.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Hashable
from typing import Any

from figgen._util.markdown import table_text
from figgen.eval.report.aggregate import ScoredAnswer
from figgen.eval.scoring.agreement import (
    fleiss_kappa,
    icc_2_1,
    mean_pairwise_kappa,
    mean_pairwise_ssmape,
)
from figgen.schema.answer_types import answer_spec, plain_question
from figgen.schema.answers import is_human


def _seconds(answers: list[ScoredAnswer]) -> list[float]:
    return [float(a.row["latency_s"]) for a in answers if a.row.get("latency_s") is not None]


def apply_hourly_rate(
    models: dict[str, Any], scored: dict[str, list[ScoredAnswer]], hourly_rate: float
) -> None:
    """Price each person's time at ``hourly_rate`` USD, in place of the zero tokens cost."""
    for label, answers in scored.items():
        if not is_human(label):
            continue
        entry = models[label]
        cost = hourly_rate * sum(_seconds(answers)) / 3600
        entry["cost_usd"] = cost
        entry["cost_per_question"] = cost / entry["n"] if entry["n"] else None
        entry["cost_per_1000_questions"] = 1000 * cost / entry["n"] if entry["n"] else None
        accuracy = entry["accuracy"]
        entry["accuracy_per_usd"] = accuracy / cost if accuracy is not None and cost > 0 else None
        for level, group in entry["by_level"].items():
            rows = [a for a in answers if str(a.item.level) == level]
            group["cost_usd"] = hourly_rate * sum(_seconds(rows)) / 3600
            group["cost_per_question"] = group["cost_usd"] / group["n"] if group["n"] else None


def _label(answer: ScoredAnswer) -> Hashable:
    value = answer.parsed
    if isinstance(value, list):  # a set of choices: order is irrelevant
        return json.dumps(sorted(map(str, value)))
    return json.dumps(value.casefold() if isinstance(value, str) else value)


def _numbers(answer: ScoredAnswer) -> list[float] | None:
    value = answer.parsed
    values = value if isinstance(value, list) else [value]
    if not all(isinstance(v, int | float) and not isinstance(v, bool) for v in values):
        return None
    numbers = [float(v) for v in values]
    return sorted(numbers) if answer_spec(answer.item.answer_type).unordered else numbers


def _readable(humans: dict[str, list[ScoredAnswer]]) -> dict[str, dict[str, ScoredAnswer]]:
    return {h: {a.item.qid: a for a in answers if a.scored} for h, answers in humans.items()}


def _categorical(by_person: dict[str, dict[str, ScoredAnswer]]) -> dict[str, Any] | None:
    labels = {h: {q: _label(a) for q, a in answers.items()} for h, answers in by_person.items()}
    shared = _shared(labels)
    if not shared:
        return None
    kappa, pairs = mean_pairwise_kappa(labels)
    everyone = [q for q in shared if all(q in labels[h] for h in labels)]
    fleiss = None
    if len(labels) >= 3 and everyone:
        fleiss = fleiss_kappa([[labels[h][q] for h in sorted(labels)] for q in everyone])
    same = [len({labels[h][q] for h in labels if q in labels[h]}) == 1 for q in shared]
    return {
        "items": len(shared),
        "percent_agreement": sum(same) / len(same),
        "cohen_kappa": kappa,
        "kappa_pairs": pairs,
        "fleiss_kappa": fleiss,
        "fleiss_items": len(everyone) if fleiss is not None else 0,
    }


def _numeric(by_person: dict[str, dict[str, ScoredAnswer]]) -> dict[str, Any] | None:
    values = {
        h: {q: n for q, a in answers.items() if (n := _numbers(a)) is not None}
        for h, answers in by_person.items()
    }
    shared = _shared(values)
    if not shared:
        return None
    per_item = [[values[h][q] for h in sorted(values) if q in values[h]] for q in shared]
    scalar = all(len(v) == 1 for item in per_item for v in item)
    everyone = [q for q in shared if all(q in values[h] for h in values)]
    icc = None
    if scalar and len(everyone) >= 2:
        icc = icc_2_1([[values[h][q][0] for h in sorted(values)] for q in everyone])
    return {
        "items": len(shared),
        "ssmape_between": mean_pairwise_ssmape(per_item),
        "icc": icc,
        "icc_items": len(everyone) if icc is not None else 0,
    }


def _shared(values: dict[str, dict[str, Any]]) -> list[str]:
    """The items at least two people answered readably."""
    seen: dict[str, int] = {}
    for answers in values.values():
        for qid in answers:
            seen[qid] = seen.get(qid, 0) + 1
    return sorted(q for q, count in seen.items() if count >= 2)


def agreement(humans: dict[str, list[ScoredAnswer]]) -> dict[str, Any]:
    """Agreement per family (choice and number families), and pooled over each kind."""
    readable = _readable(humans)
    families: dict[str, Any] = {}
    names = sorted({a.item.family for answers in humans.values() for a in answers})
    pooled: dict[str, dict[str, dict[str, ScoredAnswer]]] = {"choices": {}, "numbers": {}}
    for family in names:
        part = {
            h: {q: a for q, a in answers.items() if a.item.family == family}
            for h, answers in readable.items()
        }
        answer_type = next(
            a.item.answer_type
            for answers in humans.values()
            for a in answers
            if a.item.family == family
        )
        measured = answer_spec(answer_type).agreement
        if measured is None:  # text is compared with the truth only
            continue
        kind = "choices" if measured == "categorical" else "numbers"
        result = _categorical(part) if kind == "choices" else _numeric(part)
        if result is not None:
            families[family] = {"kind": kind, **result}
        for h, answers in part.items():
            pooled[kind].setdefault(h, {}).update(answers)
    choices = _categorical(pooled["choices"])
    numbers = _numeric(pooled["numbers"])
    return {
        "annotators": sorted(humans),
        "choices": choices,
        "numbers": None if numbers is None else {**numbers, "icc": None, "icc_items": 0},
        "by_family": families,
    }


def hard_items(humans: dict[str, list[ScoredAnswer]]) -> list[dict[str, Any]]:
    """Items that two or more people answered and most got wrong: candidates for questions
    the figure does not answer (or answers ambiguously)."""
    by_item: dict[str, list[tuple[str, ScoredAnswer]]] = {}
    for person, answers in humans.items():
        for answer in answers:
            by_item.setdefault(answer.item.qid, []).append((person, answer))
    hard = []
    for qid, given in by_item.items():
        wrong = sum(a.outcome != "correct" for _, a in given)
        if len(given) >= 2 and 2 * wrong > len(given):
            item = given[0][1].item
            hard.append(
                {
                    "qid": qid,
                    "family": item.family,
                    "level": item.level,
                    "question": plain_question(item.question),
                    "answer": item.answer,
                    "wrong": wrong,
                    "answered": len(given),
                    "answers": {p: None if a.outcome == "rejected" else a.parsed for p, a in given},
                }
            )
    return sorted(hard, key=lambda h: (-h["wrong"] / h["answered"], h["qid"]))


def _person(answers: list[ScoredAnswer], entry: dict[str, Any]) -> dict[str, Any]:
    seconds = _seconds(answers)
    return {
        "n": entry["n"],
        "accuracy": entry["accuracy"],
        "skipped": entry["rejected"],
        "seconds_mean": statistics.fmean(seconds) if seconds else None,
        "seconds_median": statistics.median(seconds) if seconds else None,
        "hours": sum(seconds) / 3600,
        "cost_usd": entry["cost_usd"],
    }


def _models_on(qids: set[str], scored: dict[str, list[ScoredAnswer]]) -> dict[str, dict[str, Any]]:
    """Each model's accuracy on the questions people answered (the fair comparison)."""
    out = {}
    for label, answers in scored.items():
        if is_human(label):
            continue
        same = [a for a in answers if a.item.qid in qids]
        if same:
            correct = sum(a.outcome == "correct" for a in same)
            out[label] = {"n": len(same), "of": len(qids), "accuracy": correct / len(same)}
    return out


def human_metrics(
    models: dict[str, Any], scored: dict[str, list[ScoredAnswer]], hourly_rate: float | None
) -> dict[str, Any] | None:
    """The ``humans`` section of metrics.json, or None when no person answered."""
    humans = {label: answers for label, answers in scored.items() if is_human(label)}
    if not humans:
        return None
    if hourly_rate is not None:
        apply_hourly_rate(models, scored, hourly_rate)
    qids = {a.item.qid for answers in humans.values() for a in answers}
    return {
        "hourly_rate": hourly_rate,
        "annotators": {h: _person(humans[h], models[h]) for h in sorted(humans)},
        "agreement": agreement(humans) if len(humans) >= 2 else None,
        "hard_items": hard_items(humans) if len(humans) >= 2 else [],
        "models_on_human_items": _models_on(qids, scored),
    }


def _f(value: float | None, digits: int = 3) -> str:
    return "–" if value is None else f"{value + 0.0:.{digits}f}"


def human_markdown(section: dict[str, Any]) -> str:
    """The report's "People" section."""
    rate = section["hourly_rate"]
    people = table_text(
        [
            "person",
            "n",
            "accuracy",
            "skipped",
            "s / question (median)",
            "s / question (mean)",
            "hours",
            "cost (USD)",
        ],
        [
            [
                p,
                e["n"],
                _f(e["accuracy"]),
                e["skipped"],
                _f(e["seconds_median"], 1),
                _f(e["seconds_mean"], 1),
                _f(e["hours"], 2),
                _f(e["cost_usd"], 2) if rate is not None else "–",
            ]
            for p, e in section["annotators"].items()
        ],
    )
    parts = [
        "## People",
        "",
        "People's answers (model `human:NAME`, from `figgen human`) are scored like any "
        "model's; a skipped question counts as a rejected answer. Their time per question "
        "is the time the question was on screen, and their cost is that time at "
        + (f"${rate:g} an hour." if rate is not None else "--hourly-rate (not given: 0).")
        + " A person answers a stratified sample, so compare them with the models on the "
        "same items (below), not with the models' rows over the whole set.",
        "",
        people,
        "",
    ]
    models = section["models_on_human_items"]
    if models:
        parts += [
            "### Models on the items people answered",
            "",
            table_text(
                ["model", "items", "of", "accuracy"],
                [[m, e["n"], e["of"], _f(e["accuracy"])] for m, e in models.items()],
            ),
            "",
        ]
    agreement_section = section["agreement"]
    if agreement_section is not None:
        named = [
            ("all choice questions", agreement_section["choices"]),
            ("all number questions", agreement_section["numbers"]),
            *agreement_section["by_family"].items(),
        ]
        choices = [
            [
                name,
                e["items"],
                _f(e["percent_agreement"]),
                _f(e["cohen_kappa"]),
                _f(e["fleiss_kappa"]),
            ]
            for name, e in named
            if e is not None and "percent_agreement" in e
        ]
        numbers = [
            [name, e["items"], _f(e["icc"]), _f(e["ssmape_between"], 4)]
            for name, e in named
            if e is not None and "ssmape_between" in e
        ]
        parts += [
            "### Agreement between people",
            "",
            f"{len(agreement_section['annotators'])} people, over the items two or more "
            "answered readably. Choices: the share of items where all gave the same "
            "answer, Cohen's kappa (averaged over pairs of people) and Fleiss' kappa (the "
            "items everyone answered, with three or more people). Numbers: ICC(2,1) (single "
            "values, the items everyone answered) and the mean |sSMAPE| between two "
            "people's values (0 identical, 2 the most apart). Text answers are not compared.",
            "",
        ]
        if choices:
            header = ["choice questions", "items", "all agree", "Cohen's kappa", "Fleiss' kappa"]
            parts += [table_text(header, choices), ""]
        if numbers:
            header = ["number questions", "items", "ICC", "|sSMAPE| between"]
            parts += [table_text(header, numbers), ""]
        hard = section["hard_items"]
        parts += ["### Items most people got wrong", ""]
        if hard:
            parts += [
                "Candidates for questions the figure does not answer: check each against "
                "its figure (`figgen view`).",
                "",
                table_text(
                    ["qid", "family", "wrong", "truth", "people's answers", "question"],
                    [
                        [
                            h["qid"],
                            h["family"],
                            f"{h['wrong']}/{h['answered']}",
                            _cell(h["answer"]),
                            _cell(h["answers"]),
                            _cell(h["question"]),
                        ]
                        for h in hard
                    ],
                ),
                "",
            ]
        else:
            parts += ["None: on every item answered by two or more people, most were right.", ""]
    return "\n".join(parts)


def _cell(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text.replace("|", "\\|").replace("\n", " ")
