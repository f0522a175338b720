"""The generating parameters of a panel (its record's ``params``), as typed values.

The samplers write ``params`` as plain dicts (:mod:`figgen.sample.distributions` and the kinds'
``sample``); this module reads them back, once, into one class per shape, chosen by the panel's
kind and distribution (:func:`read_params`). ``to_dict`` gives back the sampled dict exactly,
key for key and in order (fields listed in ``OPTIONAL`` are left out when None: flags the
samplers add only when set). A hand-made record may leave parameters out; they read as empty
(no slope, no components), which every Level 3 verdict takes as "not asked".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar, Self, TypeVar

from figgen._util.plain import as_plain_dict, field_names
from figgen._util.registry import Registry


class PanelParams:
    """Base of a params class: a dataclass read from and written to the stored dict."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset()
    """Fields the stored dict leaves out when None."""

    @classmethod
    def from_dict(cls, params: dict[str, Any]) -> Self:
        names = field_names(cls)
        return cls(**{key: value for key, value in params.items() if key in names})

    def to_dict(self) -> dict[str, Any]:
        out = as_plain_dict(self)
        for name in self.OPTIONAL:
            if out[name] is None:
                del out[name]
        return out


T = TypeVar("T", bound=PanelParams)


def by_distribution(
    linear: type[T], gmm: type[T], random: type[T]
) -> Callable[[dict[str, Any], str], T]:
    """A reader choosing the class by the panel's distribution."""
    shapes = {"linear": linear, "gmm": gmm}
    return lambda params, distribution: shapes.get(distribution, random).from_dict(params)


# y as a function of x: a line's series, a scatter cloud (distributions.relation)


@dataclass
class Relation(PanelParams):
    """Base of the relations ``y = f(x)``; on a log x axis the relation is in log10(x)."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"log_y_mapped"})


@dataclass
class LinearRelation(Relation):
    slope: float = 0.0
    intercept: float = 0.0
    noise: float = 0.0
    in_log10_x: bool = False
    log_y_mapped: bool | None = None
    """True: the values were mapped onto decades for a log y axis (monotonically)."""


@dataclass
class MixtureRelation(Relation):
    """A sum of Gaussian bumps over x, plus an offset."""

    components: int = 0
    means: list[float] = field(default_factory=list)
    stds: list[float] = field(default_factory=list)
    amplitudes: list[float] = field(default_factory=list)
    offset: float = 0.0
    noise: float = 0.0
    in_log10_x: bool = False
    log_y_mapped: bool | None = None


@dataclass
class RandomRelation(Relation):
    """Independent uniform values in ``[low, high]``."""

    low: float = 0.0
    high: float = 0.0
    noise: float = 0.0
    log_y_mapped: bool | None = None


relation = by_distribution(LinearRelation, MixtureRelation, RandomRelation)
"""The relation a sampler wrote for a distribution."""


@dataclass
class Clusters(PanelParams):
    """A scatter drawn from 2-D Gaussian clusters (distributions.clusters_2d), in data units."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"log_y_mapped"})

    components: int = 0
    centres: list[list[float]] = field(default_factory=list)
    stds: list[list[float]] = field(default_factory=list)
    correlations: list[float] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)
    log_y_mapped: bool | None = None


@dataclass
class LineParams(PanelParams):
    """A line panel: one relation per series, in the data's series order."""

    series: list[Relation] = field(default_factory=list)

    @classmethod
    def read(cls, params: dict[str, Any], distribution: str) -> LineParams:
        return cls([relation(p, distribution) for p in params.get("series", [])])

    def to_dict(self) -> dict[str, Any]:
        return {"series": [p.to_dict() for p in self.series]}


def scatter_params(params: dict[str, Any], distribution: str) -> Relation | Clusters:
    """A scatter panel: clusters for a mixture, else one relation."""
    if distribution == "gmm":
        return Clusters.from_dict(params)
    return relation(params, distribution)


# histogram samples (distributions.samples_1d)


@dataclass
class Samples(PanelParams):
    """Base of the one-dimensional sample densities of a histogram."""

    OPTIONAL: ClassVar[frozenset[str]] = frozenset({"in_log10"})


@dataclass
class RampSamples(Samples):
    """A density that rises (or falls) linearly across ``[low, high]``."""

    density: str = "ramp"
    rising: bool | None = None
    low: float = 0.0
    high: float = 0.0
    noise: float = 0.0
    in_log10: bool | None = None


@dataclass
class MixtureSamples(Samples):
    """A one-dimensional Gaussian mixture."""

    components: int = 0
    means: list[float] = field(default_factory=list)
    stds: list[float] = field(default_factory=list)
    weights: list[float] = field(default_factory=list)
    noise: float = 0.0
    in_log10: bool | None = None


@dataclass
class UniformSamples(Samples):
    density: str = "uniform"
    low: float = 0.0
    high: float = 0.0
    noise: float = 0.0
    in_log10: bool | None = None


# bars: one value shape per series


@dataclass
class BarShape(PanelParams):
    """Base of how one bar series' values were shaped before scaling to ``top``."""


@dataclass
class LinearBars(BarShape):
    slope: float = 0.0
    intercept: float = 0.0
    top: float = 0.0


@dataclass
class BumpBars(BarShape):
    """One Gaussian bump over the categories (``means``/``stds`` hold one value each)."""

    means: list[float] = field(default_factory=list)
    stds: list[float] = field(default_factory=list)
    top: float = 0.0


@dataclass
class RandomBars(BarShape):
    top: float = 0.0


@dataclass
class BarParams(PanelParams):
    series: list[BarShape] = field(default_factory=list)

    @classmethod
    def read(cls, params: dict[str, Any], distribution: str) -> BarParams:
        shape = by_distribution(LinearBars, BumpBars, RandomBars)
        return cls([shape(p, distribution) for p in params.get("series", [])])

    def to_dict(self) -> dict[str, Any]:
        return {"series": [p.to_dict() for p in self.series]}


# fields on a grid or over regions: contour, heatmap, map


@dataclass
class ContourPlane(PanelParams):
    """A plane over the grid; ``gradient`` is its rise across the unit square (x, y)."""

    gradient: list[float] = field(default_factory=list)
    offset: float = 0.0
    noise: float = 0.0
    unit_square: bool = True


@dataclass
class ContourBumps(PanelParams):
    """Gaussian bumps; centres and widths on the unit square of the grid (x, y)."""

    components: int = 0
    centres_unit: list[list[float]] = field(default_factory=list)
    widths_unit: list[list[float]] = field(default_factory=list)
    amplitudes: list[float] = field(default_factory=list)
    noise: float = 0.0


@dataclass
class ContourNoise(PanelParams):
    """Smooth noise: a coarse random grid upsampled."""

    coarse_shape: list[int] = field(default_factory=list)
    noise: float = 0.0


@dataclass
class ValueGradient(PanelParams):
    """Heatmap and map values rising along ``gradient`` (x, y) across the unit square, scaled
    to ``[low, top]``."""

    gradient: list[float] = field(default_factory=list)
    top: float = 0.0
    low: float = 0.0


@dataclass
class HeatmapBumps(PanelParams):
    centres_unit: list[list[float]] = field(default_factory=list)
    widths_unit: list[list[float]] = field(default_factory=list)
    top: float = 0.0
    low: float = 0.0


@dataclass
class HeatmapBlocks(PanelParams):
    """Constant blocks of ``blocks`` = (rows, columns) cells."""

    blocks: list[int] = field(default_factory=list)
    top: float = 0.0
    low: float = 0.0


@dataclass
class MapSpots(PanelParams):
    """Hot spots at region centroids (unit square of the map's extent)."""

    spots_unit: list[list[float]] = field(default_factory=list)
    width_unit: float = 0.0
    top: float = 0.0
    low: float = 0.0


@dataclass
class MapRandom(PanelParams):
    top: float = 0.0
    low: float = 0.0


# kinds whose numbers do not follow the panel's distribution


@dataclass
class BoxParams(PanelParams):
    """Group sample sizes, and the centre and spread the groups scatter around."""

    sizes: list[int] = field(default_factory=list)
    centre: float = 0.0
    spread: float = 0.0


@dataclass
class RangeParams(PanelParams):
    level: float = 0.0


@dataclass
class UniformShares(PanelParams):
    """Pie and table values drawn uniformly, whatever the panel's distribution."""

    distribution: str = "uniform"


@dataclass
class ChartGraphParams(PanelParams):
    """A LongChart image: its node in the chart graph and the inputs it draws."""

    image: str = ""
    inputs: list[str] = field(default_factory=list)

    @classmethod
    def from_dict(cls, params: dict[str, Any]) -> Self:
        return super().from_dict(params["multichart"])

    def to_dict(self) -> dict[str, Any]:
        return {"multichart": as_plain_dict(self)}


ParamsReader = Callable[[dict[str, Any], str], PanelParams]
"""Reads a kind's stored ``params`` given the panel's distribution."""

PANEL_PARAMS: Registry[ParamsReader] = Registry("plot kind")
"""How each kind's ``params`` are read, by kind name; a new kind adds its own with
:func:`panel_params` (the kinds of figgen itself are registered below)."""


def panel_params(kind: str, reader: ParamsReader) -> ParamsReader:
    """Register how ``kind`` reads its stored ``params``."""
    return PANEL_PARAMS.add(kind, reader)


def _fixed(cls: type[PanelParams]) -> ParamsReader:
    return lambda params, distribution: cls.from_dict(params)


for _kind, _reader in (
    ("line", LineParams.read),
    ("scatter", scatter_params),
    ("histogram", by_distribution(RampSamples, MixtureSamples, UniformSamples)),
    ("contour", by_distribution(ContourPlane, ContourBumps, ContourNoise)),
    ("bar", BarParams.read),
    ("heatmap", by_distribution(ValueGradient, HeatmapBumps, HeatmapBlocks)),
    ("map", by_distribution(ValueGradient, MapSpots, MapRandom)),
    ("box", _fixed(BoxParams)),
    ("range", _fixed(RangeParams)),
    ("pie", _fixed(UniformShares)),
    ("table", _fixed(UniformShares)),
):
    panel_params(_kind, _reader)


def read_params(kind: str, distribution: str, params: dict[str, Any]) -> PanelParams:
    """A stored panel's ``params`` as its typed class (a LongChart image's, whatever its kind)."""
    if "multichart" in params:
        return ChartGraphParams.from_dict(params)
    return PANEL_PARAMS.get_or_fail(kind)(params, distribution)
