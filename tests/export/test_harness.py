from __future__ import annotations

import base64
import importlib.util
import json
import string
import sys
import types
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
import yaml

from figgen.export.lmms_eval import export_lmms_eval
from figgen.export.source import BuiltDataset
from figgen.export.splits import SplitFractions, assign_splits
from figgen.export.vlmevalkit import export_vlmevalkit
from tests.export.conftest import THIRDS, read_qa


def test_vlmevalkit_tsv(built: Path, tmp_path: Path) -> None:
    path = export_vlmevalkit(built, tmp_path / "vl")
    table = pd.read_csv(path, sep="\t")
    items = read_qa(built)
    assert len(table) == len(items)
    assert list(table.columns[:8]) == ["index", "image", "question", "answer", "A", "B", "C", "D"]
    assert "category" in table.columns
    # resolve image references the way VLMEvalKit does: short cells name another row's index
    images = {str(i): str(img) for i, img in zip(table["index"], table["image"], strict=True)}
    for row, item in zip(table.itertuples(index=False), items, strict=True):
        image = images[str(row.index)]
        if len(image) <= 64:
            image = images[image]
            assert len(image) > 64
        png = (built / "figures" / f"{item['figure_id']}.png").read_bytes()
        assert base64.b64decode(image) == png
        assert row.qid == item["qid"] and row.category == item["family"]
        if item["answer_type"] == "choice":
            letters = string.ascii_uppercase[: len(item["choices"])]
            assert [getattr(row, letter) for letter in letters] == item["choices"]
            beyond = string.ascii_uppercase[len(item["choices"])]
            assert beyond not in table.columns or pd.isna(getattr(row, beyond))
            assert getattr(row, row.answer) == item["answer"]
        else:
            assert pd.isna(row.A)
            expected = item["answer"]
            got = row.answer
            if isinstance(expected, str):
                assert got == expected
            else:
                assert (
                    json.loads(str(got).lower() if isinstance(expected, bool) else str(got))
                    == expected
                )


def test_vlmevalkit_one_split(built: Path, tmp_path: Path) -> None:
    fractions = SplitFractions.parse(THIRDS)
    splits = assign_splits(BuiltDataset.open(built).figure_ids(), fractions)
    path = export_vlmevalkit(built, tmp_path / "vl", fractions=fractions, split="validation")
    table = pd.read_csv(path, sep="\t")
    expected = [i["qid"] for i in read_qa(built) if splits[i["figure_id"]] == "validation"]
    assert list(table["qid"]) == expected
    assert set(table["split"]) == {"validation"}


class _TaskLoader(yaml.SafeLoader):
    """Reads ``!function utils.name`` the way lmms-eval does: a function from utils.py."""


def _load_task(path: Path) -> tuple[dict[str, Any], types.ModuleType]:
    spec = importlib.util.spec_from_file_location("figgen_task_utils", path.parent / "utils.py")
    assert spec and spec.loader
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)

    def function(loader: yaml.SafeLoader, node: yaml.Node) -> Any:
        module, name = loader.construct_scalar(node).split(".")
        assert module == "utils"
        return getattr(utils, name)

    _TaskLoader.add_constructor("!function", function)
    return yaml.load(path.read_text(), Loader=_TaskLoader), utils


@pytest.fixture(scope="module")
def task(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    return export_lmms_eval(
        built, tmp_path_factory.mktemp("lmms") / "task", fractions=SplitFractions.parse(THIRDS)
    )


def test_lmms_eval_task_loads_and_scores(task: Path, built: Path, tmp_path: Path) -> None:
    from datasets import load_dataset

    config, _ = _load_task(task)
    assert config["task"] == "figgen_qa" and config["dataset_name"] == "qa"
    assert config["output_type"] == "generate_until"
    docs = load_dataset(
        config["dataset_path"],
        config["dataset_name"],
        split=config["test_split"],
        cache_dir=str(tmp_path),
    )
    expected = {i["qid"]: i for i in read_qa(built)}
    assert len(docs) > 0
    results = []
    for doc in docs:
        item = expected[doc["qid"]]
        visual = config["doc_to_visual"](doc)
        assert visual[0].size == doc["image"].size
        prompt = config["doc_to_text"](doc, config["lmms_eval_specific_kwargs"]["default"])
        assert prompt.startswith(item["question"].strip())
        assert "JSON" in prompt and json.dumps(item["answer_key"]) in prompt
        right = config["process_results"](doc, [json.dumps({item["answer_key"]: item["answer"]})])
        wrong = config["process_results"](doc, ["I cannot tell"])
        assert right["figgen_score"] == 1.0, item
        assert wrong["figgen_score"] == 0.0
        results.append(right)
    metrics = {m["metric"]: m for m in config["metric_list"]}
    for level in (1, 2, 3):
        aggregate = metrics[f"figgen_level_{level}"]["aggregation"]
        entries = [r[f"figgen_level_{level}"] for r in results]
        n_level = sum(1 for doc in docs if doc["level"] == level)
        value = aggregate(entries)
        assert value == 1.0 if n_level else value != value  # NaN when a level has no questions


def _utils_module(task: Path) -> types.ModuleType:
    return _load_task(task)[1]


def _without_figgen_eval(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("figgen.eval.parse", "figgen.eval.scoring"):
        monkeypatch.setitem(sys.modules, name, None)  # importing it now fails


def test_utils_exact_match_fallback(task: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    utils = _utils_module(task)
    _without_figgen_eval(monkeypatch)
    doc = {
        "answer": json.dumps(["B", "a"]),
        "answer_type": "choice_list",
        "metric": "exact_set",
        "answer_key": "kinds",
        "level": 1,
        "question": "Which kinds?",
        "choices": ["a", "B", "c"],
    }
    assert utils.score_reply(doc, '```json\n{"kinds": ["a", "b"]}\n```') == 1.0
    assert utils.score_reply(doc, '["a"]') == 0.0
    assert utils.doc_to_text(doc) == (
        'Which kinds?\nAnswer with a JSON object {"kinds": <answer>} and nothing else. '
        'Choices: "a", "B", "c".'
    )
    number = {**doc, "answer": "1250.0", "answer_type": "number", "metric": "ssmape"}
    assert utils.score_reply(number, "1,250") == 1.0
    assert utils.score_reply(number, "1251") == 0.0
    boolean = {**doc, "answer": "true", "answer_type": "boolean", "metric": "exact"}
    assert utils.score_reply(boolean, "Yes.") == 1.0


def test_utils_adapts_figgen_parser_and_scorer(
    task: Path, monkeypatch: pytest.MonkeyPatch, built: Path
) -> None:
    from figgen.vqa.item import QAItem

    utils = _utils_module(task)
    calls: list[tuple[str, object]] = []

    def parse_reply(text: str, item: QAItem) -> str:
        calls.append((text, item))
        return text.strip()

    def score_answer(item: QAItem, parsed: str) -> types.SimpleNamespace:
        return types.SimpleNamespace(correct=parsed == json.dumps(item.answer))

    monkeypatch.setitem(
        sys.modules, "figgen.eval.parse", types.SimpleNamespace(parse_reply=parse_reply)
    )
    monkeypatch.setitem(
        sys.modules, "figgen.eval.scoring", types.SimpleNamespace(score_answer=score_answer)
    )
    item = read_qa(built)[0]
    doc = {**item, "answer": json.dumps(item["answer"]), "image": object()}
    assert utils.score_reply(doc, json.dumps(item["answer"])) == 1.0
    assert utils.score_reply(doc, "nonsense") == 0.0
    assert calls[0][1] == QAItem.from_dict(item)


def test_lmms_eval_missing_split_is_a_one_line_error(built: Path, tmp_path: Path) -> None:
    from figgen.errors import FiggenError

    with pytest.raises(FiggenError, match="--split"):
        export_lmms_eval(built, tmp_path / "t", fractions=SplitFractions(1.0, 0.0, 0.0))
    assert not (tmp_path / "t").exists()


def test_plain_question_drops_only_the_json_format_sentence() -> None:
    from figgen.export.vlmevalkit import plain_question

    asked = (
        "What type of plot is shown in the only panel? Answer with a JSON object "
        '{"plot_type": <one of "line", "histogram">} and nothing else.'
    )
    assert plain_question(asked) == "What type of plot is shown in the only panel?"
    assert plain_question("How many panels?") == "How many panels?"
