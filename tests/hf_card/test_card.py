from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest
import yaml
from huggingface_hub import DatasetCard

from figgen.errors import FiggenError
from figgen.hf_card import card_problems, check_card, size_category
from tests.export.conftest import read_qa


@pytest.fixture(scope="module")
def card_text(hf_dir: Path) -> str:
    return (hf_dir / "README.md").read_text(encoding="utf-8")


def _header(text: str) -> dict:
    match = re.match(r"^---\n(.*?)\n---\n", text, re.DOTALL)
    assert match, "card has no YAML header"
    return yaml.safe_load(match.group(1))


def test_header_has_the_hub_fields(card_text: str, hf_dir: Path) -> None:
    header = _header(card_text)
    assert header["license"] == "cc-by-sa-4.0"
    assert "visual-question-answering" in header["task_categories"]
    assert header["size_categories"] in ("n<1K", ["n<1K"])
    assert header["pretty_name"]
    configs = {c["config_name"]: c for c in header["configs"]}
    assert set(configs) == {"figures", "qa", "descriptions"}
    for name, config in configs.items():
        for entry in config["data_files"]:
            assert entry["split"] in ("train", "validation", "test")
            assert list(hf_dir.glob(entry["path"])), entry["path"]
            assert entry["path"].startswith(f"data/{name}/")


def test_card_parses_and_validates_offline(card_text: str, hf_dir: Path) -> None:
    card = DatasetCard(card_text)
    assert card.data.to_dict()["pretty_name"] == _header(card_text)["pretty_name"]
    assert card_problems(card_text, hf_dir) == []
    check_card(card_text, hf_dir)


def test_card_states_the_box_convention_and_provenance(card_text: str) -> None:
    flat = " ".join(card_text.split())
    assert "pixels of the image, origin top-left" in flat
    assert "[x0, y0, x1, y1]" in flat
    assert "figgen build --n 6" in card_text or "figgen build" in card_text
    assert "figgen eval run" in card_text and "figgen eval score" in card_text
    assert "CC0" in card_text and "CC BY-SA 4.0" in card_text and "unarXive" in card_text
    assert "```bibtex" in card_text and "@misc{" in card_text
    assert "blind and low-vision" in flat


def _table(text: str, heading: str) -> dict[str, int]:
    section = text.split(heading, 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| ([^|]+?) \| (\d+) \|", section, re.MULTILINE)
    return {key.strip(): int(value) for key, value in rows}


def test_card_counts_match_the_data(card_text: str, built: Path) -> None:
    items = read_qa(built)
    assert _table(card_text, "### Questions per level") == {
        str(k): v for k, v in Counter(i["level"] for i in items).items()
    }
    assert _table(card_text, "### Questions per family") == dict(
        Counter(i["family"] for i in items)
    )
    records = [json.loads(p.read_text()) for p in (built / "figures").glob("*.json")]
    assert _table(card_text, "### Figures per panel count") == {
        str(k): v for k, v in Counter(r["layout"]["n_panels"] for r in records).items()
    }
    panels = Counter(p["kind"] for r in records for p in r["panels"])
    assert _table(card_text, "### Panels per plot kind") == dict(panels)


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("license: cc-by-sa-4.0", "license: free-for-all", "license"),
        ("size_categories: n<1K", "size_categories: tiny", "size_categories"),
        ("- config_name: figures", "- config_nam: figures", "config_name"),
        ("path: data/qa/", "path: data/nowhere/", "no file matches"),
    ],
)
def test_check_catches_bad_metadata(
    card_text: str, hf_dir: Path, old: str, new: str, problem: str
) -> None:
    assert old in card_text
    broken = card_text.replace(old, new, 1)
    problems = card_problems(broken, hf_dir)
    assert any(problem in p for p in problems), problems
    with pytest.raises(FiggenError):
        check_card(broken, hf_dir)


@pytest.mark.parametrize(
    ("n", "label"),
    [
        (0, "n<1K"),
        (999, "n<1K"),
        (1000, "1K<n<10K"),
        (99_999, "10K<n<100K"),
        (100_000, "100K<n<1M"),
        (2_500_000, "1M<n<10M"),
    ],
)
def test_size_category(n: int, label: str) -> None:
    assert size_category(n) == label


def test_card_gives_the_regenerating_command_and_config(
    card_text: str, hf_dir: Path, built: Path
) -> None:
    manifest = json.loads((built / "manifest.json").read_text())
    n, seed = manifest["n"], manifest["seed"]
    assert manifest["command"].startswith(f"figgen build --n {n} --seed {seed} --out ")
    # the builder's own folder and config path mean nothing to a reader: DIR and the copy
    regenerate = f"figgen build --n {n} --seed {seed} --out DIR"
    assert regenerate in card_text
    assert f"figgen {manifest['figgen_version']}" in card_text
    assert f"seed {manifest['seed']}" in card_text
    if "config" not in manifest:
        pytest.skip("hand-written build without a config")
    # the test build uses a small non-default config, so the card must ship it
    assert f"{regenerate} --config build_config.json" in card_text
    assert json.loads((hf_dir / "build_config.json").read_text()) == manifest["config"]
