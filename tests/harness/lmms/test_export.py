from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import types
from pathlib import Path
from typing import Any

import pytest
import yaml

from figgen.harness.lmms.export import export_lmms_eval
from figgen.schema.splits import SplitFractions
from tests.export.conftest import THIRDS, read_qa
from tests.paths import REPO


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
    levels = sorted({doc["level"] for doc in docs})
    # a metric per level the split has (an empty level would report NaN), and results carry
    # exactly the metrics declared (lmms-eval looks each up in the metric list)
    assert list(metrics) == ["figgen_score", *(f"figgen_level_{lv}" for lv in levels)]
    assert all(sorted(r) == sorted(metrics) for r in results)
    for level in levels:
        aggregate = metrics[f"figgen_level_{level}"]["aggregation"]
        assert aggregate([r[f"figgen_level_{level}"] for r in results]) == 1.0


def test_a_split_without_level_3_questions_has_no_level_3_metric(
    built: Path, tmp_path: Path
) -> None:
    data = tmp_path / "data"
    shutil.copytree(built, data)
    kept = [item for item in read_qa(built) if item["level"] != 3]
    (data / "qa.jsonl").write_text("".join(json.dumps(item) + "\n" for item in kept))
    task = export_lmms_eval(data, tmp_path / "task", fractions=SplitFractions.parse(THIRDS))
    config, utils = _load_task(task)
    names = [m["metric"] for m in config["metric_list"]]
    assert names == ["figgen_score", "figgen_level_1", "figgen_level_2"]
    assert utils.LEVELS == (1, 2)


def _utils_module(task: Path) -> types.ModuleType:
    return _load_task(task)[1]


def _without_figgen_eval(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("figgen.eval.scoring.parse", "figgen.eval.scoring.scoring"):
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
    from figgen.schema.qa_item import QAItem

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
    from figgen.schema.answer_types import plain_question

    asked = (
        "What type of plot is shown in the only panel? Answer with a JSON object "
        '{"plot_type": <one of "line", "histogram">} and nothing else.'
    )
    assert plain_question(asked) == "What type of plot is shown in the only panel?"
    assert plain_question("How many panels?") == "How many panels?"


def test_the_docs_give_the_install_line_the_harness_test_installs() -> None:
    from figgen.harness.lmms.export import INSTALL_COMMAND

    docs = REPO / "docs" / "export.md"
    assert INSTALL_COMMAND in docs.read_text()
    assert INSTALL_COMMAND.endswith("&& pip uninstall -y torchvision")
