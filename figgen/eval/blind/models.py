"""Blind baselines: models that answer from the question alone, fitted per family.

Each baseline learns from items of other figures (their questions and true answers) and
predicts an answer value for an item without looking at its figure:

- ``majority``: the family's most frequent answer (for continuous numbers, the median), or
  among the offered choices the one most often the answer;
- ``template``: the most frequent answer of the same masked question (locations, quoted
  strings, formulas and numbers masked, :func:`masked_question`), else ``majority``;
- ``text``: TF-IDF of the question text (word 1-2 grams) and a logistic regression to the
  answer class, restricted to the offered choices (scikit-learn), for answers with few
  classes (choices, counts, booleans); free text, lists and numbers as ``majority`` (one class
  per item: nothing to learn from the words);
- ``choice``: the offered choice most often right when it was offered (choice families only).

A baseline that a figure could game shows up as a score well above chance. Which answers are
continuous and which fall into few classes, each answer type declares
(:class:`figgen.schema.answer_types.AnswerTypeSpec`).
"""

from __future__ import annotations

import json
import statistics
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from figgen.errors import FiggenError
from figgen.eval.blind.mask import masked_question
from figgen.eval.scoring.scoring import METRICS
from figgen.schema.answer_types import answer_spec
from figgen.schema.qa_item import QAItem

BaselineName = Literal["majority", "template", "text", "choice"]
BASELINES: tuple[BaselineName, ...] = ("majority", "template", "text", "choice")

MAX_TEXT_CLASSES = 50
"""The text model learns at most this many answer classes per family (the most frequent ones,
each seen at least twice); rarer answers cannot be learnt from the question alone anyway."""


TextModel = Callable[[Sequence[QAItem]], list[Any]]
"""A fitted text model: the answer values of a batch of one family's items."""


def answer_class(item: QAItem, value: Any = None) -> str:
    """A canonical key of an answer value (sets sorted), so equal answers share a class."""
    value = item.answer if value is None else value
    if METRICS.get_or_fail(item.metric).unordered and isinstance(value, list):
        value = sorted(value, key=lambda v: json.dumps(v, sort_keys=True))
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _one_of_choices(item: QAItem) -> bool:
    """Whether the item's answer is one of the choices it offers (its type declares it)."""
    return answer_spec(item.answer_type).choices == "one"


def _fits(item: QAItem, value: Any) -> bool:
    """Whether ``value`` can answer ``item``: one of its offered choices where it picks one."""
    return not _one_of_choices(item) or not item.choices or value in item.choices


def _median(values: list[Any]) -> Any:
    if all(isinstance(v, list) for v in values):
        width = len(values[0])
        if all(len(v) == width for v in values):
            return [statistics.median(float(v[i]) for v in values) for i in range(width)]
        return values[0]
    return statistics.median(float(v) for v in values)


@dataclass
class _FamilyPrior:
    """What the constant guesses need: class counts, values and choice statistics."""

    counts: Counter[str] = field(default_factory=Counter)
    values: dict[str, Any] = field(default_factory=dict)
    offered: Counter[str] = field(default_factory=Counter)
    right: Counter[str] = field(default_factory=Counter)
    numbers: list[Any] = field(default_factory=list)

    def add(self, item: QAItem) -> None:
        key = answer_class(item)
        self.counts[key] += 1
        self.values.setdefault(key, item.answer)
        if answer_spec(item.answer_type).continuous:
            self.numbers.append(item.answer)
        for choice in item.choices or []:
            self.offered[choice] += 1
        if _one_of_choices(item) and isinstance(item.answer, str):
            self.right[item.answer] += 1

    def majority(self, item: QAItem) -> Any:
        if answer_spec(item.answer_type).continuous and self.numbers:
            return _median(self.numbers)
        return self.most_frequent(item, self.counts)

    def most_frequent(self, item: QAItem, counts: Counter[str]) -> Any:
        """The most frequent class that fits the item's offered choices (ties: by key)."""
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
        for key, _ in ranked:
            value = self.values[key]
            if _fits(item, value):
                return value
        if _one_of_choices(item) and item.choices:
            return min(item.choices, key=lambda c: (-self.right[c], c))
        return None

    def best_choice(self, item: QAItem) -> Any:
        if not _one_of_choices(item) or not item.choices:
            return None
        return min(
            item.choices,
            key=lambda c: (-self.right[c] / self.offered[c] if self.offered[c] else 0.0, c),
        )


class BlindBaseline:
    """One named baseline, fitted per family on items of figures it will not be asked about."""

    def __init__(self, name: BaselineName) -> None:
        if name not in BASELINES:
            raise FiggenError(
                f"unknown blind baseline {name!r}; use blind:{' or blind:'.join(BASELINES)}"
            )
        self.name = name
        self._priors: dict[str, _FamilyPrior] = defaultdict(_FamilyPrior)
        self._templates: dict[tuple[str, str], Counter[str]] = defaultdict(Counter)
        self._text: dict[str, TextModel] = {}

    def fit(self, items: Iterable[QAItem]) -> BlindBaseline:
        """Learn from ``items`` (their questions and answers); returns self."""
        by_family: dict[str, list[QAItem]] = defaultdict(list)
        for item in items:
            by_family[item.family].append(item)
            self._priors[item.family].add(item)
            if self.name == "template":
                self._templates[(item.family, masked_question(item))][answer_class(item)] += 1
        if self.name == "text":
            for family, group in by_family.items():
                if answer_spec(group[0].answer_type).few_classes:
                    self._text[family] = _text_model(group, self._priors[family])
        return self

    def predict(self, item: QAItem) -> Any:
        """The answer value this baseline gives ``item`` (None: it has nothing to say)."""
        return self.predict_all([item])[0]

    def predict_all(self, items: Sequence[QAItem]) -> list[Any]:
        """:meth:`predict` of each item (the text model reads each family's items at once)."""
        out: list[Any] = [None] * len(items)
        text_batches: dict[str, list[int]] = defaultdict(list)
        for position, item in enumerate(items):
            prior = self._priors.get(item.family)
            if prior is None:
                continue
            if self.name == "text" and item.family in self._text:
                text_batches[item.family].append(position)
            elif self.name == "choice":
                out[position] = prior.best_choice(item)
            else:
                out[position] = self._constant(item, prior)
        for family, positions in text_batches.items():
            guesses = self._text[family]([items[p] for p in positions])
            for position, guess in zip(positions, guesses, strict=True):
                out[position] = guess
        return out

    def _constant(self, item: QAItem, prior: _FamilyPrior) -> Any:
        if self.name == "template" and not answer_spec(item.answer_type).continuous:
            counts = self._templates.get((item.family, masked_question(item)))
            guess = prior.most_frequent(item, counts) if counts else None
            if guess is not None:
                return guess
        return prior.majority(item)


def _text_model(group: Sequence[QAItem], prior: _FamilyPrior) -> TextModel:
    """TF-IDF + logistic regression from question text to answer class, for one family."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import LogisticRegression

    frequent = {k for k, n in prior.counts.most_common(MAX_TEXT_CLASSES) if n >= 2}
    kept = [item for item in group if answer_class(item) in frequent]
    if len(frequent) < 2:
        return lambda items: [prior.majority(item) for item in items]
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
    features = vectorizer.fit_transform([item.question for item in kept])
    model = LogisticRegression(max_iter=1000)
    model.fit(features, [answer_class(item) for item in kept])
    classes = [str(c) for c in model.classes_]

    def predict(items: Sequence[QAItem]) -> list[Any]:
        probabilities = model.predict_proba(vectorizer.transform([i.question for i in items]))
        out = []
        for item, row in zip(items, probabilities, strict=True):
            ranked = sorted(zip(row, classes, strict=True), key=lambda pc: (-pc[0], pc[1]))
            fitting = (prior.values[k] for _, k in ranked if _fits(item, prior.values[k]))
            out.append(next(fitting, prior.majority(item)))
        return out

    return predict


def fit_baselines(
    items: Iterable[QAItem], names: Sequence[BaselineName] = BASELINES
) -> dict[BaselineName, BlindBaseline]:
    """Every named baseline fitted on the same ``items``."""
    pool = list(items)
    return {name: BlindBaseline(name).fit(pool) for name in names}
