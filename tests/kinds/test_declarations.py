"""The tables every consumer reads are derived from the kinds' declarations."""

from __future__ import annotations

import pytest

from figgen.build.figure import generate_figure
from figgen.config.load import config_from_dict
from figgen.errors import ConfigError, FiggenError
from figgen.kinds import KINDS, element_tables, multichart_kind, multichart_kinds
from figgen.kinds.api import KindHooks, register
from figgen.kinds.derived import derive_tables
from figgen.schema.elements import ElementDecl, mark
from figgen.vqa import describe_record, questions_for_record
from tests.multichart.graphs import data, image, spec


def test_the_element_tables_are_the_schema_lists() -> None:
    tables = element_tables()
    shared = ["figure", "panel", "title", "xlabel", "ylabel", "xtick_label", "ytick_label"]
    shared += ["offset_text", "legend", "legend_entry", "colorbar", "colorbar_label"]
    marks = ["line", "marker", "errorbar", "bar", "point", "contour_level", "contour_band"]
    drawn_texts = ["wedge_label", "table_header", "row_label", "table_cell"]
    boxes = ["box", "median_line", "whisker", "cap", "outlier"]
    later = ["cell", "cell_text", "region", "region_label"]  # heatmap, map
    assert tables.names == (
        *shared,
        "colorbar_tick_label",
        *marks,
        "wedge",
        *drawn_texts,
        *boxes,
        "band",
        "range_bar",
        *later,
    )
    drawn_texts += ["cell_text", "region_label"]
    marks.append("cell")
    assert tables.mark_text == set(drawn_texts)
    shared_texts = {"title", "xlabel", "ylabel", "xtick_label", "ytick_label", "offset_text"}
    shared_texts |= {"legend_entry", "colorbar_label", "colorbar_tick_label"}
    assert tables.text == shared_texts | set(drawn_texts)
    assert tables.layout == {"figure", "panel", "legend", "colorbar"}
    assert tables.marks == {*marks, *boxes, "band", "range_bar"}  # a wedge is a region of its own
    assert tables.off_ink == {"line", "contour_level", "contour_band", "band", "region"}
    assert len(set(tables.colours.values())) == len(tables.colours) - 2  # axis labels, ticks
    assert tables.text_groups["xtick_label"] == "xticks"


def test_every_mark_a_kind_draws_is_declared_by_it() -> None:
    drawn = {
        "line": {"line", "marker", "errorbar"},
        "histogram": {"bar", "errorbar"},
        "scatter": {"point", "errorbar"},
        "contour": {"contour_level", "contour_band"},
        "bar": {"bar"},
        "pie": {"wedge", "wedge_label"},
        "table": {"table_header", "row_label", "table_cell"},
        "box": {"box", "median_line", "whisker", "cap", "outlier"},
        "range": {"band", "line", "range_bar"},
        "heatmap": {"cell", "cell_text"},
        "map": {"region", "region_label"},
    }
    assert {name: {d.name for d in kind.elements} for name, kind in KINDS.items()} == drawn


class _Clash(KindHooks):
    name = "clash"
    elements = (mark("bar", "#000001"),)


def test_a_mark_declared_twice_differently_is_refused() -> None:
    with pytest.raises(ValueError, match="element kind 'bar' of plot kind 'clash'"):
        derive_tables([*KINDS.values(), _Clash()])  # type: ignore[list-item]
    assert element_tables().colours["bar"] == "#ff4500"


def test_a_kind_is_registered_once() -> None:
    with pytest.raises(ValueError, match="plot kind 'line' is registered twice"):
        register(KINDS["line"])


def test_the_longchart_charts_come_from_the_kinds() -> None:
    assert list(multichart_kinds()) == [
        "line",
        "histogram",
        "scatter",
        "bar",
        "stacked_bar",
        "pie",
        "table",
        "box",
        "range",
    ]
    assert multichart_kind("stacked_bar") is KINDS["bar"]
    with pytest.raises(
        FiggenError, match="unknown chart kind 'radar'; known: line, histogram, scatter, bar"
    ):
        multichart_kind("radar")


def test_an_unknown_chart_in_a_graph_spec_names_the_known_ones() -> None:
    from figgen.multichart.graph import spec_from_dict

    with pytest.raises(ConfigError) as info:
        spec_from_dict(spec({"a": data(), "i": image("radar", "a")}))
    known = "line, histogram, scatter, bar, stacked_bar, pie, table, box or range"
    assert f"node 'i': an image needs kind = {known}, not 'radar'" in str(info.value)


def test_a_chart_refuses_inputs_it_cannot_show() -> None:
    from figgen.multichart.graph import spec_from_dict

    with pytest.raises(ConfigError, match=r"image 'i' \(pie\) shows exactly one vector"):
        spec_from_dict(spec({"a": data(), "b": data(), "i": image("pie", "a", "b")}))


def test_the_declaration_is_a_plain_value() -> None:
    assert mark("x", "#123456") == ElementDecl("x", "#123456", series_region=True)


@pytest.mark.parametrize("kind", [name for name, kind in KINDS.items() if not kind.draws_axes])
def test_kinds_without_axes_get_no_axis_questions_or_sentences(kind: str) -> None:
    """A kind that draws no axes (pie, table: set_axis_off; map) has nothing asked or told of
    axis labels or scales."""
    cfg = config_from_dict({"kinds": {kind: 1.0}})
    titled = 0
    for index in range(3):
        figure = generate_figure(cfg, 0, index)
        drawn = {e.kind for e in figure.record.elements}
        assert not drawn & {"xlabel", "ylabel", "xtick_label", "ytick_label"}
        for panel in figure.record.panels:
            assert panel.xlabel is None and panel.ylabel is None
            titled += bool(panel.title)
        families = {item.family for item in questions_for_record(figure.record)}
        assert not families & {"xlabel", "ylabel", "axis_scale", "tick_values"}
        texts = " ".join(row["text"] for row in describe_record(figure.record))
        assert " axis is " not in texts
    assert titled  # titles are drawn with the axes off, and still asked
