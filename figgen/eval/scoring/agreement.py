"""How far people agree with each other: kappa for choices, ICC and sSMAPE for numbers.

Only readable answers take part (a skipped or unreadable one has no value to agree on).
Choices: Cohen's kappa per pair of people over the items both answered (averaged over
pairs), and Fleiss' kappa over the items every one of three or more people answered.
Numbers: the intraclass correlation ICC(2,1) of Shrout and Fleiss (two-way random effects,
absolute agreement, one rater) over the items everyone answered, and the mean |sSMAPE|
between two people's values over every pair (0 is identical, 2 the most apart).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Hashable, Sequence

from figgen.eval.scoring.metrics import ssmape


def cohen_kappa(first: Sequence[Hashable], second: Sequence[Hashable]) -> float | None:
    """Cohen's kappa of two raters' labels on the same items; None when chance explains all."""
    if len(first) != len(second) or not first:
        raise ValueError("two equally long, non-empty label lists are needed")
    n = len(first)
    observed = sum(a == b for a, b in zip(first, second, strict=True)) / n
    left, right = Counter(first), Counter(second)
    expected = sum(left[label] * right[label] for label in left) / (n * n)
    if expected >= 1.0:  # both raters gave one and the same label throughout
        return None
    return (observed - expected) / (1.0 - expected)


def fleiss_kappa(ratings: Sequence[Sequence[Hashable]]) -> float | None:
    """Fleiss' kappa of items each labelled by the same number (>= 2) of raters."""
    if not ratings:
        raise ValueError("no items")
    raters = len(ratings[0])
    if raters < 2 or any(len(row) != raters for row in ratings):
        raise ValueError("every item needs the same number of raters, at least 2")
    n = len(ratings)
    totals: Counter[Hashable] = Counter()
    agreement = 0.0
    for row in ratings:
        counts = Counter(row)
        totals.update(counts)
        agreement += (sum(c * c for c in counts.values()) - raters) / (raters * (raters - 1))
    observed = agreement / n
    expected = sum((count / (n * raters)) ** 2 for count in totals.values())
    if expected >= 1.0:
        return None
    return (observed - expected) / (1.0 - expected)


def icc_2_1(matrix: Sequence[Sequence[float]]) -> float | None:
    """ICC(2,1): items in rows, raters in columns; None with fewer than 2 of either or no
    variance at all."""
    n = len(matrix)
    k = len(matrix[0]) if matrix else 0
    if n < 2 or k < 2 or any(len(row) != k for row in matrix):
        return None
    grand = sum(map(sum, matrix)) / (n * k)
    row_means = [sum(row) / k for row in matrix]
    col_means = [sum(row[j] for row in matrix) / n for j in range(k)]
    ss_rows = k * sum((m - grand) ** 2 for m in row_means)
    ss_cols = n * sum((m - grand) ** 2 for m in col_means)
    ss_total = sum((value - grand) ** 2 for row in matrix for value in row)
    ms_rows = ss_rows / (n - 1)
    ms_cols = ss_cols / (k - 1)
    ms_error = (ss_total - ss_rows - ss_cols) / ((n - 1) * (k - 1))
    denominator = ms_rows + (k - 1) * ms_error + k * (ms_cols - ms_error) / n
    if denominator <= 0:
        return None
    return (ms_rows - ms_error) / denominator


def values_ssmape(first: Sequence[float], second: Sequence[float]) -> float:
    """|sSMAPE| between two people's values: element by element, averaged; 2 when the
    lengths differ (they do not even agree on how many numbers there are)."""
    if len(first) != len(second):
        return 2.0
    if not first:
        return 0.0
    return sum(abs(ssmape(a, b)) for a, b in zip(first, second, strict=True)) / len(first)


def mean_pairwise_ssmape(values: Sequence[Sequence[Sequence[float]]]) -> float | None:
    """Mean |sSMAPE| over every pair of people on every item (``values[item][person]``)."""
    gaps = [values_ssmape(a, b) for item in values for a, b in itertools.combinations(item, 2)]
    return sum(gaps) / len(gaps) if gaps else None


def mean_pairwise_kappa(labels: dict[str, dict[str, Hashable]]) -> tuple[float | None, int]:
    """Cohen's kappa averaged over pairs of people (``labels[person][qid]``), over the items
    both answered, and the number of pairs with a defined kappa."""
    kappas = []
    for a, b in itertools.combinations(sorted(labels), 2):
        common = sorted(set(labels[a]) & set(labels[b]))
        if len(common) < 2:
            continue
        kappa = cohen_kappa([labels[a][q] for q in common], [labels[b][q] for q in common])
        if kappa is not None:
            kappas.append(kappa)
    return (sum(kappas) / len(kappas) if kappas else None), len(kappas)
