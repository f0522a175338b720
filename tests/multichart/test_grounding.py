"""Grounding and pointing over a set: (image index, box) evidence, per-image mDIoU and
Chamfer combined by the mean over images, and ``eval run --prompt grounded`` on a build."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from typer.testing import CliRunner

from figgen._cli.main import app
from figgen.eval.grounding.evidence import EvidenceTarget
from figgen.eval.grounding.set_grounding import SetTarget, locate_set, score_set_location
from figgen.eval.run.dataset import load_dataset
from tests.multichart.independent import stored_sets

TRUTH = SetTarget(
    (
        EvidenceTarget(((10.0, 10.0, 30.0, 30.0),), ((20.0, 20.0),), 100, 100),
        EvidenceTarget((), (), 100, 100),  # an image the question does not read
        EvidenceTarget(((0.0, 0.0, 10.0, 10.0),), ((5.0, 5.0),), 200, 100),
    )
)


def _diou_by_hand(p, t) -> float:
    ix = max(0.0, min(p[2], t[2]) - max(p[0], t[0]))
    iy = max(0.0, min(p[3], t[3]) - max(p[1], t[1]))
    inter = ix * iy
    union = (p[2] - p[0]) * (p[3] - p[1]) + (t[2] - t[0]) * (t[3] - t[1]) - inter
    centres = math.dist(
        ((p[0] + p[2]) / 2, (p[1] + p[3]) / 2), ((t[0] + t[2]) / 2, (t[1] + t[3]) / 2)
    )
    diagonal = math.dist((min(p[0], t[0]), min(p[1], t[1])), (max(p[2], t[2]), max(p[3], t[3])))
    return inter / union - centres**2 / diagonal**2


def _row(reply: dict) -> dict:
    return {"raw": json.dumps({"LLM_answer_final": 1, **reply}), "image_scale": 1.0}


def test_set_mdiou_is_the_mean_over_images_with_evidence_or_answers():
    shifted = [20.0, 10.0, 40.0, 30.0]
    reply = {"boxes": {"1": [shifted], "2": [[0, 0, 5, 5]], "3": [[0, 0, 10, 10]]}}
    score = score_set_location("grounded", _row(reply), TRUTH)
    # image 1: one shifted box; image 2: a box where there is no evidence (-1); image 3: exact
    expected = (_diou_by_hand(shifted, TRUTH.images[0].boxes[0]) - 1.0 + 1.0) / 3
    assert score.value == pytest.approx(expected) and score.frame == "pixels"
    # leaving the unused image empty, as the paper's prompt asks, drops it from the mean
    reply["boxes"]["2"] = []
    score = score_set_location("grounded", _row(reply), TRUTH)
    assert score.value == pytest.approx((_diou_by_hand(shifted, TRUTH.images[0].boxes[0]) + 1) / 2)


def test_set_chamfer_is_per_image_over_its_diagonal_then_averaged():
    reply = {"points": {"image_1": [[20, 24]], "image_3": []}}
    score = score_set_location("pointed", _row(reply), TRUTH)
    # image 1: 4 px each way over the 100 x 100 diagonal; image 3 unanswered: the worst, 2
    assert score.value == pytest.approx((2 * 4 / math.hypot(100, 100) + 2.0) / 2)


def test_pairs_and_fractions_are_read_per_image():
    sizes = [(100, 100), (100, 100), (200, 100)]
    listed = {"boxes": [[3, 0, 0, 10, 10], [1, 10, 10, 30, 30]]}
    found = locate_set(json.dumps(listed), "boxes", sizes)
    assert found == [[[10.0, 10.0, 30.0, 30.0]], [], [[0.0, 0.0, 10.0, 10.0]]]
    unit = {"boxes": {"1": [[0.1, 0.1, 0.3, 0.3]], "3": [[0, 0, 0.05, 0.1]]}}
    score = score_set_location("grounded", _row(unit), TRUTH)
    assert score.value == pytest.approx(1.0) and score.frame == "unit"
    assert (
        locate_set(json.dumps({"boxes": {"4": []}}), "boxes", sizes) == "no image '4' in a set of 3"
    )


def test_eval_run_grounded_on_a_multichart_build_asks_every_question(built: Path, tmp_path: Path):
    answers = tmp_path / "g.jsonl"
    run = ["eval", "run", "--data", str(built), "--model", "oracle", "--prompt", "grounded"]
    result = CliRunner().invoke(app, [*run, "--out", str(answers), "--no-progress"])
    assert result.exit_code == 0, result.output
    n = sum(len(s["questions"]) for s in stored_sets(built))
    assert len(answers.read_text().splitlines()) == 2 * n  # none refused, none without evidence
    result = CliRunner().invoke(
        app,
        [
            "eval",
            "score",
            "--data",
            str(built),
            "--answers",
            str(answers),
            "--out",
            str(tmp_path / "r"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert (
        f"| oracle [grounded] | {2 * n} | {2 * n} | {2 * n} | 0 | 1.000 |"
        in (tmp_path / "r" / "report.md").read_text()
    )


def test_the_set_evidence_is_each_questions_boxes_at_their_image_index(built: Path):
    targets = load_dataset(built).set_targets
    for record in stored_sets(built):
        for q in record["questions"]:
            for mode, facts in q["modes"].items():
                target = targets[facts["qid"]]
                shown = record["modes"][mode]
                assert len(target.images) == len(shown)
                for image, boxes in facts["evidence"].items():
                    assert [list(b) for b in target.images[shown.index(image)].boxes] == boxes


def test_a_shrunk_set_prompt_restates_every_size_and_rescales_the_evidence():
    import io

    from PIL import Image

    from figgen.eval.providers.image import FigureImage
    from figgen.eval.run.prompt import build_prompt
    from figgen.schema.qa_item import QAItem

    def png(width: int, height: int) -> FigureImage:
        out = io.BytesIO()
        Image.new("RGB", (width, height), "white").save(out, format="PNG")
        return FigureImage(out.getvalue(), width, height)

    item = QAItem("q", "f", 2, "cross-panel", None, None, "m", "Q?", 1.0, "number", "a", "exact")
    prompt = build_prompt(
        item, png(100, 100), mode="grounded", more=(png(100, 100), png(200, 100)), set_target=TRUTH
    )
    assert "image 1 is 100 x 100; image 2 is 100 x 100; image 3 is 200 x 100" in prompt.text
    half = prompt.scaled(0.5)
    assert "image 1 is 50 x 50; image 2 is 50 x 50; image 3 is 100 x 50" in half.text
    assert "200 x 100" not in half.text
    assert half.set_evidence is not None
    assert half.set_evidence.images[2].boxes == ((0.0, 0.0, 5.0, 5.0),)
