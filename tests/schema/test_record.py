"""The typed record: the build writes it and readers read it as one type, JSON for JSON."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from figgen.build.figure import generate_figure
from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig
from figgen.errors import FiggenError
from figgen.kinds import KINDS
from figgen.kinds.line import LineStyle
from figgen.render import render
from figgen.schema.elements import Element
from figgen.schema.panel import PANEL_DATA, PANEL_STYLE
from figgen.schema.record import Record, make_record, open_record, read_record, spec_from_record
from figgen.schema.spec import FigureSpec


def _same_after_round_trip(text: str) -> None:
    """A stored record read and written back is the same JSON, byte for byte."""
    stored = json.loads(text)
    typed = Record.from_dict(stored)
    assert typed.to_dict() == stored
    assert typed.to_json() == text
    for panel, saved in zip(typed.panels, stored["panels"], strict=True):
        assert panel.data.to_dict() == saved["data"]
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
        _same_after_round_trip(path.read_text(encoding="utf-8"))


def test_every_kind_round_trips(small_config: FigureConfig) -> None:
    """A figure of each kind (the default build draws only some kinds) survives the round trip."""
    for name in KINDS:
        cfg = small_config.model_copy(update={"kinds": {name: 1.0}})
        figure = generate_figure(cfg, 3, 0)
        assert {panel.kind for panel in figure.record.panels} == {name}
        typed = read_record(figure.record_json, "new")
        assert {type(panel.data) for panel in typed.panels} == {PANEL_DATA[name]}
        assert {type(panel.style) for panel in typed.panels} == {PANEL_STYLE[name]}
        _same_after_round_trip(figure.record_json)


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
    path = next((small_build / "figures").glob("*.json"))
    stored, typed = json.loads(path.read_bytes()), open_record(path)
    assert typed.image.width == stored["image"]["width"]
    assert typed.layout.rows == stored["layout"]["rows"]
    assert [p.kind for p in typed.panels] == [p["kind"] for p in stored["panels"]]
    assert [tuple(e.bbox) for e in typed.elements] == [tuple(e["bbox"]) for e in stored["elements"]]


def test_a_foreign_kind_is_a_one_line_error(small_build: Path) -> None:
    stored = json.loads(next((small_build / "figures").glob("*.json")).read_bytes())
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
        _same_after_round_trip(path.read_text(encoding="utf-8"))


def _stored_form(spec: FigureSpec, elements: list[Element], repair: dict[str, Any]) -> str:
    """The record JSON as ``shared/DESIGN.md`` lays it out, written here from the spec alone:
    the spec's own JSON with its image facts gathered under ``image``, then the elements and
    the repair log."""
    values = spec.to_dict()
    image = {
        "file": "figures/x.png",
        "width": 640,
        "height": 480,
        **{key: values[key] for key in ("dpi", "width_in", "height_in", "panel_aspect")},
    }
    stored = {
        **{key: values[key] for key in ("id", "seed", "index", "attempt")},
        "generator": {"name": "figgen", "version": "9.9"},
        "image": image,
        **{key: values[key] for key in ("layout", "style", "panels")},
        "elements": [element.to_dict() for element in elements],
        "repair": repair,
    }
    return json.dumps(stored, ensure_ascii=False, separators=(",", ":"))


def test_a_made_record_is_the_stored_json_and_shares_nothing_with_its_spec(
    small_config: FigureConfig,
) -> None:
    """``make_record`` builds the typed record straight from the spec: its JSON is the one the
    record file holds, it reads back to the same JSON, and editing the spec leaves it alone."""
    for index in range(3):
        rendered = render(sample_figure(small_config, 4, index), small_config)
        repair = rendered.repair
        record = make_record(
            rendered.spec,
            elements=rendered.elements,
            width=640,
            height=480,
            repair=repair,
            generator_version="9.9",
            image_file="figures/x.png",
        )
        text = _stored_form(rendered.spec, rendered.elements, repair)
        assert record.to_json() == text
        _same_after_round_trip(text)
        assert spec_from_record(record).to_dict() == rendered.spec.to_dict()
        rendered.spec.panels[0].data.clear()
        rendered.spec.panels[0].style["edited"] = True
        assert record.to_json() == text


def test_the_figure_keeps_the_record_it_serialises(small_config: FigureConfig) -> None:
    figure = generate_figure(small_config, 2, 1)
    assert isinstance(figure.record, Record)
    assert figure.record_json == figure.record.to_json()
    assert read_record(figure.record_json, "new").to_dict() == figure.record.to_dict()


def test_a_record_of_the_wrong_shape_is_a_one_line_error(small_build: Path) -> None:
    """Parts of the right JSON type but the wrong shape are refused like a damaged file, in
    one line, not with a KeyError from deep inside the reader."""
    stored = json.loads(next((small_build / "figures").glob("*.json")).read_bytes())
    wrong = [
        {**stored, "image": {}},
        {**stored, "layout": {"rows": 1}},
        {**stored, "panels": [5]},
        {**stored, "elements": "abc"},
        {**stored, "style": []},
    ]
    for record in wrong:
        with pytest.raises(FiggenError, match=r"^bad\.json is not a figure record \(") as caught:
            read_record(json.dumps(record), "bad.json")
        assert "\n" not in str(caught.value) and "regenerate it" in str(caught.value)
    with pytest.raises(FiggenError, match=r"bad\.json is not a figure record \(bad 'image'\)"):
        read_record(json.dumps({**stored, "image": 5}), "bad.json")
    with pytest.raises(FiggenError, match=r"record bad\.json is damaged"):
        read_record(b"{", "bad.json")
    with pytest.raises(FiggenError, match="cannot read record"):
        open_record(small_build / "figures" / "missing.json")
