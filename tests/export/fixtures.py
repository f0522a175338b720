"""Hand-written records and question items for the export tests.

``hand_record`` follows the record schema for unit tests of the row builders; ``hand_items``
gives questions of every answer shape about any record (real ones included), used when the
build did not write ``qa.jsonl`` itself.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from figgen.schema.qa_item import QAItem

KINDS = ("line", "histogram", "scatter", "contour")
DATA: dict[str, dict[str, Any]] = {
    "line": {
        "series": [
            {
                "x": [1, 2, 3],
                "y": [2, 4, 6],
                "xerr": None,
                "yerr": None,
                "color": "#1f77b4",
                "label": None,
                "linestyle": "-",
            }
        ]
    },
    "histogram": {
        "samples": [1.0, 2.0, 2.5],
        "bin_edges": [0.0, 2.0, 4.0],
        "counts": [1, 2],
        "orientation": "vertical",
        "errors": None,
    },
    "scatter": {"x": [1, 2, 3], "y": [3, 1, 2], "c": None, "xerr": None, "yerr": None},
    "contour": {
        "x": [0.0, 1.0],
        "y": [0.0, 1.0],
        "z": [[0.0, 1.0], [1.0, 2.0]],
        "levels": [0.5, 1.5],
        "samples_x": None,
        "samples_y": None,
    },
}
"""Each kind's ``data`` as its kind stores it (every field, so a typed read writes it back)."""


def hand_record(index: int) -> dict[str, Any]:
    """A schema-shaped record with a few elements, some text, one null panel."""
    n_panels = 1 + index % 3
    width, height = 320 + 10 * index, 200
    panels = [
        {
            "index": p,
            "row": 0,
            "col": p,
            "kind": KINDS[(index + p) % 4],
            "distribution": "linear",
            "params": {"slope": 1.5 + p},
            "data": DATA[KINDS[(index + p) % 4]],
            "title": f"Panel {p} of $x^{p}$",
            "xlabel": "time",
            "ylabel": None,
            "xscale": "linear",
            "yscale": "linear",
            "style": {},
        }
        for p in range(n_panels)
    ]
    elements: list[dict[str, Any]] = [
        {"id": 0, "kind": "figure", "panel": None, "bbox": [0.0, 0.0, float(width), 200.0]}
    ]
    for p in range(n_panels):
        x0 = 10.0 + p * 100
        elements += [
            {"id": len(elements), "kind": "panel", "panel": p, "bbox": [x0, 30.0, x0 + 90, 180.0]},
            {
                "id": len(elements) + 1,
                "kind": "title",
                "panel": p,
                "bbox": [x0 + 5, 12.5, x0 + 80.25, 27.0],
                "text": f"Panel {p} of $x^{p}$",
            },
            {
                "id": len(elements) + 2,
                "kind": "point",
                "panel": p,
                "bbox": [x0 + 40, 90.0, x0 + 43.5, 93.5],
                "value": [1.0, 2.0],
                "item": 0,
            },
        ]
    return {
        "id": f"fig-{index:06d}",
        "seed": 7,
        "index": index,
        "attempt": 0,
        "generator": {"name": "figgen", "version": "0.1.0"},
        "image": {
            "file": f"figures/fig-{index:06d}.png",
            "width": width,
            "height": height,
            "dpi": 100,
            "width_in": width / 100,
            "height_in": 2.0,
            "panel_aspect": 1.0,
        },
        "layout": {"n_panels": n_panels, "rows": 1, "cols": n_panels, "arrangement": "horizontal"},
        "style": {},
        "panels": panels,
        "elements": elements,
        "repair": {"attempts": 0, "actions": []},
    }


def hand_items(record: dict[str, Any]) -> list[QAItem]:
    """Questions of every answer shape about one record."""
    fid = record["id"]
    n = record["layout"]["n_panels"]
    items = [
        QAItem(
            qid=f"{fid}-q0",
            figure_id=fid,
            level=1,
            scope="figure",
            panel=None,
            location=None,
            family="panel_count",
            question="How many panels does the figure have?",
            answer=n,
            answer_type="integer",
            answer_key="n_panels",
            metric="exact",
            evidence=[0],
        ),
        QAItem(
            qid=f"{fid}-q1",
            figure_id=fid,
            level=1,
            scope="panel",
            panel=0,
            location="leftmost panel",
            family="plot_type",
            question="What kind of plot is the leftmost panel?",
            answer=record["panels"][0]["kind"],
            answer_type="choice",
            answer_key="plot_type",
            metric="exact",
            choices=list(KINDS),
            evidence=[1],
        ),
        QAItem(
            qid=f"{fid}-q2",
            figure_id=fid,
            level=2,
            scope="panel",
            panel=0,
            location="leftmost panel",
            family="mean_y",
            question="What is the mean of the y values?",
            answer=2.5 + record["index"],
            answer_type="number",
            answer_key="mean_y",
            metric="ssmape",
        ),
        QAItem(
            qid=f"{fid}-q3",
            figure_id=fid,
            level=1,
            scope="figure",
            panel=None,
            location=None,
            family="titles",
            question="List the panel titles.",
            answer=[p["title"] for p in record["panels"] if p["title"]],
            answer_type="string_list",
            answer_key="titles",
            metric="cer_list",
        ),
    ]
    if n > 1:
        items.append(
            QAItem(
                qid=f"{fid}-q4",
                figure_id=fid,
                level=3,
                scope="cross-panel",
                panel=None,
                location=None,
                family="same_trend",
                question="Do the first two panels show the same trend?",
                answer=True,
                answer_type="boolean",
                answer_key="same_trend",
                metric="exact",
            )
        )
    return items


def write_hand_qa(root: Path) -> None:
    with (root / "qa.jsonl").open("w", encoding="utf-8") as out:
        for path in sorted((root / "figures").glob("*.json")):
            record = json.loads(path.read_text(encoding="utf-8"))
            for item in hand_items(record):
                out.write(json.dumps(item.to_dict()) + "\n")
