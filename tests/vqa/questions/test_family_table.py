"""The family table: every item comes from a declaration that matches it and names its kind,
and the docs' tables of families are the registry's."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

from figgen.build.figure import generate_figure
from figgen.config.load import config_from_dict
from figgen.kinds import KINDS
from figgen.schema.record import Record
from figgen.vqa import questions_for_record
from figgen.vqa.api.families import FAMILIES, declare
from figgen.vqa.questions.family_table import (
    family_table,
    is_count,
    markdown_balance_table,
    markdown_family_table,
    series_families,
)
from tests.paths import REPO

EVERY_KIND = {
    "kinds": {name: 1.0 for name in KINDS},
    "panels": {"mean": 4.0, "std": 2.0, "count": [2, 6]},
    "image": {"dpi": [60, 80], "panel_inches": [2.6, 3.2]},
}


@pytest.fixture(scope="module")
def records() -> list[Record]:
    """Figures of seed 5 until every kind is drawn (no seed is tied to the samplers' draws)."""
    cfg = config_from_dict(EVERY_KIND)
    out: list[Record] = []
    drawn: set[str] = set()
    for i in range(40):
        out.append(generate_figure(cfg, 5, i).record)
        drawn |= {p.kind for p in out[-1].panels}
        if drawn == set(KINDS):
            return out
    raise AssertionError(f"40 figures drew no {sorted(set(KINDS) - drawn)} panel")


def test_every_item_matches_its_declaration(records: list[Record]) -> None:
    rows = {row.family.name: row for row in family_table()}
    seen_kinds = set()
    for record in records:
        kinds = {p.index: p.kind for p in record.panels}
        for item in questions_for_record(record, kinds=tuple(KINDS)):
            row = rows[item.family]
            declared = (row.family.level, row.family.scope, row.family.answer_type)
            assert declared == (item.level, item.scope, item.answer_type), item.qid
            assert row.family.metric == item.metric
            if item.scope == "panel":
                assert kinds[item.panel] in row.kinds, (item.family, kinds[item.panel])
                seen_kinds.add(kinds[item.panel])
            else:
                assert row.kinds == ()
    assert seen_kinds == set(KINDS)


def test_is_count_means_the_question_asks_how_many(records: list[Record]) -> None:
    integer_families = set()
    for record in records:
        for item in questions_for_record(record):
            if item.answer_type == "integer":
                integer_families.add(item.family)
                assert is_count(item.family) == ("how many" in item.question.lower()), item.qid
    # n_points is withheld where markers overlap (dense at these small dpi): n_lines stands in
    assert {"panel_count", "count_kind", "n_lines"} <= integer_families
    assert not is_count("max_count")  # a bar length read off an axis, not a count of things
    assert not is_count("no_such_family")


def test_every_panel_family_is_asked_of_some_kind() -> None:
    for row in family_table():
        assert (row.family.scope == "panel") == bool(row.kinds), row.family.name
    for kind in KINDS.values():
        assert all(FAMILIES[f.name] is f for f in kind.families)


def test_a_family_is_declared_once() -> None:
    known = FAMILIES["panel_count"]
    again = (known.name, known.level, known.scope, known.answer_type, known.metric, known.question)
    assert declare(*again, is_count=True) is not None
    with pytest.raises(ValueError, match="declared twice, differently"):
        declare(*again, is_count=False)


def test_every_question_template_is_filled(records: list[Record]) -> None:
    for record in records:
        for item in questions_for_record(record):
            assert "{" not in item.question.split(" Answer with")[0], item.question


def _generated(doc: str, render: Callable[[], str]) -> str:
    """The table under the marker that names ``render`` in ``doc`` (up to the blank line)."""
    text = (REPO / doc).read_text(encoding="utf-8")
    marker = f"<!-- generated: {render.__module__}.{render.__name__}() -->\n"
    assert marker in text, f"{doc} has no {marker.strip()}"
    start = text.index(marker) + len(marker)
    return text[start : text.index("\n\n", start)]


@pytest.mark.parametrize("render", [markdown_family_table, markdown_balance_table])
def test_the_docs_tables_are_the_registrys(render: Callable[[], str]) -> None:
    name = render.__name__
    assert _generated("docs/vqa.md", render) == render(), (
        f"docs/vqa.md: replace the table under its marker with the output of python -c "
        f"'from {render.__module__} import {name}; print({name}())'"
    )


def test_the_family_table_lists_each_family_once_with_its_level_and_kinds() -> None:
    rows = markdown_family_table().splitlines()[2:]
    listed = {}
    for line in rows:
        level, scope, names = (cell.strip() for cell in line.strip("|").split("|"))
        for name in re.findall(r"`(\w+)`", names):
            assert name not in listed
            listed[name] = (int(level), scope)
    assert set(listed) == set(FAMILIES)
    assert listed["value_at_x"] == (2, "panel (line)")
    assert listed["error_bars"] == (1, "panel (line, histogram, scatter, bar)")
    assert listed["count_kind"] == (1, "cross-panel")


def test_the_readme_names_declared_families_at_their_levels() -> None:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    start = text.index("| level | what | examples of families |")
    named = 0
    for line in text[start : text.index("\n\n", start)].splitlines()[2:]:
        level, _, names = line.strip("|").split("|")
        for name in re.findall(r"`(\w+)`", names):
            assert FAMILIES[name].level == int(level), name
            named += 1
    assert named > 20


def test_the_families_that_name_a_line_are_the_ones_a_hidden_line_loses() -> None:
    """A line's values and shape need every point of it; ``x_range`` reads all the lines."""
    named = {"mean_y", "median_y", "min_y", "max_y", "value_at_x", "linearity", "trend"}
    assert named <= series_families() and "x_range" not in series_families()
