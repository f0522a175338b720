"""Contour panels: means from the samples, questions that follow what is drawn."""

from __future__ import annotations

import numpy as np
import pytest

from figgen.vqa import questions_for_record
from tests.vqa.records import (
    contour_panel,
    family,
    make_record,
)

pytestmark = pytest.mark.usefixtures("unbalanced")  # rules, not balancing: see test_balance.py


def test_contour_mean_uses_samples_when_there_are_some() -> None:
    rng = np.random.default_rng(0)
    panel = contour_panel(rng)
    panel["data"]["samples_x"] = [0.0, 1.0, 2.0]
    panel["data"]["samples_y"] = [1.0, 2.0, 6.0]
    items = questions_for_record(make_record([panel], 1, 1))
    (mean,) = family(items, "mean_y")
    assert mean.answer == 3.0 and "points whose density" in mean.question


def test_contour_questions_follow_what_is_drawn() -> None:
    rng = np.random.default_rng(0)
    lines = contour_panel(rng, style="lines")
    plain = contour_panel(rng, style="image", colorbar=None)
    items = questions_for_record(make_record([lines, plain], 1, 2))
    # contour lines alone do not show a colormap; without a colour bar no z values are asked
    assert [i.panel for i in family(items, "colormap")] == [1]
    assert family(items, "max_z") == [] and family(items, "min_z") == []
    assert [i.answer for i in family(items, "contour_style")] == ["lines", "image"]
    plane = contour_panel(rng)
    plane["distribution"] = "linear"
    assert family(questions_for_record(make_record([plane], 1, 1)), "mean_y") == []
