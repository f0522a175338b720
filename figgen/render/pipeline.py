"""The render loop: spec -> figure -> measured elements -> repaired layout -> PNG, in one draw."""

from __future__ import annotations

import logging
import warnings
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from figgen.config.load import FigureConfig
from figgen.errors import RepairFailed
from figgen.render.boxes import intersect
from figgen.render.canvas import build_figure, encode_png, style_context
from figgen.render.elements import measure
from figgen.render.png import PngSettings
from figgen.render.repair import find_problems, plan_repair
from figgen.render.tick_memo import memoize_ticks
from figgen.render.visibility import measure_visibility, panel_view
from figgen.schema.elements import Element
from figgen.schema.spec import FigureSpec

log = logging.getLogger(__name__)


@dataclass
class Rendered:
    spec: FigureSpec
    png: bytes
    width: int
    height: int
    elements: list[Element]
    repair: dict[str, Any] = field(default_factory=dict)


def render(spec: FigureSpec, cfg: FigureConfig) -> Rendered:
    """Draw ``spec``, repairing overlaps on the measured boxes, and encode the PNG.

    Each pass is one ordinary draw (layout engine and raster), then every box is measured
    on what was drawn; a clean pass is encoded as it stands, so the PNG and the boxes come
    from one draw and a figure that needs no repair costs one draw, like a bare ``savefig``.
    ``spec`` itself is never edited: a repair edits a copy, made when the first one is needed.
    """
    original = spec
    actions: list[dict[str, Any]] = []
    for attempt in range(cfg.repair_attempts + 1):
        with style_context(spec.style):
            fig, handles = build_figure(spec)
            memoize_ticks(fig)
            with warnings.catch_warnings():
                # crowded text can collapse the layout engine's axes; the panels then keep
                # their grid positions and the boxes measured below say whether that is clean
                warnings.filterwarnings("ignore", "constrained_layout not applied")
                fig.canvas.draw()
            measured = measure(fig, handles)
            problems = find_problems(measured, spec)
            if not problems:
                png = encode_png(fig, PngSettings.of(cfg.image))
                width, height = fig.canvas.get_width_height()
                elements = _clip(measured.elements)
                measure_visibility(
                    elements,
                    measured.colors,
                    np.asarray(fig.canvas.buffer_rgba()),  # type: ignore[attr-defined]
                    {h.index: panel_view(h.ax, h.snapshot, height) for h in handles},
                    {e.panel: e.background for e in elements if e.kind == "panel"},
                    edges=measured.edges,
                )
                return Rendered(
                    spec,
                    png,
                    width,
                    height,
                    elements,
                    {"attempts": attempt + 1, "actions": actions},
                )
            if spec is original:
                spec = spec.copy()
            step = plan_repair(spec, problems, measured, cfg)
        log.debug("%s pass %d: %d problems, actions %s", spec.id, attempt, len(problems), step)
        if not step:
            break
        actions += [{"pass": attempt, **action} for action in step]
    first = problems[0].describe()
    raise RepairFailed(f"{spec.id}: {len(problems)} layout problems left, e.g. {first}")


def _clip(elements: list[Element]) -> list[Element]:
    """Clip every box to the canvas (text boxes are already inside on a clean layout)."""
    canvas = elements[0].bbox
    for element in elements:
        element.bbox = intersect(element.bbox, canvas) or element.bbox
    return elements
