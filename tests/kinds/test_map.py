"""The map kind: region shapes, sampling, drawing, boxes and questions, checked independently
(centroids from shapely, fits from scikit-learn, counts by hand)."""

from __future__ import annotations

import io
import re
from collections import Counter, defaultdict

import matplotlib as mpl
import numpy as np
import pytest
import shapefile
from PIL import Image
from shapely.geometry import shape as to_shapely
from sklearn.linear_model import LinearRegression

from figgen.build.figure import GeneratedFigure, generate_figure
from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig, config_from_dict
from figgen.errors import FiggenError
from figgen.kinds import map_regions as regions
from figgen.kinds.choropleth import MapData
from figgen.schema.elements import Element
from figgen.schema.panel import PanelRecord
from figgen.schema.record import spec_from_record
from figgen.vqa import QAItem, describe_record, questions_for_record
from tests.kinds.figures import elements_of, panels_of

MAPS_ONLY = {
    "kinds": {"map": 1.0},
    "panels": {"mean": 1.0, "std": 1.0, "count": [1, 2]},
    "image": {"dpi": [100, 140], "panel_inches": [3.6, 4.4]},
}


@pytest.fixture(scope="module")
def config() -> FigureConfig:
    return config_from_dict(MAPS_ONLY)


@pytest.fixture(scope="module")
def figures(config: FigureConfig) -> list[GeneratedFigure]:
    return [generate_figure(config, 4, i) for i in range(10)]


def _data(panel: PanelRecord) -> MapData:
    return panel.data_as(MapData)


def _elements(figure: GeneratedFigure, panel: PanelRecord, kind: str) -> list[Element]:
    return [e for e in elements_of(figure, panel) if e.kind == kind]


def _labelled(figure: GeneratedFigure, panel: PanelRecord) -> list[int]:
    return sorted(e.item for e in _elements(figure, panel, "region_label") if e.item is not None)


def test_region_sets_come_from_the_installed_package() -> None:
    us = regions.region_set("us48")
    assert len(us) == 48 and len({r.label for r in us}) == 48
    parts = ["us_west", "us_midwest", "us_south", "us_northeast"]
    assert sorted(r.label for p in parts for r in regions.region_set(p)) == sorted(
        r.label for r in us
    )
    assert {"CA", "TX", "NY", "FL"} <= {r.label for r in us}
    mexico = regions.region_set("mexico")
    assert len(mexico) == 32 and "Jalisco" in {r.label for r in mexico}
    # the same shapes as read by shapely: centroids agree
    reader = shapefile.Reader(str(regions.examples_folder() / "us_income/us48"))
    texas = next(
        s for s, rec in zip(reader.shapes(), reader.records(), strict=True) if rec[7] == "TX"
    )
    ours = next(r for r in us if r.label == "TX").centroid()
    theirs = to_shapely(texas.__geo_interface__).centroid
    assert ours == pytest.approx((theirs.x, theirs.y), abs=0.05)


def test_a_missing_package_gives_the_install_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(regions.importlib.util, "find_spec", lambda name: None)
    with pytest.raises(FiggenError, match=r"pip install 'figgen\[maps\]'"):
        regions.examples_folder()
    with pytest.raises(FiggenError, match="unknown region set 'mars'; sets: us48"):
        regions.region_set("mars")


def test_the_default_mix_never_draws_maps() -> None:
    assert FigureConfig().kinds["map"] == 0.0


def test_sampled_maps_vary(config: FigureConfig) -> None:
    panels = [p for i in range(40) for p in sample_figure(config, 1, i).panels]
    assert {p.kind for p in panels} == {"map"}
    assert {p.data["region_set"] for p in panels} == set(regions.REGION_SETS)
    assert {p.data["scheme"] for p in panels} == {"continuous", "classed"}
    assert {p.distribution for p in panels} == {"linear", "gmm", "random"}
    for p in panels:
        labels = [r.label for r in regions.region_set(p.data["region_set"])]
        assert p.data["regions"] == labels and len(p.data["values"]) == len(labels)
        assert p.xlabel is None and p.ylabel is None  # a map draws no axes to label
        if p.data["scheme"] == "classed":
            bins = p.data["bins"]
            assert bins == sorted(bins) and bins[0] <= min(p.data["values"])
            assert max(p.data["values"]) <= bins[-1] and len(bins) >= 3


def _room(region_set: str) -> list[int]:
    """The regions in the top quarter by area (shapely's area of the largest ring; the
    projection scales every area alike)."""
    from shapely.geometry import Polygon

    rings = [r.rings for r in regions.region_set(region_set)]
    area = np.array([max(Polygon(ring).area for ring in shape) for shape in rings])
    return [int(i) for i in np.flatnonzero(area >= np.quantile(area, 0.75))]


def test_the_largest_value_sits_on_a_region_with_room_for_its_label(config: FigureConfig) -> None:
    """Off trends, the sampled maximum lies on a region in the top quarter by area, so its
    name label can fit, drawn evenly among them: no large region is a likelier answer."""
    panels = [
        p
        for i in range(600)
        for p in sample_figure(config, 2, i).panels
        if p.distribution != "linear"
    ]
    peaks: dict[str, Counter[int]] = defaultdict(Counter)
    for p in panels:
        values = np.array(p.data["values"])
        room = _room(p.data["region_set"])
        tops = [int(i) for i in np.flatnonzero(values == values.max())]  # ties at 3 digits
        assert set(tops) & set(room), p.data["region_set"]
        peaks[p.data["region_set"]].update(i for i in tops if i in room)
    for name, counts in peaks.items():
        room, n = _room(name), sum(counts.values())
        assert set(counts) == set(room), name  # every large region gets the maximum
        assert max(counts.values()) <= 2.5 * n / len(room), (name, counts)


def test_the_number_of_classes_is_drawn_evenly(config: FigureConfig) -> None:
    """A classed map has as many classes as drawn from ``classes`` (3-6): the answer to
    "how many classes" is not left to where round numbers fall."""
    panels = [p for i in range(240) for p in sample_figure(config, 3, i).panels]
    counts = Counter(len(p.data["bins"]) - 1 for p in panels if p.data["scheme"] == "classed")
    n = sum(counts.values())
    assert set(counts) == {3, 4, 5, 6} and max(counts.values()) <= 0.4 * n, counts


def test_the_record_renders_again_to_the_same_image(figures: list[GeneratedFigure]) -> None:
    from figgen.render import render

    figure = figures[0]
    again = render(spec_from_record(figure.record), config_from_dict(MAPS_ONLY))
    assert again.png == figure.png


def _fill(panel: PanelRecord, i: int) -> np.ndarray:
    """A region's colour, recomputed from the data and the colour map."""
    data, cmap = _data(panel), mpl.colormaps[panel.stored_style["colormap"]]
    values = np.array(data.values)
    if data.scheme == "classed":
        k = len(data.bins) - 1
        j = min(int(np.searchsorted(data.bins, values[i], side="right")) - 1, k - 1)
        share = (j + 0.5) / k
    else:
        share = (values[i] - values.min()) / np.ptp(values)
    return np.round(np.array(cmap(share)[:3]) * 255)


def test_every_region_is_boxed_over_its_fill(figures: list[GeneratedFigure]) -> None:
    for figure, panel in panels_of(figures):
        pixels = np.asarray(Image.open(io.BytesIO(figure.png)).convert("RGB")).astype(int)
        boxes = {e.item: e for e in _elements(figure, panel, "region")}
        assert set(boxes) == set(range(len(_data(panel).regions)))
        named = _labelled(figure, panel)
        for i, e in boxes.items():
            assert e.value == [_data(panel).values[i]]
            x0, y0, x1, y1 = (int(v) for v in e.bbox)
            patch = pixels[y0:y1, x0:x1].reshape(-1, 3)
            shows = bool((np.abs(patch - _fill(panel, i)).max(axis=1) <= 3).any())
            # a region lost under its outline (Mexico City at low dpi) is never named: every
            # labelled region shows its fill
            assert shows or i not in named, i


def test_labels_print_region_names_inside_their_regions(figures: list[GeneratedFigure]) -> None:
    printed = 0
    for figure, panel in panels_of(figures):
        boxes = {e.item: e.bbox for e in _elements(figure, panel, "region")}
        for e in _elements(figure, panel, "region_label"):
            assert e.text == _data(panel).regions[e.item]
            x0, y0, x1, y1 = boxes[e.item]
            tx0, ty0, tx1, ty1 = e.bbox
            assert x0 - 1 <= tx0 and tx1 <= x1 + 1 and y0 - 1 <= ty0 and ty1 <= y1 + 1
            printed += 1
    assert printed


def test_classed_legends_list_the_bins(figures: list[GeneratedFigure]) -> None:
    seen = 0
    for figure, panel in panels_of(figures):
        if _data(panel).scheme != "classed":
            continue
        entries = [e.text for e in _elements(figure, panel, "legend_entry")]
        bins = _data(panel).bins
        assert [tuple(float(v.replace(",", "")) for v in t.split(" to ")) for t in entries] == list(
            zip(bins[:-1], bins[1:], strict=True)
        )
        seen += 1
    assert seen


def _items(
    figures: list[GeneratedFigure], family: str
) -> list[tuple[GeneratedFigure, PanelRecord, QAItem]]:
    out = []
    for figure in figures:
        record = figure.record
        out += [
            (figure, record.panel(item.panel), item)
            for item in questions_for_record(figure.record)
            if item.family == family and item.panel is not None
        ]
    return out


def test_no_axis_questions_on_maps(figures: list[GeneratedFigure]) -> None:
    for family in ("axis_scale", "xlabel", "ylabel", "tick_values"):
        assert not _items(figures, family)


def test_map_classes(figures: list[GeneratedFigure]) -> None:
    items = _items(figures, "map_classes")
    assert items
    for figure, panel, item in items:
        assert item.answer == len(_elements(figure, panel, "legend_entry"))


def test_largest_labelled_region(figures: list[GeneratedFigure]) -> None:
    items = _items(figures, "max_region")
    assert items
    for figure, panel, item in items:
        values, names = _data(panel).values, _data(panel).regions
        named = _labelled(figure, panel)
        assert panel.distribution != "linear"  # a trend's end is where its direction says
        room = _room(_data(panel).region_set)  # where the sampler puts the maximum
        assert item.choices == [names[i] for i in named if i in room]
        best = max(range(len(values)), key=values.__getitem__)
        assert item.answer == names[best] and best in named  # the largest on the whole map


def test_regions_at_or_above_a_threshold(figures: list[GeneratedFigure]) -> None:
    items = _items(figures, "regions_above")
    assert items
    for figure, panel, item in items:
        match = re.search(r"value of ([\d,.]+) or more", item.question)
        assert match is not None
        threshold = float(match.group(1).replace(",", ""))
        values = _data(panel).values
        named = _labelled(figure, panel)
        assert item.answer == sum(1 for i in named if values[i] >= threshold)
        if _data(panel).scheme == "classed":
            assert threshold in _data(panel).bins
        else:  # no labelled region sits near the threshold on the colour bar
            span = max(values) - min(values)
            assert min(abs(values[i] - threshold) for i in named) >= 0.15 * span


def test_map_gradient_against_a_least_squares_fit(figures: list[GeneratedFigure]) -> None:
    items = _items(figures, "map_gradient")
    assert items
    for _, panel, item in items:
        assert panel.distribution == "linear"  # asked where the direction is drawn evenly
        shapes = regions.region_set(_data(panel).region_set)
        lat = np.concatenate([ring[:, 1] for r in shapes for ring in r.rings])
        squeeze = np.cos(np.radians((lat.min() + lat.max()) / 2))
        where = np.array([r.centroid() for r in shapes]) * [squeeze, 1.0]
        u = (where - where.min(axis=0)) / np.ptp(where, axis=0)
        values = np.array(_data(panel).values)
        if _data(panel).scheme == "classed":  # a reader sees classes, not values
            bins = _data(panel).bins
            values = np.clip(np.searchsorted(bins, values, side="right") - 1, 0, len(bins) - 2)
        fit = LinearRegression().fit(u, values)
        a, b = fit.coef_
        assert fit.score(u, values) >= 0.6
        if abs(a) > abs(b):
            assert item.answer == ("west to east" if a > 0 else "east to west")
        else:
            assert item.answer == ("south to north" if b > 0 else "north to south")


def test_descriptions_and_alt_text(figures: list[GeneratedFigure]) -> None:
    for figure in figures:
        rows = describe_record(figure.record)
        for panel in figure.record.panels:
            texts = {r["level"]: r for r in rows if r["panel"] == panel.index}
            assert "map of" in texts[1]["text"] and "axis" not in texts[1]["text"]
            assert texts[1]["alt_text"].startswith("Map")
            assert texts[2]["text"] and texts[3]["text"]


def test_a_lone_labelled_region_is_not_called_the_largest() -> None:
    """With one name label printed there is nothing to compare it with (a maps-only build
    crashed describing such a panel)."""
    from figgen.kinds.choropleth import max_region

    d = MapData("us_northeast", ["ME", "NY", "PA"], [1.0, 9.0, 2.0])
    assert max_region(d, [1]) is None
    assert max_region(d, [0, 1]) == 1
