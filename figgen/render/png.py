"""Lossless PNG encoders for a rendered canvas; which one is a recorded config choice.

At the dpi figgen samples an image has 5-25 million pixels, and encoding it costs about as
much as rasterising it. All encoders write the same pixels (tested by decoding them back);
they differ in seconds and bytes, so the choice is part of the config and a build's identity:

- ``pillow``: Pillow's encoder at ``compress_level`` (it tries every PNG row filter).
- ``zlib`` (the default): figgen's own writer: every row "up"-filtered in numpy, then one
  stdlib ``zlib`` stream at ``compress_level``; on figures (flat fills, straight edges) as
  small as Pillow's at the same level in 55% of its time, with no extra package.
- ``fpng``: Rich Geldreich's fpng through the ``fpng`` package (``pip install
  'figgen[fpng]'``), the fastest; its files are larger and it has no level.
"""

from __future__ import annotations

import io
import struct
import zlib
from dataclasses import dataclass
from typing import Any, get_args

import numpy as np

from figgen.config.sections.shared import ImageConfig, PngEncoderName
from figgen.errors import ConfigError

PNG_ENCODERS: tuple[PngEncoderName, ...] = get_args(PngEncoderName)
FPNG_HINT = "pip install 'figgen[fpng]'"

_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_UP_FILTER = 2
_COLOR_TYPE = {3: 2, 4: 6}  # channels -> PNG colour type (truecolour, truecolour with alpha)


@dataclass(frozen=True)
class PngSettings:
    """How a figure's PNG is encoded (``image.png_encoder`` and ``image.png_compress_level``)."""

    encoder: PngEncoderName
    compress_level: int = 1

    @classmethod
    def of(cls, image: ImageConfig) -> PngSettings:
        return cls(image.png_encoder, image.png_compress_level)


def check_encoder(settings: PngSettings) -> None:
    """Fail now, in one line, if ``settings`` names an encoder that is not installed."""
    if settings.encoder == "fpng":
        _fpng()


def encode_rgba(rgba: np.ndarray, settings: PngSettings) -> bytes:
    """PNG bytes of an (height, width, 4) uint8 image; RGB when every pixel is opaque."""
    pixels = rgba[..., :3] if bool((rgba[..., 3] == 255).all()) else rgba
    if settings.encoder == "zlib":
        return _zlib_png(pixels, settings.compress_level)
    if settings.encoder == "fpng":
        return bytes(_fpng().from_ndarray(np.ascontiguousarray(pixels)))
    from PIL import Image

    out = io.BytesIO()
    image = Image.fromarray(np.ascontiguousarray(pixels))
    image.save(out, format="PNG", compress_level=settings.compress_level)
    return out.getvalue()


def _zlib_png(pixels: np.ndarray, level: int) -> bytes:
    height, width, channels = pixels.shape
    rows = np.empty((height, 1 + width * channels), dtype=np.uint8)
    rows[:, 0] = _UP_FILTER  # the first row's "previous row" is all zeros: itself
    # Pack the (maybe alpha-strided) pixels once, so the subtraction runs on unit strides.
    packed = np.ascontiguousarray(pixels).reshape(height, width * channels)
    rows[0, 1:] = packed[0]
    np.subtract(packed[1:], packed[:-1], out=rows[1:, 1:])  # uint8 wraps modulo 256, as PNG wants
    header = struct.pack(">IIBBBBB", width, height, 8, _COLOR_TYPE[channels], 0, 0, 0)
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", zlib.compress(rows.data, level)),
            _chunk(b"IEND", b""),
        )
    )


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(data, zlib.crc32(kind))
    return b"".join((struct.pack(">I", len(data)), kind, data, struct.pack(">I", crc)))


def _fpng() -> Any:
    try:
        import fpng
    except ImportError:
        raise ConfigError(
            f"image.png_encoder 'fpng' needs the fpng package: {FPNG_HINT}, "
            "or choose image.png_encoder 'zlib' or 'pillow'"
        ) from None
    return fpng
