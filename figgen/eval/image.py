"""The one image type sent to models, scaled and encoded on demand."""

from __future__ import annotations

import base64
import io
from dataclasses import dataclass
from pathlib import Path

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
class FigureImage:
    """Encoded image bytes with their pixel size and the scale applied to the original."""

    data: bytes
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

    @property
    def media_type(self) -> str:
        return media_type_of(self.data)

    def base64(self) -> str:
        return base64.b64encode(self.data).decode("ascii")

    def data_url(self) -> str:
        return f"data:{self.media_type};base64,{self.base64()}"

    def scaled(self, factor: float) -> FigureImage:
        """A PNG of this image resized by ``factor`` (relative to this image)."""
        from PIL import Image

        with Image.open(io.BytesIO(self.data)) as img:
            width = max(1, round(img.width * factor))
            height = max(1, round(img.height * factor))
            resized = img.convert("RGBA").resize((width, height), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        resized.save(out, format="PNG", optimize=True)
        return FigureImage(out.getvalue(), width, height, self.scale * factor)
