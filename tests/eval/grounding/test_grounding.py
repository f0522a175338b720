"""Grounded and pointed prompts end to end: evidence targets, the oracle, a loopback model."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.eval.grounding.evidence import evidence_target
from figgen.eval.grounding.grounding import with_mode
from figgen.eval.report.aggregate import score_rows
from figgen.eval.report.grounding import location_scores
from figgen.eval.run.dataset import load_dataset
from figgen.schema.answers import read_answers
from figgen.schema.qa_item import QAItem
from figgen.schema.record import Record
from tests.eval.fake_server import FakeServer, Request, Response, chat_reply, error, request_parts


def invoke(*args: str) -> str:
    result = CliRunner().invoke(app, ["eval", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def _item(evidence: list[int]) -> QAItem:
    return QAItem(
        "q",
        "fig-0",
        2,
        "panel",
        0,
        None,
        "mean_y",
        "?",
        1.0,
        "number",
        "mean_y",
        "ssmape",
        evidence=evidence,
    )


def test_evidence_regions_and_points_from_elements() -> None:
    stored: dict[str, Any] = {
        "id": "fig-000000",
        "image": {"file": "figures/fig-000000.png", "width": 200, "height": 100},
        "layout": {"n_panels": 1, "rows": 1, "cols": 1, "arrangement": "horizontal"},
        "panels": [],
        "elements": [
            {"id": 1, "kind": "panel", "panel": 0, "bbox": [10, 10, 110, 90]},
            {"id": 2, "kind": "title", "panel": 0, "bbox": [30, 0, 90, 8]},
            {"id": 3, "kind": "marker", "panel": 0, "series": 0, "bbox": [20, 50, 24, 54]},
            {"id": 4, "kind": "marker", "panel": 0, "series": 0, "bbox": [60, 30, 64, 34]},
            {"id": 5, "kind": "line", "panel": 0, "series": 0, "bbox": [21, 31, 63, 53]},
            {"id": 6, "kind": "marker", "panel": 0, "series": 1, "bbox": [40, 70, 44, 74]},
            {"id": 7, "kind": "xtick_label", "panel": 0, "bbox": [10, 92, 16, 99]},
            {"id": 8, "kind": "xtick_label", "panel": 0, "bbox": [100, 92, 106, 99]},
        ],
    }
    record = Record.from_dict(stored)
    series = evidence_target(record, _item([3, 4, 5]))
    assert series is not None
    assert series.boxes == ((20.0, 30.0, 64.0, 54.0),)  # the series' marks as one region
    assert series.points == ((22.0, 52.0), (62.0, 32.0))  # markers, not the line's centre
    mixed = evidence_target(record, _item([1, 2, 6, 7, 8]))
    assert mixed is not None
    assert set(mixed.boxes) == {
        (10.0, 10.0, 110.0, 90.0),
        (30.0, 0.0, 90.0, 8.0),
        (40.0, 70.0, 44.0, 74.0),
        (10.0, 92.0, 106.0, 99.0),  # the tick labels of one axis as one region
    }
    assert len(mixed.points) == 5
    line_only = evidence_target(record, _item([5]))
    assert line_only is not None and line_only.points == ()  # nothing to point at
    assert evidence_target(record, _item([])) is None
    half = series.in_image(100, 50)
    assert half.boxes == ((10.0, 15.0, 32.0, 27.0),) and half.points[0] == (11.0, 26.0)


def _run_all(data: Path, tmp: Path, model: str, *extra: str) -> list[Path]:
    files = []
    for mode in ("plain", "grounded", "pointed"):
        out = tmp / f"{mode}.jsonl"
        invoke(
            "run",
            "--data",
            str(data),
            "--model",
            model,
            "--out",
            str(out),
            "--prompt",
            mode,
            "--no-progress",
            *extra,
        )
        files.append(out)
    return files


@pytest.mark.slow
def test_oracle_locates_perfectly_on_real_renders(small_build: Path, tmp_path: Path) -> None:
    files = _run_all(small_build, tmp_path, "oracle")
    args = [a for f in files for a in ("--answers", str(f))]
    invoke("score", "--data", str(small_build), *args, "--out", str(tmp_path / "report"))
    metrics = json.loads((tmp_path / "report" / "metrics.json").read_text())
    runs = metrics["grounding"]["runs"]
    grounded, pointed = runs["oracle [grounded]"], runs["oracle [pointed]"]
    assert grounded["mean_diou"] == pytest.approx(1.0) and grounded["rejected"] == 0
    assert pointed["mean_chamfer"] == pytest.approx(0.0, abs=1e-12)
    assert grounded["located"] == grounded["replies"] > 50
    for run in (grounded, pointed):
        assert run["vs_plain"]["accuracy"] == 1.0 and run["vs_plain"]["change"] == 0.0
        assert run["vs_plain"]["paired"] == run["replies"]
    assert "## Grounding and pointing" in (tmp_path / "report" / "report.md").read_text()
    # a grounded run resumed into a plain answers file is refused
    result = CliRunner().invoke(
        app,
        ["eval", "run", "--data", str(small_build), "--model", "oracle"]
        + ["--out", str(files[0]), "--prompt", "grounded", "--no-progress"],
    )
    assert result.exit_code != 0 and "plain answers" in str(result.exception)


SHIFT_X = -4.0  # the fake model's boxes sit 4 px left of the evidence
POINT_SHIFT = (-3.0, -4.0)  # its points 5 px away


def test_loopback_model_with_known_offsets(small_build: Path, tmp_path: Path) -> None:
    """Boxes shifted by dx score (w-|dx|)/(w+|dx|) - dx^2/((w+|dx|)^2 + h^2); points shifted
    by 5 px score 2 * 5 / diagonal. Wide figures overflow the context first and are halved,
    so the offsets are in pixels of a smaller image than the stored one."""
    pytest.importorskip("openai")
    dataset = load_dataset(small_build)
    families = {"title", "xlabel", "plot_type"}  # one region and one point each
    items = [i for i in dataset.items if i.family in families]
    assert len(items) > 10
    records = {i.figure_id: dataset.record(i.figure_id) for i in items}
    size = {f: r.image.width for f, r in records.items() if r is not None}
    widths = sorted(size.values())
    assert len(set(widths + [round(w / 2) for w in widths])) == 2 * len(set(widths)) > 2
    wide = widths[len(widths) // 2]
    expected: dict[tuple[str, str], float] = {}
    asked: set[str] = set()  # prompt texts seen (the server's own count is per [qNNN] tag)

    def answer(request: Request, _: int) -> Response:
        text, _image = request_parts(request.body)
        seen = text in asked
        asked.add(text)
        assert request.image_size is not None
        width, height = request.image_size
        # questions repeat across figures ("the title of the top-left panel"); the image
        # size (full or halved; all distinct here) tells the figures apart
        item = next(
            i
            for i in items
            if i.question.strip() in text
            and width in (size[i.figure_id], round(size[i.figure_id] / 2))
        )
        if width >= wide and not seen:
            return error(
                400,
                "This model's maximum context length is 4096 tokens. However, you "
                "requested 9000 tokens.",
                "context_length_exceeded",
            )
        record = dataset.record(item.figure_id)
        assert record is not None
        target = evidence_target(record, item)
        assert target is not None
        truth = target.in_image(width, height)
        reply: dict[str, Any] = {item.answer_key: item.answer}
        if with_mode("", "grounded", width, height) in text:
            ((x0, y0, x1, y1),) = truth.boxes
            reply["boxes"] = [[x0 + SHIFT_X, y0, x1 + SHIFT_X, y1]]
            w, h, dx = x1 - x0, y1 - y0, abs(SHIFT_X)
            expected[(item.qid, "grounded")] = (w - dx) / (w + dx) - dx**2 / ((w + dx) ** 2 + h**2)
        elif with_mode("", "pointed", width, height) in text:
            ((x, y),) = truth.points
            reply["points"] = [[x + POINT_SHIFT[0], y + POINT_SHIFT[1]]]
            expected[(item.qid, "pointed")] = 2 * 5.0 / math.hypot(width, height)
        return chat_reply(request.model, json.dumps(reply), 100, 20)

    with FakeServer(answer) as server:
        _run_all(
            small_build,
            tmp_path,
            "openai-compatible:fake",
            "--families",
            ",".join(families),
            "--base-url",
            server.base_url,
            "--retry-wait",
            "0.01",
        )
    checked = 0
    for mode in ("grounded", "pointed"):
        rows = read_answers(tmp_path / f"{mode}.jsonl")
        assert any(r["image_scale"] < 1 for r in rows) and any(r["image_scale"] == 1 for r in rows)
        for answer_row, score in location_scores(dataset, score_rows(dataset, rows)):
            assert score.frame == "pixels"
            assert score.value == pytest.approx(expected[(answer_row.item.qid, mode)], abs=1e-9)
            assert answer_row.score is not None and answer_row.score.correct
            checked += 1
    assert checked == 2 * len(items)
