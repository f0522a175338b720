"""Held-out pixel checks on LongChart figures: ink under every new-kind mark, OCR of the text.

Only the stored PNG and record are read (``benchmarks/audit_pixels.py``, which also runs these
checks over a whole build and prints rates per element kind). The figures come from the
``longchart`` preset narrowed to its four new kinds and 2-3 panels; seed 1's four figures
draw every new mark (box, median line, whisker, cap, outlier, cell, band, range bar, region),
printed cell values and region names; one figure of six tables alone (seed 1, figure 1: 174
headers, row labels and cells, crowded enough that main's fixed-size text read 89%) is read
back too.
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
from figgen.build.figure import GeneratedFigure, generate_figure
from figgen.config.load import FigureConfig, config_from_dict, load_config
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


TABLE_KINDS = ("table_header", "row_label", "table_cell")


def _narrowed(kinds: dict[str, float], panels: list[int]) -> FigureConfig:
    """The longchart preset with only ``kinds`` and ``panels`` (a count range) a figure."""
    base = load_config("longchart").model_dump(mode="json")
    return config_from_dict({**base, "kinds": kinds, "panels": {**base["panels"], "count": panels}})


@pytest.fixture(scope="module")
def figures() -> list[GeneratedFigure]:
    cfg = _narrowed({"box": 1.0, "range": 1.0, "heatmap": 1.0, "map": 1.0}, [2, 3])
    return [generate_figure(cfg, 1, index) for index in range(4)]


def test_ink_under_every_new_kind_mark(figures: list[GeneratedFigure]) -> None:
    tally = Tally()
    for figure in figures:
        tally.merge(ink_tally(figure.record.to_dict(), pixels_of(figure)))
    assert set(tally.checked) == set(MARK_KINDS), tally.checked
    assert tally.passed == tally.checked, tally.misses


def _need_tesseract() -> None:
    reason = tesseract_missing()
    if reason and os.environ.get("CI") == "true":
        pytest.fail(f"{reason}: .ci/run installs it and CI must run this check")
    if reason:
        pytest.skip(reason)


@pytest.mark.ocr
def test_ocr_reads_the_text_boxes(figures: list[GeneratedFigure]) -> None:
    _need_tesseract()
    tally = Tally()
    for figure in figures:
        tally.merge(ocr_tally(figure.record.to_dict(), pixels_of(figure), READ_KINDS))
    assert set(tally.checked) == set(READ_KINDS), tally.checked
    assert tally.rate() >= READ_RATE, (tally.lines("ocr"), tally.misses)


@pytest.mark.ocr
def test_ocr_reads_every_table_text() -> None:
    """Each header, row label and cell prints inside its cell, so its box's crop reads back."""
    _need_tesseract()
    figure = generate_figure(_narrowed({"table": 1.0}, [6, 6]), 1, 1)
    tally = ocr_tally(figure.record.to_dict(), pixels_of(figure), TABLE_KINDS)
    assert set(tally.checked) == set(TABLE_KINDS), tally.checked
    assert tally.rate() >= READ_RATE, (tally.lines("ocr"), tally.misses)
