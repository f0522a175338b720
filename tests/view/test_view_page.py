"""The viewer's page data, without a browser: what it holds, and how bad input is refused."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from figgen.errors import FiggenError
from figgen.view import render_page, view_payload, write_view
from tests.export.conftest import read_qa
from tests.view.answers import half_wrong, oracle, write_answers

_PAYLOAD = re.compile(r'<script type="application/json" id="payload">(.*?)</script>', re.DOTALL)


def _page_data(page: str) -> dict:
    (block,) = _PAYLOAD.findall(page)
    return json.loads(block)


def test_page_holds_every_figure_element_and_question(built: Path, tmp_path: Path) -> None:
    out = write_view(built, tmp_path / "site" / "view.html")
    data = _page_data(out.read_text(encoding="utf-8"))
    records = sorted((built / "figures").glob("*.json"))
    assert [f["id"] for f in data["figures"]] == [p.stem for p in records]
    qa = read_qa(built)
    for figure, path in zip(data["figures"], records, strict=True):
        record = json.loads(path.read_text())
        assert figure["elements"] == record["elements"]
        assert (figure["width"], figure["height"]) == (
            record["image"]["width"],
            record["image"]["height"],
        )
        # the image URL is relative to the page and names the build's own PNG
        assert (out.parent / figure["image"]).resolve() == (
            built / record["image"]["file"]
        ).resolve()
        assert [q["qid"] for q in figure["questions"]] == [
            i["qid"] for i in qa if i["figure_id"] == figure["id"]
        ]
        assert all("data" not in panel for panel in figure["panels"])  # no samples in the page


def test_answers_are_scored_as_eval_score_does(built: Path, tmp_path: Path) -> None:
    from figgen.eval.run.dataset import load_dataset
    from figgen.eval.scoring.parse import parse_reply
    from figgen.eval.scoring.scoring import score_answer

    items = read_qa(built)
    right = write_answers(tmp_path / "oracle.jsonl", "oracle", items, oracle)
    mixed = write_answers(tmp_path / "mixed.jsonl", "mixed", items, half_wrong)
    data = view_payload(built, str, answers=[right, mixed])
    assert set(data["models"]) == {"oracle", "mixed"}
    assert all(a["correct"] and not a["rejected"] for a in data["models"]["oracle"].values())
    by_qid = {item.qid: item for item in load_dataset(built).items}
    for qid, answer in data["models"]["mixed"].items():
        expected = score_answer(by_qid[qid], parse_reply(answer["raw"], by_qid[qid]))
        assert (answer["rejected"], answer["correct"]) == (expected.rejected, expected.correct)
    assert any(a["rejected"] for a in data["models"]["mixed"].values())


def test_page_text_cannot_close_its_script_block() -> None:
    page = render_page(
        {
            "name": "x<y",
            "colours": {},
            "figures": [],
            "models": {
                "m": {"q": {"raw": "</script><script>alert(1)</script>", "value": float("nan")}}
            },
        }
    )
    data = _page_data(page)
    assert data["models"]["m"]["q"]["raw"] == "</script><script>alert(1)</script>"
    assert data["models"]["m"]["q"]["value"] is None  # NaN is not JSON
    assert "<title>figgen view: x&lt;y</title>" in page


def test_one_figure_only(built: Path) -> None:
    first = sorted((built / "figures").glob("*.json"))[0].stem
    data = view_payload(built, str, figures=[first])
    assert [f["id"] for f in data["figures"]] == [first]


@pytest.mark.parametrize(
    ("figures", "answers", "message"),
    [
        (["fig-999999"], [], "no figure 'fig-999999'"),
        (None, ["missing.jsonl"], "holds no answers"),
    ],
)
def test_bad_input_is_one_line(
    built: Path, tmp_path: Path, figures: list[str] | None, answers: list[str], message: str
) -> None:
    with pytest.raises(FiggenError, match=message):
        view_payload(built, str, figures=figures, answers=[tmp_path / a for a in answers])


def test_cli_writes_the_page(built: Path, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from figgen._cli.main import app

    out = tmp_path / "page.html"
    result = CliRunner().invoke(app, ["view", str(built), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert f"wrote {out}" in result.output
    assert _page_data(out.read_text())["figures"]


def test_a_build_without_questions_still_shows_its_boxes(built: Path, tmp_path: Path) -> None:
    import shutil

    root = tmp_path / "data"
    shutil.copytree(built, root)
    (root / "qa.jsonl").unlink()
    data = view_payload(root, str)
    assert data["figures"] and all(f["questions"] == [] for f in data["figures"])
    assert all(f["elements"] for f in data["figures"])
