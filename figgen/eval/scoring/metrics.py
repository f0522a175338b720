"""Per-answer metrics: CER (single strings and aligned lists), sSMAPE, exact and relaxed accuracy.

Also the containment regions used to summarise estimate-vs-truth distributions.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from functools import lru_cache
from typing import Any

import numpy as np

RELAXED_TOLERANCE = 0.05


# ---- text ----------------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _latex_converter() -> Any:
    from pylatexenc.latex2text import LatexNodes2Text

    return LatexNodes2Text(math_mode="text", strict_latex_spaces=False)


@lru_cache(maxsize=4096)
def normalize_text(text: str) -> str:
    """Plain text of a string that may hold LaTeX ("$\\alpha^{2}$ flux" -> "α^2 flux").

    Applied to both the reference and the prediction, so ``$x_{i}$`` and ``x_i`` compare
    equal; whitespace is collapsed. Case is kept: CER counts case errors.
    """
    # an unescaped % starts a LaTeX comment and would swallow the rest of the text
    escaped = re.sub(r"(?<!\\)%", r"\\%", text)
    try:
        plain = _latex_converter().latex_to_text(escaped)
    except Exception:  # pylatexenc raises assorted errors on malformed input; keep the raw text
        plain = text
    return " ".join(plain.split())


@lru_cache(maxsize=1)
def _distance() -> Any:
    from rapidfuzz.distance import Levenshtein

    return Levenshtein.distance


@lru_cache(maxsize=1)
def _assignment_tools() -> tuple[Any, Any]:
    from rapidfuzz.process import cdist
    from scipy.optimize import linear_sum_assignment

    return cdist, linear_sum_assignment


def levenshtein(a: str, b: str) -> int:
    return int(_distance()(a, b))


def cer(reference: str | None, prediction: str | None, *, normalize: bool = False) -> float:
    """Character error rate: edit distance over the reference length.

    The strings are compared as they are, as the core paper does (CER is sensitive to
    symbolic notation, and that is part of what it measures); ``normalize`` compares their
    LaTeX-to-Unicode plain text instead. An empty reference gives 0.0 for an empty
    prediction and 1.0 otherwise (a raw insertion count would be unbounded).
    """
    ref = reference or ""
    hyp = prediction or ""
    if normalize:
        ref, hyp = normalize_text(ref), normalize_text(hyp)
    if not ref:
        return 0.0 if not hyp else 1.0
    return levenshtein(ref, hyp) / len(ref)


def align_lists(
    references: Sequence[str], predictions: Sequence[str]
) -> tuple[list[tuple[int, int]], list[int], list[int]]:
    """Pair references with predictions to minimise the total edit distance.

    Returns the matched ``(ref_index, pred_index)`` pairs, the unmatched reference indices and
    the unmatched prediction indices. Leaving an entry unmatched costs its full length.
    """
    n_ref, n_hyp = len(references), len(predictions)
    size = n_ref + n_hyp
    if size == 0:
        return [], [], []
    if n_ref == n_hyp == 1:  # one pair: matching costs at most the two lengths, never more
        return [(0, 0)], [], []
    cdist, linear_sum_assignment = _assignment_tools()

    # square matrix: real pairs, plus a dummy partner for each entry that costs its length
    forbidden = 1.0 + sum(map(len, references)) + sum(map(len, predictions))
    cost = np.zeros((size, size))
    if n_ref and n_hyp:
        cost[:n_ref, :n_hyp] = cdist(references, predictions, scorer=_distance())
    for i, ref in enumerate(references):
        cost[i, n_hyp:] = forbidden
        cost[i, n_hyp + i] = len(ref)
    for j, hyp in enumerate(predictions):
        cost[n_ref:, j] = forbidden
        cost[n_ref + j, j] = len(hyp)
    rows, cols = linear_sum_assignment(cost)
    matched = [(int(r), int(c)) for r, c in zip(rows, cols, strict=True) if r < n_ref and c < n_hyp]
    unmatched_refs = [int(r) for r, c in zip(rows, cols, strict=True) if r < n_ref and c >= n_hyp]
    unmatched_preds = [int(c) for r, c in zip(rows, cols, strict=True) if r >= n_ref and c < n_hyp]
    return matched, unmatched_refs, unmatched_preds


def cer_list(
    references: Sequence[str | None], predictions: Sequence[str | None], *, normalize: bool = False
) -> float:
    """CER of two lists aligned by minimum total edit distance (Hungarian assignment).

    Total edits (matched pairs' distances plus the full length of every unmatched entry on
    either side) over the total reference length. Empty references are guarded and
    ``normalize`` applies as in ``cer``.
    """
    refs = [r or "" for r in references]
    hyps = [h or "" for h in predictions]
    if normalize:
        refs = [normalize_text(r) for r in refs]
        hyps = [normalize_text(h) for h in hyps]
    matched, lone_refs, lone_hyps = align_lists(refs, hyps)
    edits = sum(levenshtein(refs[i], hyps[j]) for i, j in matched)
    edits += sum(len(refs[i]) for i in lone_refs) + sum(len(hyps[j]) for j in lone_hyps)
    total = sum(len(r) for r in refs)
    if total == 0:
        return 0.0 if edits == 0 else 1.0
    return edits / total


# ---- numbers -------------------------------------------------------------------------------


def ssmape(prediction: float, truth: float) -> float:
    """Signed SMAPE 2(pred - gt)/(|pred| + |gt|), in [-2, 2]; 0 when both are 0."""
    denominator = abs(prediction) + abs(truth)
    if denominator == 0:
        return 0.0
    return 2.0 * (prediction - truth) / denominator


def relaxed_match(prediction: float, truth: float, tolerance: float = RELAXED_TOLERANCE) -> bool:
    """|pred - gt| <= tolerance * |gt| (exact equality when gt is 0)."""
    return abs(prediction - truth) <= tolerance * abs(truth) + 1e-12


def _normal(value: Any) -> Any:
    if isinstance(value, str):
        return " ".join(value.split()).casefold()
    if isinstance(value, bool):
        return value
    if isinstance(value, int | float):
        return round(float(value), 9)
    if isinstance(value, list | tuple):
        return [_normal(v) for v in value]
    return value


def exact_match(prediction: Any, truth: Any) -> bool:
    """Equality after normalisation: case- and space-insensitive strings, ints == floats."""
    if type(prediction) is type(truth) and isinstance(truth, str | int) and prediction == truth:
        return True  # identical scalars need no normalising (bool is excluded: True == 1)
    return bool(_normal(prediction) == _normal(truth))


def _hashable(value: Any) -> Any:
    normal = _normal(value)
    return repr(normal) if isinstance(normal, list) else (type(normal) is bool, normal)


def _plain_numbers(values: Sequence[Any]) -> bool:
    return all(type(v) is int or type(v) is float for v in values)


def exact_set_match(prediction: Sequence[Any], truth: Sequence[Any]) -> bool:
    """The same multiset of values, order irrelevant."""
    if len(prediction) != len(truth):
        return False
    if _plain_numbers(prediction) and _plain_numbers(truth):  # tick values: the common case
        return sorted(round(float(v), 9) for v in prediction) == sorted(
            round(float(v), 9) for v in truth
        )
    return Counter(map(_hashable, prediction)) == Counter(map(_hashable, truth))


# ---- distributions -------------------------------------------------------------------------


def containment_region(
    truths: Sequence[float], estimates: Sequence[float], level: float = 0.9
) -> dict[float, tuple[float, float]]:
    """For each true value, the central interval holding ``level`` of the estimates.

    Bounds are the ``(1 - level) / 2`` and ``(1 + level) / 2`` quantiles (linear interpolation).
    """
    groups: dict[float, list[float]] = {}
    for truth, estimate in zip(truths, estimates, strict=True):
        groups.setdefault(truth, []).append(estimate)
    low_q, high_q = (1 - level) / 2, (1 + level) / 2
    return {
        truth: (float(np.quantile(values, low_q)), float(np.quantile(values, high_q)))
        for truth, values in sorted(groups.items())
    }
