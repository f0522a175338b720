"""``figgen export --format sft``: training records TRL and LLaMA-Factory read.

The records are loaded with ``datasets`` (as TRL's SFT data path takes them) and rendered with
a real vision chat template: ``data/qwen2_vl_chat_template.jinja`` is the ``chat_template`` of
Qwen/Qwen2-VL-7B-Instruct's tokenizer config, rendered the way ``transformers``'
``apply_chat_template`` does (a sandboxed jinja2 environment with ``trim_blocks`` and
``lstrip_blocks``). The LLaMA-Factory side is checked against its documented sharegpt format.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
from jinja2.sandbox import ImmutableSandboxedEnvironment
from PIL import Image

from figgen.export.sft import DATASET_NAME, IMAGE_TOKEN, export_sft, load_sft
from figgen.export.source import BuiltDataset
from figgen.schema.splits import SplitFractions, assign_splits
from tests.export.conftest import THIRDS, read_qa

TEMPLATE = (Path(__file__).parent / "data" / "qwen2_vl_chat_template.jinja").read_text()


def apply_chat_template(messages: list[dict], **kwargs: object) -> str:
    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
    return env.from_string(TEMPLATE).render(messages=messages, **kwargs)


@pytest.fixture(scope="module")
def exported(built: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("sft") / "sft"
    export_sft(built, out, fractions=SplitFractions.parse(THIRDS))
    return out


def test_every_train_question_once_with_its_figure_and_json_answer(
    built: Path, exported: Path
) -> None:
    splits = assign_splits(BuiltDataset.open(built).figure_ids(), SplitFractions.parse(THIRDS))
    train = {i["qid"]: i for i in read_qa(built) if splits[i["figure_id"]] == "train"}
    records = load_sft(exported)
    assert sorted(records["id"]) == sorted(train) and len(train) > 0
    for record in records:
        item = train[record["id"]]
        (image,) = record["images"]
        with Image.open(built / "figures" / f"{item['figure_id']}.png") as png:
            assert image.size == png.size
            assert image.convert("RGB").tobytes() == png.convert("RGB").tobytes()
        user, assistant = record["messages"]
        assert (user["role"], assistant["role"]) == ("user", "assistant")
        assert [part["type"] for part in user["content"]] == ["image", "text"]
        prompt = user["content"][1]["text"]
        assert prompt.startswith(item["question"].split(" Answer with")[0])
        assert "JSON object" in prompt and json.dumps(item["answer_key"]) in prompt
        answer = json.loads(assistant["content"][0]["text"])
        assert answer == {item["answer_key"]: item["answer"]}  # the JSON the prompt asks for


def test_a_real_chat_template_renders_the_records(exported: Path) -> None:
    record = load_sft(exported)[0]
    prompt = record["messages"][0]["content"][1]["text"]
    answer = record["messages"][1]["content"][0]["text"]
    text = apply_chat_template(record["messages"])
    assert text == (
        "<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n"
        f"<|im_start|>user\n<|vision_start|><|image_pad|><|vision_end|>{prompt}<|im_end|>\n"
        f"<|im_start|>assistant\n{answer}<|im_end|>\n"
    )
    # one image placeholder per image, as a processor needs to place the pixels
    assert text.count("<|image_pad|>") == len(record["images"]) == 1


def test_llama_factory_sharegpt_registration_and_turns(exported: Path) -> None:
    info = json.loads((exported / "dataset_info.json").read_text())[DATASET_NAME]
    assert info["formatting"] == "sharegpt" and (exported / info["file_name"]).is_file()
    tags, columns = info["tags"], info["columns"]
    for line in (exported / info["file_name"]).read_text().splitlines():
        row = json.loads(line)
        turns = row[columns["messages"]]
        assert [t[tags["role_tag"]] for t in turns] == [tags["user_tag"], tags["assistant_tag"]]
        assert all(isinstance(t[tags["content_tag"]], str) for t in turns)
        # LLaMA-Factory requires as many <image> tokens as images, paths relative to the folder
        assert turns[0]["content"].count(IMAGE_TOKEN) == len(row[columns["images"]]) == 1
        assert (exported / row[columns["images"]][0]).is_file()
        assert turns[1]["content"] == row["messages"][1]["content"][0]["text"]


def test_images_are_stored_once_per_figure(exported: Path) -> None:
    images = sorted(p.name for p in (exported / "images").iterdir())
    used = {json.loads(line)["images"][0] for line in (exported / "train.jsonl").open()}
    assert images == sorted(Path(p).name for p in used)
    for path in (exported / "images").iterdir():
        Image.open(io.BytesIO(path.read_bytes())).verify()


def test_an_empty_split_is_one_line_and_writes_nothing(built: Path, tmp_path: Path) -> None:
    out = tmp_path / "sft"
    command = [sys.executable, "-m", "figgen", "export", str(built), "--format", "sft",
               "--out", str(out), "--splits", "1,0,0", "--split", "test"]  # fmt: skip
    result = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: the test split has no questions; pass --split with another split or give it "
        "a share with --splits"
    ]
    assert list(tmp_path.iterdir()) == []
