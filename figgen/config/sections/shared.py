"""The config every figure reads, without the kind registry: the shared sections (panels,
image, text, fonts, style, distributions) and :class:`SharedConfig`, what sampling and the plot
kinds are given. :mod:`figgen.config.load` adds each registered kind's section to it.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal, TypeVar

from pydantic import Field

from figgen.config.sections.balance import BalanceConfig
from figgen.config.sections.fields import (
    IntRange,
    Probability,
    Range,
    Section,
    Weights,
    one_of,
    within,
)

S = TypeVar("S", bound=Section)
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


class SharedConfig(Section):
    """All sampling ranges. Defaults reproduce the anchor paper's generator.

    ``balance`` holds which items of dominant answers the build's questions keep (measured on
    the figures these settings draw: a preset with another kind mix carries its own table).
    Besides these sections, each plot kind's own section sits under the kind's name (``line``,
    ``histogram``, ...), and ``kinds`` is checked against the registered kinds:
    :class:`figgen.config.load.FigureConfig` adds both from the kind registry.
    """

    kinds: Weights = Field(default_factory=dict)
    panels: PanelsConfig = Field(default_factory=PanelsConfig)
    image: ImageConfig = Field(default_factory=ImageConfig)
    text: TextConfig = Field(default_factory=TextConfig)
    fonts: FontConfig = Field(default_factory=FontConfig)
    style: StyleConfig = Field(default_factory=StyleConfig)
    distributions: DistributionConfig = Field(default_factory=DistributionConfig)
    balance: BalanceConfig = Field(default_factory=BalanceConfig)
    repair_attempts: int = Field(6, ge=0, le=50)
    resample_attempts: int = Field(5, ge=0, le=50)

    def section(self, kind: str, model: type[S]) -> S:
        """The config section of plot kind ``kind``, typed as the kind's own model."""
        value = getattr(self, kind)
        if not isinstance(value, model):
            raise TypeError(f"the {kind!r} config section is {type(value).__name__}")
        return value

    def to_dict(self) -> dict[str, Any]:
        """The config as JSON values; a default ``balance`` is left out, so a default build's
        manifest (and config hash) is the one it was before the section existed."""
        default_balance = self.balance == BalanceConfig()
        return self.model_dump(mode="json", exclude={"balance"} if default_balance else None)
