"""Over a few hundred default-config figures: no overlaps, repairs logged, few resamples."""

from __future__ import annotations

import pytest

from figgen.build.figure import generate_figure
from figgen.config.load import FigureConfig
from figgen.render.boxes import inside, overlaps

TEXT = {
    "title",
    "xlabel",
    "ylabel",
    "xtick_label",
    "ytick_label",
    "offset_text",
    "colorbar_label",
    "colorbar_tick_label",
    "legend",
}


@pytest.mark.slow
@pytest.mark.timeout(1800)
@pytest.mark.parametrize(
    ("n", "panels"),
    [(240, {"count": [1, 6]}), (40, {})],  # many small figures, then the default 1-25 panels
)
def test_few_hundred_figures_have_no_overlaps(n: int, panels: dict) -> None:
    # Low dpi: layout is decided in points, so every layout decision is kept at a fraction
    # of the pixels.
    cfg = FigureConfig.model_validate({"image": {"dpi": [40, 60]}, "panels": panels})
    repaired, resampled = 0, 0
    for index in range(n):
        record = generate_figure(cfg, 99 + len(panels), index).record
        elements = record.elements
        canvas = elements[0].bbox
        texts = [e for e in elements if e.kind in TEXT]
        areas = [e for e in elements if e.kind == "panel"]
        for i, a in enumerate(texts):
            assert inside(a.bbox, canvas), (record.id, a)
            for b in texts[i + 1 :]:
                assert not overlaps(a.bbox, b.bbox), (record.id, a, b)
            for area in areas:
                if area.panel != a.panel:
                    assert not overlaps(a.bbox, area.bbox), (record.id, a, area)
        repair = record.repair
        repaired += bool(repair["actions"])
        resampled += bool(repair["resampled"])
        for action in repair["actions"]:
            assert {"pass", "action"} <= set(action)
    assert repaired > 0  # crowded figures occur and are repaired in place ...
    assert resampled <= 0.05 * n  # ... and only rarely redrawn from a derived seed
