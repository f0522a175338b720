"""A tiny hand-written dataset (PIL images, records, QA rows) covering every answer type."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PIL import Image

from figgen.eval.run.run_options import RetryPolicy, RunOptions
from figgen.schema.qa_item import QAItem

KINDS = ["line", "histogram", "scatter", "contour"]

FIGURES: dict[str, dict[str, Any]] = {
    "fig-000000": {"size": (640, 480), "rows": 1, "cols": 1, "kinds": ["line"]},
    "fig-000001": {"size": (800, 400), "rows": 1, "cols": 2, "kinds": ["histogram", "scatter"]},
    "fig-000002": {
        "size": (900, 900),
        "rows": 2,
        "cols": 2,
        "kinds": ["contour", "line", "scatter", "histogram"],
    },
}


def _record(figure_id: str, spec: dict[str, Any]) -> dict[str, Any]:
    width, height = spec["size"]
    panels = [
        {
            "index": i,
            "row": i // spec["cols"],
            "col": i % spec["cols"],
            "kind": kind,
            "distribution": "linear",
            "params": {},
            "data": {},
            "title": None,
            "xlabel": None,
            "ylabel": None,
            "xscale": "linear",
            "yscale": "linear",
            "style": {},
        }
        for i, kind in enumerate(spec["kinds"])
    ]
    n = len(panels)
    return {
        "id": figure_id,
        "seed": 0,
        "index": int(figure_id.split("-")[1]),
        "generator": {"name": "figgen", "version": "test"},
        "image": {"file": f"figures/{figure_id}.png", "width": width, "height": height, "dpi": 100},
        "layout": {
            "n_panels": n,
            "rows": spec["rows"],
            "cols": spec["cols"],
            "arrangement": "horizontal" if spec["rows"] == 1 else "grid",
        },
        "panels": panels,
        "elements": [],
        "repair": {"attempts": 0, "actions": []},
    }


def _item(n: int, figure_id: str, **fields: Any) -> QAItem:
    base: dict[str, Any] = {
        "qid": f"q{n:03d}",
        "figure_id": figure_id,
        "level": 1,
        "scope": "figure",
        "panel": None,
        "location": None,
        "choices": None,
        "evidence": [],
    }
    base.update(fields)
    base["question"] = f"[{base['qid']}] {fields['question']}"
    return QAItem.from_dict(base)


def items() -> list[QAItem]:
    """Questions covering every answer type and metric, on the three figures."""
    rows = [
        (
            "fig-000000",
            dict(
                family="panel_count",
                question="How many panels?",
                answer=1,
                answer_type="integer",
                answer_key="n_panels",
                metric="exact",
            ),
        ),
        (
            "fig-000001",
            dict(
                family="panel_count",
                question="How many panels?",
                answer=2,
                answer_type="integer",
                answer_key="n_panels",
                metric="exact",
            ),
        ),
        (
            "fig-000002",
            dict(
                family="panel_count",
                question="How many panels?",
                answer=4,
                answer_type="integer",
                answer_key="n_panels",
                metric="exact",
            ),
        ),
        (
            "fig-000002",
            dict(
                family="layout",
                question="Rows and columns?",
                answer=[2, 2],
                answer_type="integer_pair",
                answer_key="layout",
                metric="exact",
            ),
        ),
        (
            "fig-000001",
            dict(
                family="plot_type",
                scope="panel",
                panel=0,
                question="What kind of plot is the left panel?",
                answer="histogram",
                answer_type="choice",
                answer_key="plot_type",
                metric="exact",
                choices=KINDS,
            ),
        ),
        (
            "fig-000002",
            dict(
                family="plot_types",
                question="Which plot kinds appear?",
                answer=["contour", "line", "scatter", "histogram"],
                answer_type="choice_list",
                answer_key="plot_types",
                metric="exact_set",
                choices=KINDS,
            ),
        ),
        (
            "fig-000001",
            dict(
                family="titles",
                question="List the panel titles.",
                answer=["Flux of $\\alpha_{1}$", "Energy"],
                answer_type="string_list",
                answer_key="titles",
                metric="cer_list",
            ),
        ),
        (
            "fig-000000",
            dict(
                family="xlabel",
                scope="panel",
                panel=0,
                question="What is the x label?",
                answer="time $t$ (s)",
                answer_type="string",
                answer_key="xlabel",
                metric="cer",
            ),
        ),
        (
            "fig-000000",
            dict(
                family="errorbars",
                scope="panel",
                panel=0,
                question="Are there error bars?",
                answer=True,
                answer_type="boolean",
                answer_key="errorbars",
                metric="exact",
            ),
        ),
        (
            "fig-000001",
            dict(
                family="n_bars",
                scope="panel",
                panel=0,
                question="How many bars?",
                answer=12,
                answer_type="integer",
                answer_key="n_bars",
                metric="exact",
            ),
        ),
        (
            "fig-000002",
            dict(
                family="xtick_values",
                scope="panel",
                panel=1,
                question="Which x tick values are shown?",
                answer=[0, 0.5, 1.0],
                answer_type="number_list",
                answer_key="ticks",
                metric="exact_set",
            ),
        ),
        (
            "fig-000001",
            dict(
                family="mean_y",
                level=2,
                scope="panel",
                panel=1,
                question="Mean y of the points?",
                answer=12.5,
                answer_type="number",
                answer_key="mean_y",
                metric="ssmape",
            ),
        ),
        (
            "fig-000002",
            dict(
                family="mean_y",
                level=2,
                scope="panel",
                panel=0,
                question="Mean y of the contour data?",
                answer=-3.0e-4,
                answer_type="number",
                answer_key="mean_y",
                metric="ssmape",
            ),
        ),
        (
            "fig-000002",
            dict(
                family="x_range",
                level=2,
                scope="panel",
                panel=2,
                question="Range of x?",
                answer=[-10.0, 250.0],
                answer_type="number_pair",
                answer_key="x_range",
                metric="relaxed_5pct",
            ),
        ),
        (
            "fig-000000",
            dict(
                family="max_y",
                level=2,
                scope="panel",
                panel=0,
                question="Largest y?",
                answer=1234.5,
                answer_type="number",
                answer_key="max_y",
                metric="relaxed_5pct",
            ),
        ),
        (
            "fig-000000",
            dict(
                family="linear",
                level=3,
                scope="panel",
                panel=0,
                question="Is the relation linear?",
                answer=False,
                answer_type="boolean",
                answer_key="linear",
                metric="exact",
            ),
        ),
    ]
    return [_item(n, figure_id, **fields) for n, (figure_id, fields) in enumerate(rows)]


def make_dataset(root: Path) -> Path:
    """Write manifest, figures (PNG + record) and qa.jsonl under ``root``."""
    (root / "figures").mkdir(parents=True)
    for i, (figure_id, spec) in enumerate(FIGURES.items()):
        Image.new("RGB", spec["size"], (40 * i, 120, 200)).save(
            root / "figures" / f"{figure_id}.png"
        )
        record = _record(figure_id, spec)
        (root / "figures" / f"{figure_id}.json").write_text(json.dumps(record), encoding="utf-8")
    with (root / "qa.jsonl").open("w", encoding="utf-8") as handle:
        for item in items():
            handle.write(json.dumps(item.to_dict()) + "\n")
    (root / "manifest.json").write_text(json.dumps({"n_figures": len(FIGURES)}), encoding="utf-8")
    return root


def score_panel_counts(tmp_path: Path, data: Path, estimates: dict[str, Any]) -> Path:
    """``figgen eval score`` of one mock model's ``n_panels`` replies ``{qid: value}`` to the
    dataset ``data``; the report folder."""
    from typer.testing import CliRunner

    from figgen._cli.main import app

    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(
            json.dumps({"qid": q, "model": "mock:m", "raw": json.dumps({"n_panels": v})}) + "\n"
            for q, v in estimates.items()
        )
    )
    out = tmp_path / "report"
    result = CliRunner().invoke(
        app,
        ["eval", "score", "--data", str(data), "--answers", str(answers), "--out", str(out)],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    return out


def assert_perfect_family(entry: dict[str, Any], family: str) -> None:
    """A family entry of metrics.json that an oracle run must produce: nothing wrong."""
    assert entry["accuracy"] == entry["accuracy_answered"] == 1.0, family
    assert entry["rejected"] == entry["errors"] == 0 and entry["rejection_rate"] == 0.0, family
    if entry["metric"] == "ssmape":
        assert entry["ssmape_abs"] == entry["ssmape_bias"] == 0.0, family
    if entry["metric"] in ("cer", "cer_list"):
        assert entry["cer"] == entry["cer_normalized"] == 0.0, family


def offline_options(model: str, out: Path, policy: RetryPolicy, concurrency: int = 4) -> RunOptions:
    """Run options for an offline provider in a test: nothing billed, no progress bar."""
    return RunOptions(model, out, policy=policy, progress=False, free=True, concurrency=concurrency)
