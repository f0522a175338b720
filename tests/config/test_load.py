from __future__ import annotations

import json
from pathlib import Path

import pytest

from figgen.config.load import FigureConfig, config_from_dict, load_config
from figgen.errors import ConfigError


def test_defaults_are_the_anchor_ranges() -> None:
    cfg = FigureConfig()
    assert cfg.image.dpi == (200, 500)
    assert cfg.image.aspect == (0.25, 1.5)
    assert (cfg.text.title_p, cfg.text.title_words, cfg.text.title_formula_p) == (0.5, (1, 5), 0.1)
    assert (cfg.text.label_p, cfg.text.label_words, cfg.text.label_formula_p) == (0.9, (1, 3), 0.25)
    assert cfg.line.series == (2, 3) and cfg.line.points == (10, 11)
    assert cfg.histogram.samples == (10, 10000) and cfg.histogram.bins == (1, 100)
    assert cfg.contour.levels == (3, 10)
    assert cfg.panels.count == (1, 25)


def test_toml_file_overrides_a_subset(tmp_path: Path) -> None:
    path = tmp_path / "cfg.toml"
    path.write_text("[image]\ndpi = [100, 120]\n[text]\ntitle_p = 1.0\n")
    cfg = load_config(path)
    assert cfg.image.dpi == (100, 120)
    assert cfg.text.title_p == 1.0
    assert cfg.text.label_p == 0.9  # untouched default


def test_json_file_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "cfg.json"
    path.write_text(json.dumps(FigureConfig().to_dict()))
    assert load_config(path) == FigureConfig()


@pytest.mark.parametrize(
    ("values", "needle"),
    [
        ({"text": {"titel_p": 0.3}}, "unknown key 'text.titel_p'"),
        ({"colour": 1}, "unknown key 'colour'"),
        ({"image": {"dpi": [500, 200]}}, "'image.dpi'"),
        ({"text": {"title_p": 1.5}}, "'text.title_p'"),
        ({"kinds": {"line": -1.0}}, "'kinds'"),
    ],
)
def test_bad_values_name_the_key_in_one_line(values: dict, needle: str) -> None:
    with pytest.raises(ConfigError) as info:
        config_from_dict(values, source="my.toml")
    message = str(info.value)
    assert needle in message
    assert message.startswith("my.toml")
    assert "\n" not in message


def test_unreadable_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(
        ConfigError, match=r"missing.toml does not exist; .* preset \(longchart, small, tiny\)"
    ):
        load_config(tmp_path / "missing.toml")
    with pytest.raises(ConfigError, match="cannot read"):
        load_config(tmp_path)  # a folder
    bad = tmp_path / "bad.toml"
    bad.write_text("[image\n")
    with pytest.raises(ConfigError, match="not valid"):
        load_config(bad)


def test_presets_by_name_and_a_file_of_that_name_wins(tmp_path: Path, monkeypatch) -> None:
    tiny = load_config("tiny")
    assert tiny.panels.count == (1, 2)
    assert tiny.image.dpi == (50, 60)
    small = load_config("small")
    assert small.panels.count == (1, 6)
    longchart = load_config("longchart")  # paper 002's kind mix: Table 5's question counts
    assert longchart.kinds["line"] == 302 and longchart.kinds["contour"] == 0
    assert longchart.kinds["heatmap"] == 27 and longchart.kinds["map"] == 35
    assert longchart.kinds["box"] == 3 and longchart.kinds["range"] == 43
    assert small.text == FigureConfig().text  # a preset overrides only what it names
    monkeypatch.chdir(tmp_path)
    Path("tiny").write_text("[panels]\ncount = [3, 4]\n")
    assert load_config("tiny").panels.count == (3, 4)
