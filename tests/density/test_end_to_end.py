"""build -> run against a loopback OpenAI-compatible server -> score, with known distortions.

The server answers each compound with its ground-truth tables, distorted on purpose: every
single-chart compound has its values scaled by 1.1, the first 3-chart compound loses a chart
and the second has a series renamed. The expected metrics are computed here independently.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.density.manifest import DensityManifest, load_manifest
from figgen.errors import FiggenError
from figgen.schema.answers import read_answers
from tests.eval.fake_server import FakeServer, Request, Response, chat_reply

from .helpers import chart_folder

pytestmark = pytest.mark.e2e

pytest.importorskip("openai")
MODEL = "openai-compatible:fake-vl"


def invoke(*args: str) -> str:
    result = CliRunner().invoke(app, ["density", *args], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.output


def reply_for(manifest: DensityManifest, compound_id: str) -> str:
    compound = manifest.compound(compound_id)
    charts = []
    for i, sid in enumerate(compound.sources):
        rows = list(manifest.tables[sid].rows)
        if compound.density == 1:
            rows = [type(r)(r.series, r.x, repr(float(r.y) * 1.1)) for r in rows]
        if compound_id == "k3-0001" and i == 0:
            rows = [type(r)("zzz9" if r.series == "s1" else r.series, r.x, r.y) for r in rows]
        lines = "\n".join(f"| {r.series} | {r.x} | {r.y} |" for r in rows)
        charts.append(f"Chart {i + 1}\n| Series Name | X Value | Y Value |\n|---|---|---|\n{lines}")
    if compound_id == "k3-0000":
        charts = charts[:2]
    return "\n\n".join(charts)


def serve(manifest: DensityManifest, root: Path) -> FakeServer:
    by_image = {
        base64.b64encode((root / c.image).read_bytes()).decode(): c.id for c in manifest.compounds
    }

    def handler(request: Request, seen: int) -> Response:
        content = request.body["messages"][0]["content"]
        url = next(p["image_url"]["url"] for p in content if p["type"] == "image_url")
        compound_id = by_image[url.split(",", 1)[1]]
        return chat_reply(request.model, reply_for(manifest, compound_id), 1500, 400)

    return FakeServer(handler)


def expected_scaled_mae(manifest: DensityManifest) -> float:
    """Mean over single-chart compounds of 100 * mean(0.1 |y|) / (max y - min y)."""
    maes = []
    for compound in manifest.compounds:
        if compound.density == 1:
            y = np.array([float(r.y) for r in manifest.tables[compound.sources[0]].rows])
            maes.append(float(np.mean(100 * 0.1 * np.abs(y) / np.ptp(y))))
    return float(np.mean(maes))


def test_distortions_give_the_expected_rfv_car_and_mae(tmp_path: Path) -> None:
    charts = chart_folder(tmp_path / "charts", 6)
    bench = tmp_path / "bench"
    invoke("build", "--source", str(charts), "--out", str(bench), "--k", "1,3")
    manifest = load_manifest(bench)
    assert any(
        len(manifest.tables[s].series_names()) == 2
        for s in manifest.compound("k3-0001").sources[:1]
    )
    answers = tmp_path / "answers.jsonl"
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."fake-vl"]\ninput = 1.0\noutput = 2.0\n')
    with serve(manifest, bench) as server:
        args = [
            "run",
            "--prices",
            str(prices),
            "--data",
            str(bench),
            "--model",
            MODEL,
            "--base-url",
            server.base_url,
            "--out",
            str(answers),
            "--no-progress",
            "--retry-wait",
            "0.01",
        ]
        invoke(*args)
        assert len(server.requests) == 8
        assert "| Series Name | X Value | Y Value |" in json.dumps(server.requests[0].body)
        assert "skipped 8 already answered" in invoke(*args)  # resume asks nothing again
        assert len(server.requests) == 8
    rows = read_answers(answers)
    assert {r["qid"] for r in rows} == {c.id for c in manifest.compounds}
    assert all(r["usage"] == {"input_tokens": 1500, "output_tokens": 400} for r in rows)
    report = tmp_path / "report"
    printed = invoke("score", "--data", str(bench), "--answers", str(answers), "--out", str(report))
    assert f"{MODEL} k=3: RFV 0.500, EC clipped 0.500 (A.1 0.500)" in printed
    metrics = json.loads((report / "metrics.json").read_text())
    k1, k3 = (metrics["models"][MODEL]["by_density"][k] for k in ("1", "3"))
    assert (k1["rfv"], k1["car"], k1["pr"]) == (1, 1, 1)
    assert k1["mae"] == pytest.approx(expected_scaled_mae(manifest))
    assert (k3["rfv"], k3["car"], k3["aligned_charts"]) == (0.5, 0.5, 3)
    # each call bills 1500 input and 400 output tokens at $1 and $2 per million
    assert k3["cost_usd"] == pytest.approx(2 * (1500 * 1.0 + 400 * 2.0) / 1e6)
    assert k1["input_tokens"] == 6 * 1500
    overall = metrics["models"][MODEL]["overall"]  # 6 + 3 aligned charts, weighted alike
    assert overall["mae"] == pytest.approx(6 * k1["mae"] / 9) and overall["rfv"] == 7 / 8
    assert k3["mae"] == 0 and k3["point_coverage"] == 1  # the renamed series falls back to order
    renamed = [c for c in metrics["charts"] if c["compound"] == "k3-0001"]
    assert renamed[0]["series_mapping"] == "row_order"
    assert metrics["deltas"][MODEL]["mae"]["delta"] == pytest.approx(-k1["mae"])
    text = (report / "report.md").read_text()
    assert "Table S1" in text and "![" in text and (report / "paired_mae.png").is_file()
    # the rule, the tolerance and the headline EC are stated; the other rule is reported too
    assert "greedy nearest-neighbour rule of A.1" in text and "within 0.05 of each" in text
    assert "The headline EC is **EC clipped**" in text and "Under the Hungarian" in text
    assert metrics["other_matching"]["models"][MODEL]["3"]["mae"] == 0
    invoke(
        "score",
        "--data",
        str(bench),
        "--answers",
        str(answers),
        "--out",
        str(report),
        "--matching",
        "hungarian",
        "--x-tolerance",
        "0.02",
    )
    settings = json.loads((report / "metrics.json").read_text())["settings"]
    assert (settings["matching"], settings["x_tolerance"]) == ("hungarian", 0.02)


def test_max_cost_refuses_before_asking_and_a_bad_answer_is_recorded(tmp_path: Path) -> None:
    bench = tmp_path / "bench"
    invoke(
        "build",
        "--source",
        str(chart_folder(tmp_path / "charts", 3)),
        "--out",
        str(bench),
        "--k",
        "1",
    )
    prices = tmp_path / "prices.toml"
    prices.write_text('[models."fake-vl"]\ninput = 1000.0\noutput = 1000.0\n')
    result = CliRunner().invoke(
        app,
        [
            "density",
            "run",
            "--data",
            str(bench),
            "--model",
            MODEL,
            "--base-url",
            "http://127.0.0.1:9/v1",
            "--out",
            str(tmp_path / "a.jsonl"),
            "--prices",
            str(prices),
            "--max-cost",
            "0.01",
            "--no-progress",
        ],
    )
    assert isinstance(result.exception, FiggenError)
    assert "exceeds --max-cost" in str(result.exception)
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"k1-0000": "Sorry, I cannot read charts."}))
    out = tmp_path / "mock.jsonl"
    invoke(
        "run",
        "--data",
        str(bench),
        "--model",
        "mock:m",
        "--out",
        str(out),
        "--option",
        f"script={script}",
        "--no-progress",
    )
    rows = {r["qid"]: r for r in read_answers(out)}
    assert rows["k1-0000"]["rejected"] and rows["k1-0000"]["reason"] == "no_table"
    metrics = json.loads(
        (Path(invoke_score(bench, out, tmp_path / "rep")) / "metrics.json").read_text()
    )
    k1 = metrics["models"]["mock:m"]["by_density"]["1"]
    assert k1["format_failures"] == 3 and k1["rfv"] == 0  # unscripted replies are "{}"


def invoke_score(bench: Path, answers: Path, out: Path) -> Path:
    invoke("score", "--data", str(bench), "--answers", str(answers), "--out", str(out))
    return out
