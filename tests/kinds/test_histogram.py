"""Histogram panels: bar counts over empty bins, count errors along the bars."""

from __future__ import annotations

import numpy as np
import pytest

from figgen.vqa import questions_for_record
from tests.vqa.records import (
    family,
    histogram_panel,
    make_record,
)

pytestmark = pytest.mark.usefixtures("unbalanced")  # rules, not balancing: see test_balance.py


def test_histogram_with_empty_bins_has_no_bar_count() -> None:
    rng = np.random.default_rng(1)
    panel = histogram_panel(rng, means=(0.0, 30.0), bins=40)
    assert 0 in panel["data"]["counts"]
    items = questions_for_record(make_record([panel], 1, 1))
    assert family(items, "n_bars") == []


def test_histogram_count_errors_lie_along_the_bars() -> None:
    rng = np.random.default_rng(0)
    vertical = histogram_panel(rng)
    horizontal = histogram_panel(rng, orientation="horizontal")
    plain = histogram_panel(rng)
    for panel in (vertical, horizontal):
        panel["data"]["errors"] = np.sqrt(panel["data"]["counts"]).tolist()
    plain["data"]["errors"] = None
    items = questions_for_record(make_record([vertical, horizontal, plain], 1, 3))
    assert [i.answer for i in family(items, "error_bars")] == ["y only", "x only", "none"]
    (_, horizontal_count, _) = family(items, "max_count")
    assert "read on the x axis" in horizontal_count.question
