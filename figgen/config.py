"""Every sampling range in one validated object, with the anchor paper's defaults.

A user overrides any subset from a TOML or JSON file (``figgen build --config FILE``), or names
a preset shipped with figgen (``--config tiny``: 1-2 small panels at 50-60 dpi, for smoke tests;
``--config small``); unknown keys and bad values are reported in one line that names the key.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError, create_model

from figgen.errors import ConfigError
from figgen.kinds import KINDS, default_mix
from figgen.sections import IntRange, Probability, Range, Section, Weights, one_of, within

S = TypeVar("S", bound=Section)
PRESETS = Path(__file__).parent / "presets"
PngEncoderName = Literal["pillow", "zlib", "fpng"]
ARRANGEMENTS = ("horizontal", "vertical", "grid")
CAPITALIZATIONS = ("none", "first", "every", "upper")
FONTSETS = ("dejavusans", "dejavuserif", "cm", "stix", "stixsans")
DISTRIBUTIONS = ("linear", "gmm", "random")


class PanelsConfig(Section):
    """Panel count and arrangement.

    The count is ``round(normal(mean, std))`` clipped to ``count``; the anchor draws
    normal(6, 15) in [1, 25] (about 37% single-panel).
    """

    mean: float = Field(6.0, ge=-100, le=100)
    std: float = Field(15.0, ge=0, le=100)
    count: Annotated[IntRange, within(1, 25)] = (1, 25)
    arrangement: Annotated[Weights, one_of("arrangement", ARRANGEMENTS)] = Field(
        default_factory=lambda: {"horizontal": 0.5, "vertical": 0.25, "grid": 0.25}
    )
    max_strip: int = Field(5, ge=1, le=25, description="above this many panels a near-square grid")
    min_multi_panel_share: Probability = 0.30


class ImageConfig(Section):
    dpi: Annotated[IntRange, within(40, 600)] = (200, 500)
    aspect: Annotated[Range, within(0.1, 6)] = (0.25, 1.5)  # wider panels fail to lay out
    panel_inches: Annotated[Range, within(1, 20)] = (3.0, 5.0)
    figure_aspect: Annotated[Range, within(0.1, 10)] = Field(
        (0.4, 4.0),
        description="whole-figure width / height; strips outside it get wider or taller panels",
    )
    max_inches: float = Field(
        20.0,
        ge=4.0,
        le=100,
        description="largest figure side, inches (a figure whose panel cells would come out "
        "under 1.25 in a side grows past it: see figgen.sample.layout.MIN_CELL_INCHES)",
    )
    max_pixels: int = Field(
        16_000_000, ge=1_000_000, le=200_000_000, description="dpi is lowered to stay below this"
    )
    png_encoder: PngEncoderName = Field(
        "zlib", description="lossless PNG encoder; see figgen.render.png (fpng is an extra)"
    )
    png_compress_level: int = Field(1, ge=0, le=9, description="zlib level (pillow, zlib)")


class TextConfig(Section):
    title_p: Probability = 0.5
    title_words: Annotated[IntRange, within(1, 10)] = (1, 5)
    title_formula_p: Probability = 0.1
    label_p: Probability = 0.9
    label_words: Annotated[IntRange, within(1, 10)] = (1, 3)
    label_formula_p: Probability = 0.25
    colorbar_label_p: Probability = 0.7
    capitalization: Annotated[Weights, one_of("capitalization", CAPITALIZATIONS)] = Field(
        default_factory=lambda: {"none": 1.0, "first": 1.0, "every": 1.0, "upper": 0.3}
    )


class FontConfig(Section):
    title: Annotated[Range, within(2, 48)] = (10, 20)
    label: Annotated[Range, within(2, 48)] = (6, 20)
    tick: Annotated[Range, within(2, 48)] = (4, 20)
    colorbar: Annotated[Range, within(2, 48)] = (6, 18)
    families: Weights = Field(
        default_factory=lambda: {
            "DejaVu Sans": 3.0,
            "DejaVu Serif": 2.0,
            "DejaVu Sans Mono": 0.5,
            "STIXGeneral": 1.5,
            "cmr10": 1.0,
        }
    )
    mathtext_fontsets: Annotated[Weights, one_of("mathtext fontset", FONTSETS)] = Field(
        default_factory=lambda: {
            "dejavusans": 2.0,
            "dejavuserif": 1.0,
            "cm": 1.5,
            "stix": 1.0,
            "stixsans": 0.5,
        }
    )


class StyleConfig(Section):
    styles: list[str] = Field(
        min_length=1,
        default_factory=lambda: [
            "default",
            "classic",
            "ggplot",
            "bmh",
            "seaborn-v0_8-whitegrid",
            "seaborn-v0_8-darkgrid",
            "seaborn-v0_8-ticks",
            "fivethirtyeight",
            "grayscale",
            "Solarize_Light2",
            "tableau-colorblind10",
            "fast",
        ],
    )
    dark_p: Probability = 0.08
    log_x_p: Probability = 0.12
    log_y_p: Probability = 0.15
    colormap_p: Probability = 0.95
    legend_p: Probability = 0.6
    grid_p: Probability = 0.3
    offset_text_p: Probability = 0.1


class DistributionConfig(Section):
    weights: Annotated[Weights, one_of("distribution", DISTRIBUTIONS)] = Field(
        default_factory=lambda: {"linear": 1.0, "gmm": 1.0, "random": 1.0}
    )
    slope: Annotated[Range, within(-1e3, 1e3)] = (-5.0, 5.0)
    intercept: Annotated[Range, within(-1e6, 1e6)] = (-100.0, 100.0)
    noise: Annotated[Range, within(0, 2)] = (0.0, 0.25)
    gmm_clusters: Annotated[IntRange, within(1, 50)] = (1, 20)
    x_span: Annotated[Range, within(0.01, 1e6)] = (1.0, 1000.0)


class _FigureConfig(Section):
    """All sampling ranges. Defaults reproduce the anchor paper's generator.

    Besides these sections, each plot kind's own section sits under the kind's name (``line``,
    ``histogram``, ...): :func:`_with_kind_sections` adds them from the kind registry.
    """

    kinds: Annotated[Weights, one_of("plot kind", KINDS)] = Field(default_factory=default_mix)
    panels: PanelsConfig = Field(default_factory=PanelsConfig)
    image: ImageConfig = Field(default_factory=ImageConfig)
    text: TextConfig = Field(default_factory=TextConfig)
    fonts: FontConfig = Field(default_factory=FontConfig)
    style: StyleConfig = Field(default_factory=StyleConfig)
    distributions: DistributionConfig = Field(default_factory=DistributionConfig)
    repair_attempts: int = Field(6, ge=0, le=50)
    resample_attempts: int = Field(5, ge=0, le=50)

    def section(self, kind: str, model: type[S]) -> S:
        """The config section of plot kind ``kind``, typed as the kind's own model."""
        value = getattr(self, kind)
        if not isinstance(value, model):
            raise TypeError(f"the {kind!r} config section is {type(value).__name__}")
        return value

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def _with_kind_sections() -> type[_FigureConfig]:
    sections: dict[str, Any] = {
        name: (kind.config, Field(default_factory=kind.config)) for name, kind in KINDS.items()
    }
    model = create_model("FigureConfig", __base__=_FigureConfig, __module__=__name__, **sections)
    model.__doc__ = _FigureConfig.__doc__
    return model


if TYPE_CHECKING:
    FigureConfig = _FigureConfig
else:
    FigureConfig = _with_kind_sections()


def config_from_dict(values: dict[str, Any], *, source: str = "config") -> FigureConfig:
    """Validate ``values`` into a config; the first problem becomes a one-line ConfigError."""
    try:
        return FigureConfig.model_validate(values)
    except ValidationError as exc:
        raise ConfigError(_one_line(exc, source)) from None


def preset_names() -> list[str]:
    """The presets ``--config NAME`` accepts."""
    return sorted(p.stem for p in PRESETS.glob("*.toml"))


def load_config(path: str | Path | None) -> FigureConfig:
    """Read a TOML or JSON config file, a build's manifest.json, or a preset by name; ``None``
    gives the defaults."""
    if path is None:
        return FigureConfig()
    path = Path(path)
    if not path.exists() and str(path) in preset_names():
        path = PRESETS / f"{path}.toml"
    elif not path.exists():
        raise ConfigError(
            f"config file {path} does not exist; give a TOML/JSON file or a preset "
            f"({', '.join(preset_names())})"
        )
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"cannot read config file {path}: {exc.strerror}") from None
    try:
        values = json.loads(text) if path.suffix == ".json" else tomllib.loads(text)
    except (json.JSONDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ConfigError(f"{path}: not valid {path.suffix.lstrip('.') or 'TOML'}: {exc}") from None
    if not isinstance(values, dict):
        raise ConfigError(f"{path}: the top level must be a table of settings")
    if path.name == "manifest.json" and isinstance(values.get("config"), dict):
        values = values["config"]  # a build's manifest: rebuild with the config it records
    return config_from_dict(values, source=str(path))


def _one_line(exc: ValidationError, source: str) -> str:
    error = exc.errors()[0]
    key = ".".join(str(part) for part in error["loc"])
    if error["type"] == "extra_forbidden":
        parent = _section_for(error["loc"][:-1])
        valid = ", ".join(sorted(parent.model_fields)) if parent else ""
        return f"{source}: unknown key {key!r}; valid keys here: {valid}"
    message = error["msg"].removeprefix("Value error, ")
    got = "" if "got" in message else f" (got {error.get('input')!r})"
    return f"{source}: bad value for {key!r}: {message}{got}"


def _section_for(loc: tuple[Any, ...]) -> type[BaseModel] | None:
    model: type[BaseModel] = FigureConfig
    for part in loc:
        field = model.model_fields.get(str(part))
        annotation = field.annotation if field else None
        if not (isinstance(annotation, type) and issubclass(annotation, BaseModel)):
            return None
        model = annotation
    return model
