"""The VLMEvalKit export read back the way VLMEvalKit reads a custom dataset."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from figgen.errors import FiggenError
from figgen.export.source import BuiltDataset
from figgen.harness.vlmevalkit.export import DATASET_TYPES, MCQ_NAME, OPEN_NAME, export_vlmevalkit
from figgen.schema.splits import SplitFractions, assign_splits
from tests.export.conftest import THIRDS, read_qa
from tests.export.vlmevalkit_loader import decoded_image, load_custom, mcq_options


@pytest.fixture(scope="module")
def exported(built: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    paths = export_vlmevalkit(built, tmp_path_factory.mktemp("vl") / "vl")
    return {path.stem: path for path in paths}


def test_two_datasets_of_the_types_vlmevalkit_gives_them(exported: dict[str, Path]) -> None:
    assert set(exported) == {MCQ_NAME, OPEN_NAME}
    mcq, open_ended = load_custom(exported[MCQ_NAME]), load_custom(exported[OPEN_NAME])
    assert (mcq.cls, mcq.type) == ("CustomMCQDataset", "MCQ")
    assert DATASET_TYPES[MCQ_NAME] == "MCQ"
    assert (open_ended.cls, open_ended.type) == ("CustomVQADataset", "VQA")
    assert DATASET_TYPES[OPEN_NAME] == "VQA"


def test_every_question_once_with_its_image_and_answer(
    built: Path, exported: dict[str, Path]
) -> None:
    qa = {item["qid"]: item for item in read_qa(built)}
    seen: list[str] = []
    for name, path in exported.items():
        loaded = load_custom(path)
        assert loaded.data["index"].is_unique
        assert loaded.data["index"].map(type).eq(int).all()  # VLMEvalKit keeps ints
        for _, line in loaded.data.iterrows():
            item = qa[line["qid"]]
            seen.append(item["qid"])
            png = (built / "figures" / f"{item['figure_id']}.png").read_bytes()
            assert decoded_image(line) == png
            assert line["category"] == item["family"]
            assert line["l2-category"] == f"level {item['level']}"
            if name == MCQ_NAME:  # VLMEvalKit's own prompt asks for a letter
                assert "Answer with a JSON object" not in line["question"]
            else:  # VLMEvalKit adds no instruction to custom VQA data: figgen's stays
                assert line["question"].startswith(item["question"])
            if name == MCQ_NAME:
                options = mcq_options(line)
                assert list(options.values()) == item["choices"]
                assert list(options) == list("ABCDEFGHIJKLMNOPQRSTUVWXYZ"[: len(options)])
                assert options[line["answer"]] == item["answer"]
            else:
                assert item["answer_type"] != "choice"
                assert _plain(line["answer"], item["answer"]) == item["answer"]
    assert sorted(seen) == sorted(qa)


def _plain(cell: object, truth: object) -> object:
    """The answer column's value as figgen's type (pandas turns '3' into 3, 'true' into True)."""
    if isinstance(truth, str):
        return str(cell)
    if isinstance(truth, bool):
        return str(cell).lower() == "true" if isinstance(cell, str) else bool(cell)
    return json.loads(str(cell)) if isinstance(cell, str) else cell


def test_images_are_stored_once_per_figure_and_table(exported: dict[str, Path]) -> None:
    for path in exported.values():
        raw = pd.read_csv(path, sep="\t", dtype=str)
        full = raw[raw["image"].str.len() > 64]
        assert full["figure_id"].is_unique
        assert set(full["figure_id"]) == set(raw["figure_id"])


def test_one_split(built: Path, tmp_path: Path) -> None:
    fractions = SplitFractions.parse(THIRDS)
    splits = assign_splits(BuiltDataset.open(built).figure_ids(), fractions)
    paths = export_vlmevalkit(built, tmp_path / "vl", fractions=fractions, split="validation")
    qids = [q for p in paths for q in load_custom(p).data["qid"]]
    expected = [i["qid"] for i in read_qa(built) if splits[i["figure_id"]] == "validation"]
    assert sorted(qids) == sorted(expected)
    assert {s for p in paths for s in load_custom(p).data["split"]} == {"validation"}


def test_an_option_pandas_reads_as_missing_is_refused(built: Path, tmp_path: Path) -> None:
    """'None' would vanish from VLMEvalKit's options: say so instead of exporting it."""
    from figgen.schema.qa_item import QAItem

    root = tmp_path / "data"
    shutil.copytree(built, root)
    items = read_qa(root)
    choice = next(i for i in items if i["answer_type"] == "choice")
    choice["choices"] = [*choice["choices"], "None"]
    (root / "qa.jsonl").write_text(
        "".join(json.dumps(QAItem.from_dict(i).to_dict()) + "\n" for i in items)
    )
    with pytest.raises(FiggenError, match="'None' would read as missing"):
        export_vlmevalkit(root, tmp_path / "vl")
    assert not (tmp_path / "vl").exists()


def _contained(options: list[str]) -> bool:
    """VLMEvalKit's can_infer_text, restated: does a reply that is one option match twice?"""
    return any(sum(other.lower() in option.lower() for other in options) > 1 for option in options)


def test_options_one_inside_another_ask_for_the_letter(built: Path, tmp_path: Path) -> None:
    from figgen.harness.vlmevalkit.export import LETTER_ONLY
    from figgen.schema.qa_item import QAItem

    root = tmp_path / "data"
    shutil.copytree(built, root)
    items = read_qa(root)
    choices = [i for i in items if i["answer_type"] == "choice"]
    overlapping, plain = choices[0], choices[1]
    overlapping["choices"] = ["linear", "nonlinear", "quadratic", "exponential"]
    overlapping["answer"] = "nonlinear"
    assert _contained(overlapping["choices"]) and not _contained(plain["choices"])
    (root / "qa.jsonl").write_text(
        "".join(json.dumps(QAItem.from_dict(i).to_dict()) + "\n" for i in items)
    )
    (path,) = [p for p in export_vlmevalkit(root, tmp_path / "vl") if p.stem == MCQ_NAME]
    questions = load_custom(path).data.set_index("qid")["question"]
    assert questions[overlapping["qid"]].endswith("\n" + LETTER_ONLY)
    assert LETTER_ONLY not in questions[plain["qid"]]
