"""The perturbations: each plans one seeded change of one figure (a warp, paint, an encoding).

Planning draws every random number up front from the figure's generator, so a plan is a pure
function of (image, record, seed, parameters) and the output is byte-reproducible. A plan's
``applied`` dict is what the record stores: the parameters and every value drawn.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, ImageDraw, ImageFilter, ImageFont

from figgen.config.sections.shared import StyleConfig
from figgen.perturb.geometry import Warp, fitted, rotation, scaling, shearing, translation
from figgen.schema.record import Record

Params = dict[str, Any]
_STRIP = 256  # rows of noise drawn at a time
Paint = Callable[[Image.Image], Image.Image]


@dataclass(frozen=True)
class Look:
    """A style sheet and a font to draw a figure in."""

    mpl_style: str
    font_family: str


@dataclass(frozen=True)
class Plan:
    """What one perturbation does to one figure, in order: warp, paint, encode."""

    applied: dict[str, Any]
    warp: Warp | None = None
    paint: Paint | None = None
    jpeg_quality: int | None = None
    png_compress_level: int = 6
    restyle: tuple[Look, ...] = ()
    """Looks to redraw the figure in, tried in order (style transfer; see ``style``)."""


PlanFn = Callable[[Image.Image, Record, np.random.Generator, Params], Plan]


@dataclass(frozen=True)
class PerturbationKind:
    name: str
    summary: str
    defaults: Params
    plan: PlanFn = field(repr=False)


KINDS: dict[str, PerturbationKind] = {}


def _kind(name: str, summary: str, **defaults: Any) -> Callable[[PlanFn], PlanFn]:
    def register(plan: PlanFn) -> PlanFn:
        KINDS[name] = PerturbationKind(name, summary, defaults, plan)
        return plan

    return register


def background(image: Image.Image) -> tuple[int, int, int]:
    """The figure's face colour: its top-left pixel."""
    r, g, b = image.convert("RGB").getpixel((0, 0))  # type: ignore[misc]
    return int(r), int(g), int(b)


def _ink(fill: tuple[int, int, int]) -> tuple[int, int, int]:
    """Dark text on a light figure, light text on a dark one."""
    return (40, 40, 40) if sum(fill) > 384 else (215, 215, 215)


@lru_cache(maxsize=16)
def font(size: int) -> ImageFont.FreeTypeFont:
    """DejaVu Sans, the font matplotlib ships, so every install draws the same glyphs."""
    import matplotlib

    path = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    return ImageFont.truetype(str(path), size)


# ---- photometric ---------------------------------------------------------------------------


@_kind("noise", "Gaussian pixel noise of standard deviation sigma (0-255 scale)", sigma=12.0)
def _noise(image: Image.Image, record: Record, rng: np.random.Generator, p: Params) -> Plan:
    sigma = float(p["sigma"])
    noise_seed = int(rng.integers(2**63))

    def paint(img: Image.Image) -> Image.Image:
        # strip by strip in float32: a 5600 x 4500 figure needs no 600 MB noise array
        pixels = np.array(img.convert("RGB"))
        draw = np.random.default_rng(noise_seed)
        for top in range(0, pixels.shape[0], _STRIP):
            strip = pixels[top : top + _STRIP]
            noisy = draw.standard_normal(strip.shape, dtype=np.float32)
            noisy *= np.float32(sigma)
            noisy += strip
            noisy += np.float32(0.5)  # round half up when truncating below
            np.clip(noisy, 0, 255, out=noisy)
            strip[...] = noisy.astype(np.uint8)
        return Image.fromarray(pixels)

    # noise does not compress: the fastest zlib level costs ~10% in size, a third in time
    return Plan({"sigma": sigma, "noise_seed": noise_seed}, paint=paint, png_compress_level=1)


@_kind("blur", "Gaussian blur of the given radius in pixels", radius=1.5)
def _blur(image: Image.Image, record: Record, rng: np.random.Generator, p: Params) -> Plan:
    radius = float(p["radius"])
    return Plan({"radius": radius}, paint=lambda img: img.filter(ImageFilter.GaussianBlur(radius)))


@_kind("jpeg", "PNG to JPEG at the given quality (1-95)", quality=30)
def _jpeg(image: Image.Image, record: Record, rng: np.random.Generator, p: Params) -> Plan:
    quality = int(p["quality"])
    if not 1 <= quality <= 95:
        raise ValueError(f"quality {quality} is outside 1-95")
    return Plan({"quality": quality}, jpeg_quality=quality)


@_kind("rescale", "resize by factor (Lanczos); boxes scale along", factor=0.5)
def _rescale(image: Image.Image, record: Record, rng: np.random.Generator, p: Params) -> Plan:
    factor = float(p["factor"])
    if factor <= 0:
        raise ValueError(f"factor {factor} must be positive")
    size = (max(1, round(image.width * factor)), max(1, round(image.height * factor)))
    warp = Warp(scaling(size[0] / image.width, size[1] / image.height), size, resize=True)
    return Plan({"factor": factor, "size": list(size)}, warp=warp)


# ---- text ----------------------------------------------------------------------------------


@_kind("watermark", "semi-transparent diagonal text across the figure", text="DRAFT", opacity=0.3)
def _watermark(image: Image.Image, record: Record, rng: np.random.Generator, p: Params) -> Plan:
    text, opacity = str(p["text"]), float(p["opacity"])
    angle = float(rng.uniform(20.0, 40.0) * rng.choice([-1.0, 1.0]))

    def paint(img: Image.Image) -> Image.Image:
        size = max(8, int(min(img.size) / 5))
        face = font(size)
        left, top, right, bottom = (int(v) for v in face.getbbox(text))
        layer = Image.new("L", (right - left + 4, bottom - top + 4), 0)
        ImageDraw.Draw(layer).text((2 - left, 2 - top), text, fill=255, font=face)
        layer = layer.rotate(angle, expand=True, resample=Image.Resampling.BICUBIC)
        alpha = Image.new("L", img.size, 0)
        alpha.paste(layer, ((img.width - layer.width) // 2, (img.height - layer.height) // 2))
        alpha = alpha.point(lambda v: int(v * opacity))
        grey = Image.new("RGB", img.size, (128, 128, 128))
        return Image.composite(grey, img.convert("RGB"), alpha)

    return Plan({"text": text, "opacity": opacity, "angle": round(angle, 6)}, paint=paint)


_MISLEADING = (
    "Mean value = {v:.3g}",
    "All values are scaled by 10^{k}",
    "Peak at x = {v:.3g}",
    "Trend: {trend} throughout",
    "This figure has {n} panels",
    "Maximum = {v:.3g}",
)


@_kind("background_text", "misleading text printed in a margin beside the chart", margin=0.3)
def _background_text(
    image: Image.Image, record: Record, rng: np.random.Generator, p: Params
) -> Plan:
    margin = float(p["margin"])
    side = str(rng.choice(["right", "left", "bottom", "top"]))
    width, height = image.size
    horizontal = side in ("right", "left")
    extra = max(20, round((width if horizontal else height) * margin))
    size = (width + extra, height) if horizontal else (width, height + extra)
    shift = {"left": (extra, 0), "top": (0, extra)}.get(side, (0, 0))
    order = rng.permutation(len(_MISLEADING))[:3]
    lines = [
        _MISLEADING[i].format(
            v=float(rng.uniform(-100, 1000)),
            k=int(rng.integers(-3, 4)),
            trend=str(rng.choice(["increasing", "decreasing", "flat"])),
            n=int(rng.integers(1, 26)),
        )
        for i in order
    ]
    box = {
        "right": (width, 0, width + extra, height),
        "left": (0, 0, extra, height),
        "bottom": (0, height, width, height + extra),
        "top": (0, 0, width, extra),
    }[side]

    def paint(img: Image.Image) -> Image.Image:
        out = img.convert("RGB")
        draw = ImageDraw.Draw(out)
        x0, y0, x1, y1 = box
        face_size = max(6, min(int((y1 - y0) / (len(lines) * 1.6)), int(height / 18)))
        face = font(face_size)
        while face_size > 6 and max(draw.textlength(t, font=face) for t in lines) > x1 - x0 - 8:
            face_size -= 1
            face = font(face_size)
        y = y0 + 4
        for text in lines:
            draw.text((x0 + 4, y), text, fill=_ink(background(img)), font=face)
            y += int(face_size * 1.5)
        return out

    warp = Warp(translation(*shift), size)
    return Plan({"margin": margin, "side": side, "text": lines}, warp=warp, paint=paint)


# ---- affine --------------------------------------------------------------------------------


def _content_box(record: Record, width: int, height: int) -> tuple[float, ...]:
    """The box around everything drawn (the figure's own box aside)."""
    boxes = [e.bbox for e in record.elements if e.kind != "figure"]
    if not boxes:
        return (0.0, 0.0, float(width), float(height))
    return (
        max(0.0, min(b[0] for b in boxes)),
        max(0.0, min(b[1] for b in boxes)),
        min(float(width), max(b[2] for b in boxes)),
        min(float(height), max(b[3] for b in boxes)),
    )


@_kind("rotate", "rotation by +-degrees (sign drawn), canvas grown to fit", degrees=4.0)
def _rotate(image: Image.Image, record: Record, rng: np.random.Generator, p: Params) -> Plan:
    angle = float(p["degrees"]) * float(rng.choice([-1.0, 1.0]))
    matrix, size = fitted(rotation(angle), image.width, image.height)
    return Plan({"degrees": float(p["degrees"]), "angle": angle}, warp=Warp(matrix, size))


@_kind("shear", "horizontal shear x' = x + k y with k = +-factor, canvas grown", factor=0.15)
def _shear(image: Image.Image, record: Record, rng: np.random.Generator, p: Params) -> Plan:
    k = float(p["factor"]) * float(rng.choice([-1.0, 1.0]))
    matrix, size = fitted(shearing(k), image.width, image.height)
    return Plan({"factor": float(p["factor"]), "k": k}, warp=Warp(matrix, size))


@_kind("crop", "cut up to fraction of the empty margin on each side (never content)", fraction=0.8)
def _crop(image: Image.Image, record: Record, rng: np.random.Generator, p: Params) -> Plan:
    fraction = float(p["fraction"])
    x0, y0, x1, y1 = _content_box(record, image.width, image.height)
    share = rng.uniform(0.0, fraction, size=4)
    left = math.floor(x0 * share[0])
    top = math.floor(y0 * share[1])
    right = math.floor((image.width - x1) * share[2])
    bottom = math.floor((image.height - y1) * share[3])
    size = (image.width - left - right, image.height - top - bottom)
    cut = [left, top, right, bottom]
    return Plan({"fraction": fraction, "cut": cut}, warp=Warp(translation(-left, -top), size))


@_kind("pad", "add up to fraction of the size as margin on each side", fraction=0.1)
def _pad(image: Image.Image, record: Record, rng: np.random.Generator, p: Params) -> Plan:
    fraction = float(p["fraction"])
    share = rng.uniform(0.0, fraction, size=4)
    left, right = (round(image.width * s) for s in share[:2])
    top, bottom = (round(image.height * s) for s in share[2:])
    size = (image.width + left + right, image.height + top + bottom)
    added = [left, top, right, bottom]
    return Plan({"fraction": fraction, "added": added}, warp=Warp(translation(left, top), size))


# ---- style ---------------------------------------------------------------------------------

RECOLOURING = ("grayscale", "tableau-colorblind10")
"""Sheets of figgen's style list that change the marks' colours, which questions ask about."""
SHEETS = tuple(s for s in StyleConfig().styles if s not in RECOLOURING)
FONTS = ("DejaVu Sans", "DejaVu Serif", "DejaVu Sans Mono")
"""Other looks where no sheet changes the picture (a dark figure, a table, a pie): the font."""


def looks(record: Record, rng: np.random.Generator) -> list[Look]:
    """The other looks of a figure in a seeded order: other sheets first, then other fonts."""
    sheet, font = record.style.mpl_style, record.style.font_family
    sheets = [] if record.style.dark else [s for s in SHEETS if s != sheet]
    fonts = [f for f in FONTS if f != font]
    return [Look(sheets[int(i)], font) for i in rng.permutation(len(sheets))] + [
        Look(sheet, fonts[int(i)]) for i in rng.permutation(len(fonts))
    ]


@_kind("style", "redraw with another style sheet (a dark figure: another font); boxes measured")
def _style(image: Image.Image, record: Record, rng: np.random.Generator, p: Params) -> Plan:
    order = tuple(looks(record, rng))
    return Plan({"tried": [dataclasses.asdict(look) for look in order]}, restyle=order)
