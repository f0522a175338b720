"""One figure end to end: sample, render with repair, resample if needed, build the record."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from figgen import __version__
from figgen.compose import sample_figure
from figgen.config import FigureConfig
from figgen.errors import FiggenError
from figgen.record import dumps_record, make_record
from figgen.render import RepairFailed, render
from figgen.sample.text import Vocabulary

log = logging.getLogger(__name__)


@dataclass
class GeneratedFigure:
    record: dict[str, Any]
    png: bytes

    @property
    def record_json(self) -> str:
        return dumps_record(self.record)


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
            rendered = render(spec, cfg)
        except (RepairFailed, ValueError) as exc:
            # ValueError: matplotlib could not lay out some text (e.g. mathtext); resample.
            log.info("%s attempt %d resampled: %s", spec.id, attempt, exc)
            resampled.append({"attempt": attempt, "reason": str(exc).splitlines()[0][:200]})
            continue
        repair = {**rendered.repair, "resampled": resampled}
        record = make_record(
            rendered.spec,
            elements=rendered.elements,
            width=rendered.width,
            height=rendered.height,
            repair=repair,
            generator_version=__version__,
            image_file=f"figures/{spec.id}.png",
        )
        return GeneratedFigure(record, rendered.png)
    raise FiggenError(
        f"figure {index} of seed {seed} could not be laid out in {len(resampled)} attempts; "
        "loosen the font or panel ranges in the config"
    )
