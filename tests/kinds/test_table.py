"""Table panels: every cell, header and row label boxed with the text it prints."""

from __future__ import annotations

from figgen.config.load import FigureConfig
from figgen.render import render
from tests.kinds.figures import one_panel_spec


def test_table_cells_hold_the_printed_text():
    data = {
        "row_header": "year",
        "rows": ["2020", "2021"],
        "columns": ["GDP", "label"],
        "cells": [[1234.5, "North"], [-2.25, "South"]],
        "decimals": [1, 0],
    }
    out = render(one_panel_spec("table", data), FigureConfig())
    cells = {(e.series, e.item): e for e in out.elements if e.kind == "table_cell"}
    assert cells[(0, 0)].text == "1,234.5" and cells[(0, 1)].text == "-2.2"
    assert cells[(1, 1)].text == "South" and cells[(1, 1)].value is None
    assert cells[(0, 0)].value == [1234.5]
    headers = [e.text for e in out.elements if e.kind == "table_header"]
    rows = [e.text for e in out.elements if e.kind == "row_label"]
    assert headers == ["year", "GDP", "label"] and rows == ["2020", "2021"]
    # cells tile the table: in one row left to right, in one column top to bottom
    assert cells[(0, 0)].bbox[2] <= cells[(1, 0)].bbox[0] + 1
    assert cells[(0, 0)].bbox[3] <= cells[(0, 1)].bbox[1] + 1
