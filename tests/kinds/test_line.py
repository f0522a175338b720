"""Line panels: which lines a question can name, error bars and log axes."""

from __future__ import annotations

import numpy as np
import pytest

from figgen.vqa import questions_for_record
from tests.vqa.records import (
    family,
    line_panel,
    make_record,
)

pytestmark = pytest.mark.usefixtures("unbalanced")  # rules, not balancing: see test_balance.py


def test_line_series_named_by_legend_when_colours_clash() -> None:
    rng = np.random.default_rng(2)
    # two blues a reader tells apart (navy and sky blue) share the colour word
    panel = line_panel(rng, colors=("#000080", "#56b4e9"), legend=True)
    items = questions_for_record(make_record([panel], 1, 1))
    means = family(items, "mean_y")
    assert 'the line labelled "series 0" in the legend' in means[0].question
    assert family(items, "line_colors") == []  # two blues: not askable
    panel["style"]["legend"] = False
    assert family(questions_for_record(make_record([panel], 1, 1)), "mean_y") == []


def test_error_bars_and_log_axes() -> None:
    rng = np.random.default_rng(2)
    panel = line_panel(rng, yerr=True)
    record = make_record([panel], 1, 1)
    record["panels"][0]["yscale"] = "log"
    items = questions_for_record(record)
    (bars,) = family(items, "error_bars")
    assert bars.answer == "y only"
    assert [i.answer for i in family(items, "axis_scale")] == ["linear", "logarithmic"]
