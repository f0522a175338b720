"""Pie panels: every wedge and label boxed inside the canvas, labels off the disc."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from figgen.build.figure import generate_figure
from figgen.config.load import FigureConfig, config_from_dict
from figgen.render import render
from tests.kinds.figures import one_panel_spec


def test_pie_wedges_and_labels():
    data = {
        "labels": ["North", "South", "East"],
        "values": [10.0, 30.0, 60.0],
        "colors": ["#ff0000", "#00ff00", "#0000ff"],
        "decimals": 1,
    }
    out = render(one_panel_spec("pie", data), FigureConfig())
    wedges = [e for e in out.elements if e.kind == "wedge"]
    labels = [e for e in out.elements if e.kind == "wedge_label"]
    assert [e.item for e in wedges] == [0, 1, 2] and [e.value for e in wedges] == [
        [10.0],
        [30.0],
        [60.0],
    ]
    assert [e.text for e in labels] == ["North\n10.0", "South\n30.0", "East\n60.0"]
    assert not any(e.kind.endswith("tick_label") for e in out.elements)
    pixels = np.asarray(Image.open(io.BytesIO(out.png)).convert("RGB"))
    blue = (pixels[..., 2] > 200) & (pixels[..., 0] < 60) & (pixels[..., 1] < 60)
    x0, y0, x1, y1 = map(int, wedges[2].bbox)
    inside = blue[y0:y1, x0:x1].sum()
    assert inside == blue.sum() > 0  # every pixel of the blue wedge is inside its box
    for e in out.elements:
        assert (
            0 <= e.bbox[0] <= e.bbox[2] <= out.width and 0 <= e.bbox[1] <= e.bbox[3] <= out.height
        )


def _overlap(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])


def test_wedge_labels_stay_off_the_pie_and_under_the_title() -> None:
    """Every label box lies outside the pie's disc (its text on the background, not on a
    wedge's colour) and clear of its panel's title, at any font size (6-20 pt) and panel
    size, and labels rarely collide; the disc is read from the wedges' boxes, whose union
    bounds it."""
    cfg = config_from_dict(
        {
            "kinds": {"pie": 1.0},
            "panels": {"mean": 2.0, "std": 1.0, "count": [1, 4]},
            "fonts": {"title": [8, 20], "tick": [6, 20]},
        }
    )
    checked = collisions = 0
    for i in range(8):
        figure = generate_figure(cfg, 11, i)
        elements = figure.record.elements
        for panel in {e.panel for e in elements if e.kind == "wedge"}:
            mine = [e for e in elements if e.panel == panel]
            boxes = np.array([e.bbox for e in mine if e.kind == "wedge"])
            left, top = boxes[:, :2].min(axis=0)
            right, bottom = boxes[:, 2:].max(axis=0)
            centre = np.array([(left + right) / 2, (top + bottom) / 2])
            radius = (right - left) / 2
            titles = [e.bbox for e in mine if e.kind == "title"]
            labels = [e for e in mine if e.kind == "wedge_label"]
            boxes_of = [e.bbox for e in labels]
            for j, a in enumerate(boxes_of):
                collisions += sum(_overlap(a, b) for b in boxes_of[j + 1 :])
            for label in labels:
                x0, y0, x1, y1 = label.bbox
                nearest = np.clip(centre, [x0, y0], [x1, y1])  # the box's point nearest the centre
                assert np.hypot(*(nearest - centre)) >= radius - 1.0, (figure.record.id, label)
                assert not any(_overlap(label.bbox, t) for t in titles), label.text
                checked += 1
    assert checked >= 40
    # labels shrink to 6 pt before they collide; two thin wedges side by side still can: one
    # pair of 200 in these 20 pies (4 pairs when labels were centred at a fixed distance)
    assert collisions <= 1
