"""The density manifest: every compound's ordered source ids, grid and sub-chart boxes.

``DIR/manifest.json`` is the reference that scoring aligns predicted tables against; each
compound's image is ``DIR/figures/<id>.png`` beside a small record ``<id>.json``, which is
what :class:`figgen.eval.run.dataset.EvalDataset` reads to find and size the image.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from figgen.density.tables import ChartTable
from figgen.errors import FiggenError

Mode = Literal["paper", "native"]
BBox = tuple[float, float, float, float]
MANIFEST = "manifest.json"
FIGURES = "figures"
VERSION = 2
"""2: paper mode keeps k = 1 at the source's own size; native mode draws each chart alone in
its own style. A build of another version is refused, not mixed with this one."""


@dataclass
class Compound:
    """One image holding ``density`` charts; ``sources[i]`` is drawn inside ``boxes[i]``."""

    id: str
    density: int
    grid: tuple[int, int]
    sources: list[str]
    boxes: list[BBox]
    image: str
    width: int
    height: int

    def record(self, mode: Mode) -> dict[str, Any]:
        """The per-image record: what an eval dataset needs plus the compound's layout."""
        rows, cols = self.grid
        return {
            "id": self.id,
            "image": {"file": self.image, "width": self.width, "height": self.height},
            "layout": {"n_panels": self.density, "rows": rows, "cols": cols, "arrangement": "grid"},
            "density": {"mode": mode, "sources": self.sources, "boxes": self.boxes},
        }

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Compound:
        """The compound a stored image record describes (the inverse of :meth:`record`): its
        figgen part read as a typed record, its own ``density`` part by key."""
        from figgen.schema.record import Record

        typed, placed = Record.from_dict(record), record["density"]
        return cls(
            typed.id,
            typed.layout.n_panels,
            (typed.layout.rows, typed.layout.cols),
            list(placed["sources"]),
            [tuple(box) for box in placed["boxes"]],
            typed.image.file,
            typed.image.width,
            typed.image.height,
        )


@dataclass
class DensityManifest:
    """A density benchmark build: its settings, ground-truth tables and compounds."""

    mode: Mode
    seed: int
    densities: list[int]
    width: int
    margin: int
    tables: dict[str, ChartTable]
    kinds: dict[str, str]
    compounds: list[Compound] = field(default_factory=list)
    dropped: dict[str, int] = field(default_factory=dict)
    """Source charts left out of each density's groups (the incomplete last group)."""
    failed: dict[str, str] = field(default_factory=dict)
    """Sources or compounds that could not be rendered, with the reason."""
    skipped: dict[str, int] = field(default_factory=dict)
    """Panels of a figgen build that are not source charts, counted by reason."""
    version: int = VERSION

    def settings(self) -> dict[str, Any]:
        return {
            "version": self.version,
            "mode": self.mode,
            "seed": self.seed,
            "densities": self.densities,
            "width": self.width,
            "margin": self.margin,
            "sources": sorted(self.tables),
        }

    def to_dict(self) -> dict[str, Any]:
        return {
            "benchmark": "figgen-density",
            **{k: v for k, v in self.settings().items() if k != "sources"},
            "dropped": self.dropped,
            "failed": self.failed,
            "skipped": self.skipped,
            "sources": {
                sid: {"kind": self.kinds[sid], "table": table.to_dict()}
                for sid, table in self.tables.items()
            },
            "compounds": [asdict(c) for c in self.compounds],
        }

    @classmethod
    def from_dict(cls, values: dict[str, Any]) -> DensityManifest:
        sources = values["sources"]
        return cls(
            mode=values["mode"],
            seed=values["seed"],
            densities=list(values["densities"]),
            width=values["width"],
            margin=values["margin"],
            tables={sid: ChartTable.from_dict(s["table"]) for sid, s in sources.items()},
            kinds={sid: s["kind"] for sid, s in sources.items()},
            compounds=[
                Compound(
                    **{
                        **c,
                        "grid": tuple(c["grid"]),
                        "boxes": [tuple(b) for b in c["boxes"]],
                    }
                )
                for c in values["compounds"]
            ],
            dropped=values.get("dropped", {}),
            failed=values.get("failed", {}),
            skipped=values.get("skipped", {}),
            version=values.get("version", 1),
        )

    def compound(self, compound_id: str) -> Compound:
        for compound in self.compounds:
            if compound.id == compound_id:
                return compound
        raise KeyError(compound_id)


def load_manifest(folder: str | Path) -> DensityManifest:
    path = Path(folder) / MANIFEST
    if not path.is_file():
        raise FiggenError(f"{path} is missing; pass a folder made by figgen density build")
    values = json.loads(path.read_text(encoding="utf-8"))
    if values.get("benchmark") != "figgen-density":
        raise FiggenError(f"{path} is not a density manifest; pass a figgen density build")
    return DensityManifest.from_dict(values)
