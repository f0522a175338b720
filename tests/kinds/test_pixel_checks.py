"""Held-out pixel checks on LongChart figures: ink under every new-kind mark, OCR of the text.

Only the stored PNG and record are read (``benchmarks/audit_pixels.py``, which also runs these
checks over a whole build and prints rates per element kind). The figures come from the
``longchart`` preset narrowed to its four new kinds and 2-3 panels; seed 1's four figures
draw every new mark (box, median line, whisker, cap, outlier, cell, band, range bar, region),
printed cell values and region names.
"""

from __future__ import annotations

import os

import pytest

from benchmarks.audit_pixels import (
    MARK_KINDS,
    Tally,
    ink_tally,
    ocr_tally,
    tesseract_missing,
)
from figgen.config import config_from_dict, load_config
from figgen.generate import GeneratedFigure, generate_figure
from tests.kinds.figures import pixels_of

pytestmark = pytest.mark.slow

READ_KINDS = (
    "title",
    "xlabel",
    "ylabel",
    "xtick_label",
    "ytick_label",
    "cell_text",
    "region_label",
)
"""Titles, axis labels, tick labels, printed cell values and region names."""

READ_RATE = 0.95
"""Share of those texts tesseract must read back (measured on these figures: see below)."""


@pytest.fixture(scope="module")
def figures() -> list[GeneratedFigure]:
    base = load_config("longchart").model_dump(mode="json")
    narrowed = {
        **base,
        "kinds": {"box": 1.0, "range": 1.0, "heatmap": 1.0, "map": 1.0},
        "panels": {**base["panels"], "count": [2, 3]},
    }
    cfg = config_from_dict(narrowed)
    return [generate_figure(cfg, 1, index) for index in range(4)]


def test_ink_under_every_new_kind_mark(figures: list[GeneratedFigure]) -> None:
    tally = Tally()
    for figure in figures:
        tally.merge(ink_tally(figure.record, pixels_of(figure)))
    assert set(tally.checked) == set(MARK_KINDS), tally.checked
    assert tally.passed == tally.checked, tally.misses


def test_ocr_reads_the_text_boxes(figures: list[GeneratedFigure]) -> None:
    reason = tesseract_missing()
    if reason and os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: .ci/run installs it and CI must run this check")
    if reason:
        pytest.skip(reason)
    tally = Tally()
    for figure in figures:
        tally.merge(ocr_tally(figure.record, pixels_of(figure), READ_KINDS))
    assert set(tally.checked) == set(READ_KINDS), tally.checked
    assert tally.rate() >= READ_RATE, (tally.lines("ocr"), tally.misses)
