"""Grounded and pointed prompts: answer, and show where in the image the answer comes from.

``plain`` asks the question alone. ``grounded`` also asks for the box(es) of the evidence,
``pointed`` for one point per evidence element, both in pixels of the image actually sent
(a downscaled image gets its own size in the prompt). Scoring turns the reply's coordinates
back into pixels of the stored PNG and compares them with the evidence of the record
(``figgen.eval.grounding.evidence``): mean DIoU for boxes, Chamfer distance over the image diagonal
for points.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, get_args

from figgen.errors import FiggenError
from figgen.eval.grounding.coords import Located, Shape, locate
from figgen.eval.grounding.evidence import EvidenceTarget
from figgen.eval.grounding.geometry import matched_diou, normalised_chamfer

PromptMode = Literal["plain", "grounded", "pointed"]
PROMPT_MODES: tuple[PromptMode, ...] = get_args(PromptMode)
BOXES_KEY = "boxes"
POINTS_KEY = "points"


def prompt_mode(text: str) -> PromptMode:
    """``--prompt`` checked against the modes."""
    if text not in PROMPT_MODES:
        raise FiggenError(f"--prompt {text!r} is not one of {', '.join(PROMPT_MODES)}")
    return text


def _frame(width: int, height: int) -> str:
    return (
        f"The image is {width} pixels wide and {height} pixels high. Use pixel coordinates of "
        f"this image with the origin at the top-left pixel (0, 0), x increasing to the right "
        f"(0 to {width}) and y increasing downwards (0 to {height})."
    )


def mode_instruction(mode: PromptMode, width: int, height: int) -> str:
    """The text appended to a question in ``mode`` for an image of ``width`` x ``height``."""
    if mode == "plain":
        return ""
    if mode == "grounded":
        ask = (
            f"In the same JSON object, add {json.dumps(BOXES_KEY)}: a list of boxes "
            "[x_min, y_min, x_max, y_max] around the parts of the image your answer is read "
            "from, one box per region (for example the panel, the title, the tick labels of an "
            "axis, or all the marks of one series together)."
        )
    else:
        ask = (
            f"In the same JSON object, add {json.dumps(POINTS_KEY)}: a list of points [x, y], "
            "one at the centre of each element your answer is read from (each bar, point or "
            "marker, each text label, each panel)."
        )
    return f"{ask} {_frame(width, height)}"


def with_mode(text: str, mode: PromptMode, width: int, height: int) -> str:
    """A plain prompt text extended for ``mode``."""
    extra = mode_instruction(mode, width, height)
    return f"{text}\n\n{extra}" if extra else text


def oracle_extra(mode: PromptMode, target: EvidenceTarget | None) -> dict[str, Any]:
    """What a perfect model adds to its JSON reply in ``mode`` (target in the image sent)."""
    if mode == "grounded" and target is not None:
        return {BOXES_KEY: [list(b) for b in target.boxes]}
    if mode == "pointed" and target is not None:
        return {POINTS_KEY: [list(p) for p in target.points]}
    return {}


@dataclass(frozen=True)
class LocationScore:
    """How well one reply located its evidence: DIoU (grounded) or Chamfer (pointed).

    ``value`` is None when the item has no usable evidence (``eligible`` False) or when the
    reply gave no readable coordinates (``rejected``).
    """

    mode: PromptMode
    value: float | None
    eligible: bool
    rejected: bool = False
    frame: str | None = None
    reason: str | None = None


def sent_size(row: dict[str, Any], width: int, height: int) -> tuple[int, int]:
    """The size of the image a row's reply saw: recorded, or the stored size times the scale."""
    size = row.get("image_size")
    if isinstance(size, list | tuple) and len(size) == 2:
        return int(size[0]), int(size[1])
    scale = float(row.get("image_scale") or 1.0)
    return max(1, round(width * scale)), max(1, round(height * scale))


def score_location(
    mode: PromptMode, row: dict[str, Any], target: EvidenceTarget | None
) -> LocationScore:
    """Score the coordinates of one reply against the evidence in pixels of the stored PNG."""
    if target is None or (mode == "pointed" and not target.points):
        return LocationScore(mode, None, eligible=False)
    width, height = sent_size(row, target.width, target.height)
    shape: Shape = "boxes" if mode == "grounded" else "points"
    found: Located = locate(row.get("raw"), shape, width, height)
    if found.rejected:
        return LocationScore(mode, None, True, rejected=True, reason=found.reason)
    truth = target.in_image(width, height)
    if mode == "grounded":
        value = matched_diou(list(found.boxes), list(truth.boxes))
    else:
        value = normalised_chamfer(list(found.points), list(truth.points), width, height)
    return LocationScore(mode, value, True, frame=found.frame)
