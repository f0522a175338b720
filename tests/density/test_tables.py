"""Ground-truth tables from figgen line records and from PNG + CSV folders."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from figgen.density.tables import load_sources, read_csv_table
from figgen.errors import FiggenError
from figgen.kinds.bar import bar_panel_table
from figgen.kinds.line import line_table
from figgen.schema.panel import PanelRecord

from .helpers import chart_folder


def _panel(kind: str, data: dict[str, Any], style: dict[str, Any] | None = None) -> PanelRecord:
    stored = {"index": 0, "row": 0, "col": 0, "kind": kind, "data": data}
    return PanelRecord.from_dict({**stored, "style": style or {}})


def test_line_table_is_the_marker_points() -> None:
    data = {"series": [{"label": "a", "x": [1.0, 2.5], "y": [3.0, -4.25]}]}
    table = line_table(_panel("line", data, {"marker": "o"}))
    assert table is not None and table.x_kind == "numeric"
    assert [(r.series, r.x, r.y) for r in table.rows] == [("a", "1", "3"), ("a", "2.5", "-4.25")]
    assert line_table(_panel("line", data, {"marker": None})) is None  # no visible points


def test_csv_reads_any_column_order_and_infers_the_x_kind(tmp_path: Path) -> None:
    path = tmp_path / "t.csv"
    path.write_text("Y,Series,X,note\n1.5,a,Mon,x\n2,a,Tue,\n", encoding="utf-8")
    table = read_csv_table(path)
    assert table.x_kind == "categorical" and table.rows[1].y == "2"
    path.write_text("series,x,y\na,1,2\na,2,3\n", encoding="utf-8")
    assert read_csv_table(path).x_kind == "numeric"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name,x,y\na,1,2\n", "has no column series"),
        ("series,x\na,1\n", "has no column y"),
        ("series,x,y\na,1,high\n", "line 2: y 'high' is not a number"),
        ("series,x,y\na,,2\n", "line 2 has an empty x"),
        ("series,x,y\n", "holds no data rows"),
    ],
)
def test_bad_csv_is_one_line_naming_the_fix(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.csv"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FiggenError, match=message) as caught:
        read_csv_table(path)
    assert "\n" not in str(caught.value)


def test_folder_sources_need_a_csv_per_png(tmp_path: Path) -> None:
    folder = chart_folder(tmp_path / "charts", 3)
    assert [s.id for s in load_sources(folder)] == ["c00", "c01", "c02"]
    (folder / "c01.csv").unlink()
    with pytest.raises(FiggenError, match="c01.png has no table c01.csv"):
        load_sources(folder)
    with pytest.raises(FiggenError, match="is not a folder"):
        load_sources(tmp_path / "nowhere")


def test_bar_table_is_one_row_per_bar() -> None:
    data = {
        "categories": ["Mon", "Tue"],
        "series": [
            {"label": "a", "color": "#000000", "values": [1.0, 2.0]},
            {"label": "b", "color": "#ff0000", "values": [3.5, 4.0]},
        ],
        "mode": "grouped",
        "orientation": "vertical",
    }
    table = bar_panel_table(_panel("bar", data))
    assert table.x_kind == "categorical"
    assert [(r.series, r.x, r.y) for r in table.rows] == [
        ("a", "Mon", "1"),
        ("a", "Tue", "2"),
        ("b", "Mon", "3.5"),
        ("b", "Tue", "4"),
    ]


def _record(figure_id: str, panels: list[dict[str, Any]]) -> str:
    layout = {"n_panels": len(panels), "rows": 1, "cols": len(panels), "arrangement": "grid"}
    image = {"file": f"{figure_id}.png", "width": 100, "height": 100}
    cells = [{"row": 0, "col": panel["index"], **panel} for panel in panels]
    return json.dumps({"id": figure_id, "layout": layout, "image": image, "panels": cells})


def test_panels_that_are_not_source_charts_are_counted_by_reason(tmp_path: Path) -> None:
    series = {"series": [{"label": "a", "x": [1.0, 2.0], "y": [3.0, 4.0]}]}
    line = {"kind": "line", "data": series}
    (tmp_path / "figures").mkdir()
    (tmp_path / "figures" / "f1.json").write_text(
        _record(
            "f1",
            [
                {**line, "index": 0, "style": {"marker": "o"}},
                {**line, "index": 1, "style": {"marker": None}},
                {"kind": "scatter", "index": 2, "style": {}, "data": {}},
            ],
        )
    )
    (tmp_path / "figures" / "f2.json").write_text(
        _record("f2", [{**line, "index": 0, "style": {}}])
    )
    skipped: dict[str, int] = {}
    assert [s.id for s in load_sources(tmp_path, skipped)] == ["f1-p0"]
    assert skipped == {
        "line panels without markers (their data points are not visible)": 2,
        "scatter panels (only line and bar charts have a table)": 1,
    }
