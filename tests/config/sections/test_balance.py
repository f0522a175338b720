"""The ``[balance]`` config section: its default is the families' declared table, a config's
own table reaches every item's keep draw (a record's questions, and ``figgen qa`` through the
manifest), and each preset's own table covers the declared families and bounds the ones it
balances."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from figgen.config.load import config_from_dict, load_config, preset_names
from figgen.config.sections.balance import BalanceConfig, KeepTable
from figgen.errors import ConfigError
from figgen.schema.record import as_record
from figgen.vqa import questions_for_record, write_qa
from figgen.vqa.api.balance import declared_keep, declared_share_bounds, keep_item
from figgen.vqa.api.families import FAMILIES
from figgen.vqa.questions.offered import balance_table
from tests.vqa.records import mixed_record

NO_LINE_PLOTS = {"plot_type": {"line": 0.0}}


def test_the_default_section_is_the_declared_table_and_stays_out_of_the_dump() -> None:
    default = load_config(None)
    assert default.balance == BalanceConfig(keep=None, share_bounds=None)  # the declared ones
    assert "balance" not in default.to_dict()  # a default build's manifest as before
    assert balance_table(default.to_dict()) is None
    own = config_from_dict({"balance": {"keep": NO_LINE_PLOTS}})
    assert own.to_dict()["balance"]["keep"] == NO_LINE_PLOTS  # replaces the table whole
    assert balance_table(own.to_dict()) == NO_LINE_PLOTS
    assert config_from_dict(own.to_dict()) == own  # read back from a manifest


def test_a_section_is_completed_from_the_declared_tables_as_when_they_were_its_defaults() -> None:
    own = config_from_dict({"balance": {"keep": NO_LINE_PLOTS}}).to_dict()["balance"]
    assert own == {"keep": NO_LINE_PLOTS, "share_bounds": declared_share_bounds()}
    bounds = {"titles": 0.5}
    own = config_from_dict({"balance": {"share_bounds": bounds}}).to_dict()["balance"]
    assert own == {"keep": declared_keep(), "share_bounds": bounds}
    # a section that names the declared table is the default: left out of the manifest
    same = config_from_dict({"balance": {"keep": declared_keep()}})
    assert same.balance == BalanceConfig() and "balance" not in same.to_dict()


def test_a_probability_outside_0_1_is_a_one_line_config_error() -> None:
    with pytest.raises(ConfigError, match=r"balance\.keep\.plot_type\.line"):
        config_from_dict({"balance": {"keep": {"plot_type": {"line": 1.5}}}})
    with pytest.raises(ConfigError, match="balance.keep"):
        balance_table({"balance": {"keep": {"plot_type": {"line": -1}}}})


def _plot_types(items: list) -> list[str]:
    return [item.answer for item in items if item.family == "plot_type"]


def test_a_config_table_reaches_the_keep_draw_of_each_item() -> None:
    record = mixed_record(seed=1, index=4)
    default = questions_for_record(record)
    assert "line" in _plot_types(default)
    own = questions_for_record(record, keep=NO_LINE_PLOTS)
    assert "line" not in _plot_types(own)
    assert sorted(_plot_types(own)) == sorted(a for a in _plot_types(default) if a != "line")


def test_a_config_probability_keeps_the_items_keep_item_draws() -> None:
    half = {"plot_type": {"line": 0.5}}
    kept = expected = asked = 0
    for i in range(20):
        record = mixed_record(seed=i, index=i)
        kept += _plot_types(questions_for_record(record, keep=half)).count("line")
        figure = as_record(record)
        slots = [f"{p.index}-plot_type-0" for p in figure.panels if p.kind == "line"]
        asked += len(slots)
        expected += sum(keep_item(figure, "plot_type", "line", s, "line", half) for s in slots)
    assert kept == expected and 0 < kept < asked


def test_count_kind_is_balanced_per_counted_kind() -> None:
    record = mixed_record(seed=1, index=4)
    counts = [i for i in questions_for_record(record) if i.family == "count_kind"]
    never_lines = {"count_kind/line": {str(n): 0.0 for n in range(26)}}
    kept = [i for i in questions_for_record(record, keep=never_lines) if i.family == "count_kind"]
    assert {i.answer_key for i in counts} - {i.answer_key for i in kept} == {"n_line_panels"}


def test_figgen_qa_balances_with_the_table_of_the_build_manifest(tmp_path: Path) -> None:
    (tmp_path / "figures").mkdir()
    for i in range(3):
        record = mixed_record(seed=i, index=i)
        (tmp_path / "figures" / f"{record['id']}.json").write_text(json.dumps(record))
    config = config_from_dict({"balance": {"keep": NO_LINE_PLOTS}}).to_dict()
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps({"seed": 1}))
    write_qa(tmp_path)
    lines = (tmp_path / "qa.jsonl").read_text().splitlines()
    assert "line" in [
        item["answer"] for item in map(json.loads, lines) if item["family"] == "plot_type"
    ]
    manifest.write_text(json.dumps({"seed": 1, "config": config}))
    write_qa(tmp_path)
    items = [json.loads(line) for line in (tmp_path / "qa.jsonl").read_text().splitlines()]
    answers = [item["answer"] for item in items if item["family"] == "plot_type"]
    assert answers and "line" not in answers


def unlisted_families(keep: KeepTable) -> list[str]:
    """The families that declare keep probabilities but that ``keep``, a config's own table,
    neither lists (``family`` or ``family/...``) nor opts out of (``family = {}``)."""
    listed = {name.split("/")[0] for name in keep}
    return [
        name
        for name, family in FAMILIES.items()
        if family.balance and (family.balance.keep or family.balance.by_kind)
        if name not in listed
    ]


@pytest.mark.parametrize("preset", preset_names())
def test_each_preset_bounds_the_families_it_balances(preset: str) -> None:
    section = load_config(preset).balance
    keep = declared_keep() if section.keep is None else section.keep
    bounds = declared_share_bounds() if section.share_bounds is None else section.share_bounds
    assert {name.split("/")[0] for name, classes in keep.items() if classes} <= set(bounds)


@pytest.mark.parametrize("preset", preset_names())
def test_a_preset_table_lists_every_family_that_declares_one(preset: str) -> None:
    """A preset's ``[balance.keep]`` replaces the declared table whole, so a family declared
    with keep probabilities after the preset was measured would be asked unbalanced in its
    builds without a word: the preset must list it, or opt out with ``family = {}``."""
    keep = load_config(preset).balance.keep
    missing = unlisted_families(keep) if keep is not None else []
    assert not missing, (
        f"the {preset} preset's [balance.keep] lists no row for {missing}: measure them on "
        f"its build, or write `{missing[0]} = {{}}` to ask them unbalanced"
    )


def test_a_table_that_leaves_out_a_balanced_family_is_caught_and_an_empty_row_opts_out() -> None:
    longchart = load_config("longchart").balance.keep
    assert longchart is not None and "symmetry" in longchart
    without = {name: classes for name, classes in longchart.items() if name != "symmetry"}
    assert unlisted_families(without) == ["symmetry"]
    opted_out = {**without, "symmetry": {}}
    assert unlisted_families(opted_out) == []
    slots = [f"{i}-symmetry-0" for i in range(200)]
    record = as_record(mixed_record(seed=1, index=4))
    assert not all(keep_item(record, "symmetry", "symmetric", s, "histogram") for s in slots)
    assert all(keep_item(record, "symmetry", "symmetric", s, "histogram", opted_out) for s in slots)


def test_the_longchart_preset_carries_its_own_table() -> None:
    section = load_config("longchart").balance
    assert section != BalanceConfig() and section.keep is not None
    # the kind is plot_type's answer, so it is balanced over kinds, never per kind
    assert "plot_type" in section.keep
    assert not [name for name in section.keep if name.startswith("plot_type/")]
    assert section.keep["error_bars/bar"] == {"none": 0.0}  # its bars draw no error bars
