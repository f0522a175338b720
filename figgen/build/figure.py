"""One figure end to end: sample, render with repair, resample if needed, build the record.

:func:`render_to_record` is the one place a spec becomes a PNG and its record: the build, the
density benchmark's re-drawn panels, LongChart images and restyled perturbations all call it.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from figgen._util.version import __version__
from figgen.build.sampling import sample_figure
from figgen.config.load import FigureConfig
from figgen.errors import FiggenError, RepairFailed
from figgen.render.pipeline import render
from figgen.sample.text import Vocabulary
from figgen.schema.record import Record, make_record
from figgen.schema.spec import FigureSpec

log = logging.getLogger(__name__)


@dataclass
class GeneratedFigure:
    """A rendered figure: its record and its PNG."""

    record: Record
    png: bytes

    @property
    def record_json(self) -> str:
        """The record as it is stored."""
        return self.record.to_json()


def generate_figure(
    cfg: FigureConfig,
    seed: int,
    index: int,
    *,
    vocab: Vocabulary | None = None,
) -> GeneratedFigure:
    """Figure ``index`` of the build with ``seed``: identical bytes wherever it runs."""
    resampled: list[dict[str, Any]] = []
    for attempt in range(cfg.resample_attempts + 1):
        spec = sample_figure(cfg, seed, index, attempt=attempt, vocab=vocab)
        try:
            return render_to_record(
                spec, cfg, image_file=f"figures/{spec.id}.png", resampled=resampled
            )
        except (RepairFailed, ValueError) as exc:
            # ValueError: matplotlib could not lay out some text (e.g. mathtext); resample.
            log.info("%s attempt %d resampled: %s", spec.id, attempt, exc)
            resampled.append({"attempt": attempt, "reason": str(exc).splitlines()[0][:200]})
    raise FiggenError(
        f"figure {index} of seed {seed} could not be laid out in {len(resampled)} attempts; "
        "loosen the font or panel ranges in the config"
    )


def render_to_record(
    spec: FigureSpec,
    cfg: FigureConfig,
    *,
    image_file: str,
    resampled: list[dict[str, Any]] | None = None,
) -> GeneratedFigure:
    """Draw ``spec`` (with layout repair) and build its record, whose image is ``image_file``.

    ``resampled`` lists the attempts before this one in the record's repair log (a build's
    figures keep it; figures re-drawn from a stored spec have none).
    """
    rendered = render(spec, cfg)
    repair = rendered.repair if resampled is None else {**rendered.repair, "resampled": resampled}
    record = make_record(
        rendered.spec,
        elements=rendered.elements,
        width=rendered.width,
        height=rendered.height,
        repair=repair,
        generator_version=__version__,
        image_file=image_file,
    )
    return GeneratedFigure(record, rendered.png)
