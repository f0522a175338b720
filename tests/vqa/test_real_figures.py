"""End to end on a few small real figures: generator record -> items -> independent checks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from figgen.config.load import FigureConfig
from figgen.kinds.histogram import HistogramData
from figgen.kinds.scatter import ScatterData
from figgen.schema.record import Record
from figgen.vqa import describe_record, parse_location, questions_for_record, write_qa

# seed 7: index 1 is a 1x3 strip (contour, line, contour), 10 a single line plot, 14 a scatter
# plot, 0 a histogram
FIGURES = (1, 10, 14, 0)

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def records() -> list[Record]:
    from figgen.build.figure import generate_figure

    return [generate_figure(FigureConfig(), 7, i).record for i in FIGURES]


def test_answers_match_the_record(records: list[Record]) -> None:
    for record in records:
        items = questions_for_record(record)
        rows, cols = record.layout.rows, record.layout.cols
        assert {i.level for i in items} == {1, 2, 3} or len(record.panels) == 1
        for item in items:
            panel = record.panel(item.panel) if item.panel is not None else None
            if panel is not None:
                assert parse_location(item.location or "", rows, cols) == (panel.row, panel.col)
            if item.family == "panel_count":
                assert item.answer == len(record.panels)
            elif item.family == "plot_type":
                assert panel is not None and item.answer == panel.kind
            elif item.family == "hist_mean":
                assert panel is not None
                samples = np.asarray(panel.data_as(HistogramData).samples)
                assert item.answer == pytest.approx(samples.sum() / samples.size, rel=1e-5)
            elif item.family == "mean_y" and panel is not None and panel.kind == "scatter":
                y = panel.data_as(ScatterData).y
                assert item.answer == pytest.approx(np.mean(y), rel=1e-5)
            elif item.family == "tick_values":
                kind = "xtick_label" if item.answer_key == "x_ticks" else "ytick_label"
                mine = [e for e in record.elements if e.panel == item.panel]
                texts = [e.text for e in mine if e.kind == kind]
                assert len(item.answer) == len(set(texts))


def test_descriptions_and_files(records: list[Record], tmp_path: Path) -> None:
    (tmp_path / "figures").mkdir()
    for record in records:
        rows = describe_record(record)
        assert len(rows) == 3 * (1 + len(record.panels))
        (tmp_path / "figures" / f"{record.id}.json").write_text(record.to_json())
    counts = write_qa(tmp_path)
    assert counts["figures"] == len(records)
    assert counts["total"] == sum(len(questions_for_record(r)) for r in records)
