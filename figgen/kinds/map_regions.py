"""Region shapes for choropleth maps, read from the shapefiles the ``libpysal`` wheel ships.

libpysal (BSD-3-Clause, PySAL developers) ships example data inside its wheel:
``examples/us_income/us48.shp`` (the 48 contiguous US states, US Census boundaries) and
``examples/mexico/mexicojoin.shp`` (Mexico's 32 states). Nothing is downloaded: the files are
found beside the installed package (without importing it, which would load geopandas) and
read with ``pyshp``. Both come with the ``maps`` extra: ``pip install 'figgen[maps]'``.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import numpy as np

from figgen.errors import FiggenError

INSTALL_HINT = "map panels need the region shapes of libpysal: pip install 'figgen[maps]'"


@dataclass(frozen=True)
class Region:
    """One region: its printed label, its group (a census division) and its rings (lon, lat)."""

    label: str
    group: str
    rings: tuple[np.ndarray, ...]

    def centroid(self) -> tuple[float, float]:
        """The area-weighted centroid of its largest ring, in (lon, lat)."""
        ring = max(self.rings, key=lambda r: abs(_area(r)))
        x, y = ring[:, 0], ring[:, 1]
        cross = x[:-1] * y[1:] - x[1:] * y[:-1]
        area = cross.sum() / 2
        if area == 0:
            return float(x.mean()), float(y.mean())
        cx = ((x[:-1] + x[1:]) * cross).sum() / (6 * area)
        cy = ((y[:-1] + y[1:]) * cross).sum() / (6 * area)
        return float(cx), float(cy)


@dataclass(frozen=True)
class RegionSource:
    """A shapefile inside libpysal's examples and the fields that name its regions."""

    path: str
    label_field: str
    group_field: str | None


SOURCES: dict[str, RegionSource] = {
    "us_states": RegionSource("us_income/us48", "STATE_ABBR", "SUB_REGION"),
    "mexico_states": RegionSource("mexico/mexicojoin", "NAME", None),
}

# Mexico's shapefile spells some states with their full official names; maps print the short
# ones (what a reader finds on the map must be what the question names).
_SHORT_NAMES = {
    "Baja California Norte": "Baja California",
    "Queretaro de Arteaga": "Queretaro",
    "Michoacan de Ocampo": "Michoacan",
    "Coahuila De Zaragoza": "Coahuila",
    "Veracruz-Llave": "Veracruz",
    "Distrito Federal": "CDMX",
}

REGION_SETS: dict[str, tuple[str, tuple[str, ...] | None]] = {
    "us48": ("us_states", None),
    "us_west": ("us_states", ("Pacific", "Mtn")),
    "us_midwest": ("us_states", ("E N Cen", "W N Cen")),
    "us_south": ("us_states", ("S Atl", "E S Cen", "W S Cen")),
    "us_northeast": ("us_states", ("N Eng", "Mid Atl")),
    "mexico": ("mexico_states", None),
}
"""The maps a panel can draw: a source and the groups (census divisions) it keeps."""

REGION_SET_NOUNS: dict[str, str] = {
    "us48": "the 48 contiguous US states",
    "us_west": "the western US states",
    "us_midwest": "the midwestern US states",
    "us_south": "the southern US states",
    "us_northeast": "the northeastern US states",
    "mexico": "the states of Mexico",
}


def examples_folder() -> Path:
    """libpysal's example data folder, found without importing libpysal."""
    spec = importlib.util.find_spec("libpysal")
    if spec is None or spec.origin is None:
        raise FiggenError(INSTALL_HINT)
    folder = Path(spec.origin).parent / "examples"
    if not folder.is_dir():
        raise FiggenError(INSTALL_HINT)
    return folder


@cache
def load_source(name: str) -> tuple[Region, ...]:
    """Every region of a source, in the shapefile's order."""
    try:
        import shapefile
    except ImportError as error:
        raise FiggenError(INSTALL_HINT) from error
    source = SOURCES[name]
    reader = shapefile.Reader(str(examples_folder() / source.path))
    fields = [f.name for f in reader.fields[1:]]
    regions = []
    for shape, record in zip(reader.shapes(), reader.records(), strict=True):
        row = dict(zip(fields, record, strict=True))
        points = np.asarray(shape.points, dtype=float)
        bounds = [*shape.parts, len(points)]
        rings = tuple(points[a:b] for a, b in zip(bounds[:-1], bounds[1:], strict=True))
        label = str(row[source.label_field]).strip()
        group = str(row[source.group_field]) if source.group_field else ""
        regions.append(Region(_SHORT_NAMES.get(label, label), group, rings))
    reader.close()
    return tuple(regions)


def region_set(name: str) -> tuple[Region, ...]:
    """The regions of a named set, in the source's order."""
    if name not in REGION_SETS:
        raise FiggenError(f"unknown region set {name!r}; sets: {', '.join(REGION_SETS)}")
    source, groups = REGION_SETS[name]
    return tuple(r for r in load_source(source) if groups is None or r.group in groups)


def project(points: np.ndarray, mid_latitude: float) -> np.ndarray:
    """Equirectangular projection about ``mid_latitude``: x = lon cos(lat0), y = lat."""
    out = np.array(points, dtype=float)
    out[:, 0] *= np.cos(np.radians(mid_latitude))
    return out


def _area(ring: np.ndarray) -> float:
    x, y = ring[:, 0], ring[:, 1]
    return float((x[:-1] * y[1:] - x[1:] * y[:-1]).sum() / 2)
