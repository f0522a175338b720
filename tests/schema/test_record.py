"""The typed record layer reads a stored record and writes back exactly the same JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from figgen.build.figure import generate_figure
from figgen.config.load import FigureConfig
from figgen.kinds import KINDS
from figgen.kinds.line import LineStyle
from figgen.schema.record import dumps_record, load_record
from figgen.schema.records import PANEL_DATA, PANEL_STYLE, Record


def _same_after_round_trip(stored: dict[str, Any]) -> None:
    typed = Record.from_dict(stored)
    assert dumps_record(typed.to_dict()) == dumps_record(stored)
    for panel, saved in zip(typed.panels, stored["panels"], strict=True):
        assert dumps_record(panel.data.to_dict()) == dumps_record(saved["data"])
        _same_style(panel.style_as(PANEL_STYLE[panel.kind]), saved["style"])


def _same_style(style: Any, saved: dict[str, Any]) -> None:
    """The typed style writes back the stored dict, key order included, and names every key."""
    assert list(style.to_dict().items()) == list(saved.items())
    assert style.extra == {}  # no stored key outside the kind's (and the tick) fields
    for key, value in saved.items():
        assert getattr(style, key) == value == style.to_dict()[key]


def test_every_kind_registers_its_data_and_style_classes() -> None:
    assert set(PANEL_DATA) == set(KINDS) == set(PANEL_STYLE)


def test_records_of_a_build_round_trip(small_build: Path) -> None:
    paths = sorted((small_build / "figures").glob("*.json"))
    assert paths
    for path in paths:
        _same_after_round_trip(load_record(path))


def test_every_kind_round_trips(small_config: FigureConfig) -> None:
    """A figure of each kind (the default build draws only some kinds) survives the round trip."""
    for name in KINDS:
        cfg = small_config.model_copy(update={"kinds": {name: 1.0}})
        record = json.loads(generate_figure(cfg, 3, 0).record_json)
        assert {panel["kind"] for panel in record["panels"]} == {name}
        typed = Record.from_dict(record)
        assert {type(panel.data) for panel in typed.panels} == {PANEL_DATA[name]}
        assert {type(panel.style) for panel in typed.panels} == {PANEL_STYLE[name]}
        _same_after_round_trip(record)


def test_a_built_style_writes_its_fields_in_order_then_the_ticks_set() -> None:
    style = LineStyle(marker=None, linewidth=2.0, legend=True, y_nbins=4, x_nbins=3)
    assert list(style.to_dict()) == [
        *("marker", "markersize", "linewidth", "capsize", "legend", "legend_loc", "grid"),
        *("x_nbins", "y_nbins"),
    ]
    assert style.to_dict()["marker"] is None  # a None field of the kind is stored, as sampled


def test_a_read_style_keeps_the_stored_keys_and_their_order() -> None:
    # repair appends its tick settings in the order it made them, after the sampled keys
    stored = {"marker": "o", "linewidth": 1.5, "x_minor_labels": False, "x_nbins": 3, "odd": 1}
    style = LineStyle.from_dict(stored)
    assert list(style.to_dict().items()) == list(stored.items())
    assert (style.x_nbins, style.x_minor_labels, style.extra) == (3, False, {"odd": 1})
    # a field that was not stored reads as its default and is not written back
    assert style.markersize == LineStyle().markersize and "markersize" not in style.to_dict()
    assert "legend" not in style.to_dict() and style.extra == {"odd": 1}


def test_typed_fields_read_what_is_stored(small_build: Path) -> None:
    stored = load_record(next((small_build / "figures").glob("*.json")))
    typed = Record.from_dict(stored)
    assert typed.image.width == stored["image"]["width"]
    assert typed.layout.rows == stored["layout"]["rows"]
    assert [p.kind for p in typed.panels] == [p["kind"] for p in stored["panels"]]
    assert [tuple(e.bbox) for e in typed.elements] == [tuple(e["bbox"]) for e in stored["elements"]]


def test_a_foreign_kind_is_a_one_line_error(small_build: Path) -> None:
    from figgen.errors import FiggenError

    stored = load_record(next((small_build / "figures").glob("*.json")))
    stored["panels"][0]["kind"] = "sunburst"
    typed = Record.from_dict(stored)  # evaluation reads a record without its data
    with pytest.raises(FiggenError, match="unknown plot kind 'sunburst'; known: line"):
        typed.panels[0].data  # noqa: B018


@pytest.mark.slow
def test_records_of_a_reference_build_round_trip() -> None:
    """Over every record of the build named by ``FIGGEN_REFERENCE_BUILD`` (e.g. the 200 of
    ``figgen build --n 200 --seed 0``), where one is named."""
    build = os.environ.get("FIGGEN_REFERENCE_BUILD")
    if not build:
        pytest.skip("set FIGGEN_REFERENCE_BUILD to a build directory")
    paths = sorted((Path(build) / "figures").glob("*.json"))
    assert paths
    for path in paths:
        _same_after_round_trip(load_record(path))
