"""The one image type sent to models, and how it is resized and encoded."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal

ImageFormat = Literal["png", "jpeg", "webp"]
MEDIA_TYPES: dict[ImageFormat, str] = {
    "png": "image/png",
    "jpeg": "image/jpeg",
    "webp": "image/webp",
}

LOSSY_QUALITY = 95
"""JPEG/WebP quality: high enough that tick labels and thin lines stay sharp."""

PNG_COMPRESS_LEVEL = 1
"""zlib level for re-encoded PNGs. ``optimize=True`` spent most of a run's time for a file
only somewhat smaller; level 1 encodes many times faster (benchmarks/bench_eval.py)."""

_MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x89PNG\r\n\x1a\n", "image/png"),
    (b"\xff\xd8\xff", "image/jpeg"),
    (b"GIF87a", "image/gif"),
    (b"GIF89a", "image/gif"),
)


def media_type_of(data: bytes) -> str:
    """The MIME type the bytes actually are (never assumed from a file name)."""
    for magic, media_type in _MAGIC:
        if data.startswith(magic):
            return media_type
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    raise ValueError("unrecognised image bytes (expected PNG, JPEG, GIF or WebP)")


@dataclass(frozen=True)
class ImageLimits:
    """What a provider accepts or can use of an image, known before anything is sent.

    ``max_long_side``: the vendor shrinks larger images to this before the model sees them,
    so sending more pixels costs time and bandwidth for nothing. ``max_bytes``: the largest
    encoded image the API accepts. ``formats``: the media types it accepts.
    """

    max_long_side: int | None = None
    max_bytes: int | None = None
    formats: frozenset[str] = frozenset(MEDIA_TYPES.values())


@dataclass(frozen=True)
class FigureImage:
    """Encoded image bytes with their pixel size and the scale applied to the original."""

    data: bytes = field(repr=False)
    width: int
    height: int
    scale: float = 1.0

    @classmethod
    def from_file(cls, path: str | Path) -> FigureImage:
        from PIL import Image

        data = Path(path).read_bytes()
        with Image.open(io.BytesIO(data)) as img:
            width, height = img.size
        return cls(data, width, height)

    @cached_property
    def media_type(self) -> str:
        return media_type_of(self.data)

    @cached_property
    def _base64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")

    def base64(self) -> str:
        """The bytes in base64, encoded once per image however often it is sent."""
        return self._base64

    @cached_property
    def _data_url(self) -> str:
        return f"data:{self.media_type};base64,{self._base64}"

    def data_url(self) -> str:
        return self._data_url

    def scaled(
        self,
        factor: float,
        *,
        image_format: ImageFormat = "png",
        quality: int = LOSSY_QUALITY,
    ) -> FigureImage:
        """This image resized by ``factor`` (relative to this image) and encoded anew.

        The same image is returned when nothing would change (factor 1, same format).
        """
        if factor == 1.0 and self.media_type == MEDIA_TYPES[image_format]:
            return self
        from PIL import Image

        with Image.open(io.BytesIO(self.data)) as img:
            width = max(1, round(img.width * factor))
            height = max(1, round(img.height * factor))
            picture = _mode_for(img, image_format)
            step = round(1 / factor)
            if (width, height) == picture.size:
                pass
            elif (
                factor < 1
                and abs(1 / factor - step) < 1e-9
                and picture.size
                == (
                    width * step,
                    height * step,
                )
            ):
                picture = picture.reduce(step)  # halvings: an exact box average, 10x faster
            else:
                # reducing_gap: a box pre-reduction, then Lanczos; visually the same, faster
                picture = picture.resize(
                    (width, height), Image.Resampling.LANCZOS, reducing_gap=2.0
                )
        out = io.BytesIO()
        picture.save(out, **_save_options(image_format, quality))
        return FigureImage(out.getvalue(), width, height, self.scale * factor)


def _mode_for(img: Any, image_format: ImageFormat) -> Any:
    """RGB unless the image has transparency worth keeping (JPEG has none: composite on white)."""
    from PIL import Image

    has_alpha = img.mode in ("RGBA", "LA") or (img.mode == "P" and "transparency" in img.info)
    if not has_alpha:
        return img.convert("RGB")
    rgba = img.convert("RGBA")
    if image_format == "jpeg":
        background = Image.new("RGB", rgba.size, (255, 255, 255))
        background.paste(rgba, mask=rgba.getchannel("A"))
        return background
    return rgba


def _save_options(image_format: ImageFormat, quality: int) -> dict[str, Any]:
    if image_format == "png":
        return {"format": "PNG", "compress_level": PNG_COMPRESS_LEVEL}
    if image_format == "jpeg":
        # 4:4:4 (no chroma subsampling) keeps coloured lines and small text crisp
        return {"format": "JPEG", "quality": quality, "subsampling": 0}
    return {"format": "WEBP", "quality": quality, "method": 4}
